// Package corpus holds what the synthetic corpora of the tests and the
// benchmark are made of: real dumps read whole (ReadFile, ReadPages), their
// pages cleaned and split into sentences as the pipeline splits them
// (Splitter), the pipeline's length window (Window), and the raw XML of a
// dump's pages edited in place or written anew (TextSpan, ReplaceText,
// ReplaceID, AppendEscaped). The generators of the scaled, distinct and
// hot-key corpora (bench/cmd/scale, bench/cmd/hotkey), of the web reuse
// corpus (testkit/webcorpus) and of the planted passages
// (testkit/passageeval) build on it.
package corpus
