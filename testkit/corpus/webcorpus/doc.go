// Package webcorpus builds a test corpus of web pages whose text reuse
// with Wikipedia is known, for the pipeline that finds text reuse between
// Wikipedia dumps and web crawls (pipelines/reuse). Real web samples hold
// few reuse cases; this corpus plants them, of both kinds Alshomary's
// chapter 4 defines, in real pages' boilerplate, and labels every page.
//
// Build reads real dumps (Config.Sources) and real HTML pages of Common
// Crawl WARC samples (Config.Hosts) and makes, deterministically from
// Config.Seed, pages of content reuse (verbatim or lightly edited), of
// structure reuse (an article's template filled for a made-up entity) and
// negatives; Score scores a run's cases against the labels.
//
//   - Labels are checked against every article of Config.Sources: a
//     pipeline test must read exactly those dumps, whole.
//
// What each kind of page holds and what a label means: docs/reuse.md, "The
// labelled test corpus".
package webcorpus
