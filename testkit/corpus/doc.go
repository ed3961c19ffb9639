// Package corpus holds what the synthetic corpora of the tests, the
// benchmark and the explorer's benchmarks are made of: real dumps read
// whole (ReadFile, ReadPages), their pages cleaned and split into
// sentences as the pipeline splits them (Splitter), the pipeline's length
// window (Window), a page's raw XML edited in place or written anew
// (TextSpan, ReplaceText, ReplaceID, AppendEscaped, Footer), a multistream
// dump written as its pages come (MultistreamWriter), and seeded draws
// (NewRand: a named stream of a seed; AppendDigits).
//
// Each kind of corpus is a package below it, with its options in a Config
// (or Scaler) and its own seeded draws, so that the same options give the
// same bytes:
//
//   - scaled: real pages (or JSON-lines documents) repeated k times, each
//     copy with seeded edits (the benchmark's scaled corpora, written by
//     bench/cmd/scale);
//   - distinct: new pages from a Markov chain trained on real ones, with
//     near-duplicate clusters injected at Wikipedia's density
//     (bench/cmd/scale -format distinct);
//   - hotkey: one template sentence repeated on many stubs, the largest
//     bucket and component (bench/cmd/hotkey, pipelines/sentences' test);
//   - webcorpus: real web pages' boilerplate around passages of real
//     articles, labelled (the reuse pipeline's test);
//   - passageeval: paragraphs of real pages planted into others, and the
//     score of the passages a run finds (the shared-passage evaluation);
//   - synthrun: run directories of clusters as the pipeline writes them
//     (the explorer's tests and benchmarks, bench/cmd/synthrun).
package corpus
