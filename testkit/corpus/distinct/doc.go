// Package distinct generates the benchmark's distinct corpus: new pages
// learnt from real dumps, whose sentences are distinct but for
// near-duplicate clusters injected at about the share Weissman et al.
// found in Wikipedia (Config.Share; see bench/README.md for the recipe and
// its figures):
//
//   - the text comes from a word-level Markov chain of order 2 trained on
//     the clean prose sentences of the input's articles (wikitext.Clean,
//     the English sentence rules), which never writes a run of six words
//     of the training text, takes the length of a random training
//     sentence, and replaces 45% of its content words by others of their
//     shape and half of its numbers by others (see chain);
//   - each article takes the layout of a random real article, cut to its
//     lead and some of its first sections: its templates, infoboxes,
//     tables, files, categories and headings as they are, each paragraph
//     and list item rewritten with as many new sentences (with links,
//     bold titles, <ref>s of {{cite}} templates or citation text); 10% of
//     the pages are redirects, 3% of other namespaces;
//   - at a new in-window sentence a cluster is born now and then (as often
//     as keeps its members at Config.Share of the in-window sentences):
//     its size has a heavy tail (2–10 members, P ∝ s^-3, for 99% of
//     clusters; up to Config.MaxCluster, P ∝ s^-2, for 1%), its kind is
//     one of the papers' (identical, copy edit, factual drift, template,
//     reference, in the shares of Ayhan et al.'s Table 1), and its other
//     members go to random later pages, with the edits of the kind.
//
// The pages are written one by one, the chain's sentences generated ahead
// on every core; memory is the model's and the copies waiting for their
// page, whatever the size. The same model and Config give the same bytes.
package distinct
