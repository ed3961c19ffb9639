// Package webcorpus builds a test corpus of web pages whose text reuse
// with Wikipedia is known, for the pipeline that finds text reuse between
// Wikipedia dumps and web crawls (pipelines/reuse). Real web samples hold
// few reuse cases; this corpus plants them, of both kinds Alshomary's
// chapter 4 defines, in real pages' boilerplate, and labels every page.
//
// Build reads real dumps (Config.Sources: Katrina in English, DBpedia's de
// and fr minidumps, the truncated uk and el dumps) and cleans and splits
// their articles exactly as the pipeline does (packages clean and
// sentence). It reads real HTML pages from Common Crawl WARC samples
// (Config.Hosts) and makes, deterministically from Config.Seed:
//
//   - content reuse, verbatim: a passage of MinPassage to MaxPassage
//     consecutive in-window prose sentences of an article, as <p>
//     elements in place of a real page's main content (its head,
//     navigation, sidebars and footer kept), after a sentence of the
//     host's own text; the source languages are taken in turn, so most
//     pages are not English;
//   - content reuse, lightly edited: the same, with three sentences in
//     four edited once (EditWord, EditSynonym, EditClause,
//     EditPunctuation, EditWhitespace, EditNumber) at character-5-shingle
//     Jaccard ≥ MinEditedJaccard, and the passage maybe with a sentence
//     dropped or two swapped;
//   - pages copying passages of two articles, and pairs of pages copying
//     two parts of one article;
//   - structure reuse: an article's template sentences (sentences equal,
//     once capitalised words and numbers are masked, in at least three
//     articles of its dump: the country statistics of the el and uk dumps,
//     the year articles of the uk dump) filled for a made-up entity: every
//     slot (a word that differs in the family, a word of the title, a
//     number other than a year) replaced by an invented word of the same
//     script keeping its ending, or an invented number of the same shape;
//   - negatives: real pages untouched, and pages with boilerplate whose
//     text is an article's words in random order.
//
// # Labels
//
// A reuse case is a (web page URL, article) pair; an article is named by
// its wiki as the pipeline reads it (document.Site.Wiki: DBpedia's de and fr
// minidumps declare dbname enwiki, so their articles are enwiki's, with
// page ids that do not collide) and its page id. A content case's article
// is the one copied; every copied sentence is a sentence of it, and none
// is within Jaccard 0.5 of a sentence of any other article of the
// sources. A structure case's article is the one whose template the page
// was filled from; its Family is every article of the sources one of the
// page's sentences matches at Jaccard ≥ 0.5 (always with the article
// itself), and a case found with any of them is right (Score). The page
// holds none of the article's Entities. Negatives have no case: none of
// their sentences is within Jaccard 0.5 of a sentence of the sources (a
// real page that is is left out). Jaccard is measured on character
// 5-shingles of the normalised text (Jaccard).
//
// Labels are checked against every article of Config.Sources: a pipeline
// test must read exactly those dumps, whole.
package webcorpus
