// Package distinct generates the benchmark's distinct corpus: new pages
// learnt from real dumps, whose sentences are distinct but for
// near-duplicate clusters injected at about the share Weissman et al.
// found in Wikipedia (Config.Share).
//
// The text comes from a word-level Markov chain trained on the clean prose
// of the input's articles, which never copies a run of six training words;
// each page takes the layout of a real article; and now and then a cluster
// of a heavy-tailed size and one of the papers' kinds is born, its members
// spread over later pages with the edits of its kind.
//
//   - The same model and Config give the same bytes, on any number of cores.
//   - Memory is the model's and the copies waiting for their page, whatever
//     the size of the corpus.
//
// The recipe and its figures: bench/README.md, "Distinct corpus".
package distinct
