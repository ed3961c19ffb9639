package main

import (
	"fmt"
	"strings"

	"github.com/neardup/neardup/io/text"
	"github.com/neardup/neardup/pipelines/internal/launcher"
	"github.com/neardup/neardup/transforms/exactjoin"
	"github.com/neardup/neardup/transforms/simhash"
)

// Limits the options are checked against.
const (
	// maxRounds bounds --rounds: each round is a shuffle of every edge.
	maxRounds = 64
	// maxAliasNames bounds --max_aliases: a table of that many names of one
	// wiki takes some gigabytes on every worker.
	maxAliasNames = 1 << 25
	// weissmanBands and weissmanRows are the fixed banding of the weissman
	// scheme.
	weissmanBands, weissmanRows = 10, 10
)

// bandingFlags are the flags that choose the banding of the oph and bands
// schemes; the weissman scheme's is fixed.
var bandingFlags = []string{"bands", "rows", "threshold", "recall", "max_bands"}

// simhashFlags are the flags of the simhash scheme only.
var simhashFlags = []string{"features", "simhash_bits", "permutations", "window", "max_hamming"}

// Bounds of the simhash scheme's parameters: a signature is one uint64,
// every order costs a shuffle of every sentence, and a window compares
// each sentence with its window-1 successors.
const (
	maxPermutations = 64
	maxWindow       = 1000
)

// Validate checks every option: each number's range (NaN and infinities
// are refused), the scheme and the flags that apply to it (Set tells which
// were given explicitly), the namespaces and the run id. It does no I/O and
// changes nothing: resolve chooses the banding after it, and Build calls it
// again, so that every caller gets the same checks. Bands and Rows may be 0
// (chosen by resolve) or the values resolve chose.
func (o Options) Validate() error {
	if len(o.Input) == 0 || o.Output == "" {
		return fmt.Errorf("--input and --output are required (try --input 'dumps/*.bz2' --output out/)")
	}
	if o.RunID != "" {
		if err := checkRunID(o.RunID); err != nil {
			return err
		}
	}
	if _, err := text.ParseFormat(o.InputFormat); err != nil {
		return fmt.Errorf("--input_format: %w", err)
	}
	if err := o.stages().Check(); err != nil {
		return err
	}
	if err := o.validateScheme(); err != nil {
		return err
	}
	if o.EmitDuplicates && !(o.DuplicateShare > 0 && o.DuplicateShare <= 1) {
		return fmt.Errorf("--duplicate_share must be above 0 and at most 1, got %v", o.DuplicateShare)
	}
	if err := launcher.CheckRanges(
		launcher.Range{Flag: "top_pairs", Value: int64(o.TopPairs), Min: 1, Max: launcher.MaxTop},
		launcher.Range{Flag: "rounds", Value: int64(o.Rounds), Min: 0, Max: maxRounds},
		launcher.Range{Flag: "max_members", Value: int64(o.MaxMembers), Min: 0, Max: launcher.MaxPageBytes, Note: " (0: every member)"},
		launcher.Range{Flag: "max_aliases", Value: int64(o.MaxAliases), Min: 0, Max: maxAliasNames, Note: " (0: no alias table)"},
		launcher.Range{Flag: "report_examples", Value: int64(o.Examples), Min: 0, Max: maxExamples},
	); err != nil {
		return err
	}
	return checkFormats(o.Formats)
}

// checkFormats accepts jsonl, alone or with parquet: the JSON lines are
// what report.html, the explorer and the manifest's readers read.
func checkFormats(formats []string) error {
	seen := map[string]bool{}
	for _, f := range formats {
		switch {
		case f != formatJSONL && f != formatParquet:
			return fmt.Errorf("--formats: unknown format %q (want jsonl or jsonl,parquet)", f)
		case seen[f]:
			return fmt.Errorf("--formats: %s given twice", f)
		}
		seen[f] = true
	}
	if !seen[formatJSONL] {
		return fmt.Errorf("--formats must include jsonl (the files report.html and the explorer read), got %q", strings.Join(formats, ","))
	}
	return nil
}

// parseFormats splits the --formats flag's comma-separated list.
func parseFormats(s string) []string {
	var out []string
	for _, f := range strings.Split(s, ",") {
		if f = strings.TrimSpace(f); f != "" {
			out = append(out, f)
		}
	}
	return out
}

// validateScheme checks the scheme and the banding flags that apply to it.
func (o Options) validateScheme() error {
	if o.Scheme != "simhash" {
		if set := launcher.Given(o.Set, simhashFlags...); len(set) > 0 {
			return fmt.Errorf("%s to --scheme %s, only to --scheme simhash", launcher.DoNotApply(set), o.Scheme)
		}
	}
	switch o.Scheme {
	case "simhash", "exact":
		return o.validateSimhashOrExact()
	case "weissman":
		if set := launcher.Given(o.Set, bandingFlags...); len(set) > 0 {
			return fmt.Errorf("--scheme weissman has a fixed banding (%d bands × %d rows): %s", weissmanBands, weissmanRows, launcher.DoNotApply(set))
		}
		if (o.Bands != 0 || o.Rows != 0) && (o.Bands != weissmanBands || o.Rows != weissmanRows) {
			return fmt.Errorf("--scheme weissman has a fixed banding (%d bands × %d rows), got --bands %d --rows %d", weissmanBands, weissmanRows, o.Bands, o.Rows)
		}
		return nil
	case "oph", "bands":
	default:
		return fmt.Errorf("--scheme must be 'oph', 'bands', 'weissman', 'simhash' or 'exact', got %q", o.Scheme)
	}
	return o.banding().Check(o.Set)
}

// validateSimhashOrExact checks the options of the schemes that are not
// MinHash banding: --threshold (a cosine for simhash, a Jaccard similarity
// for exact), and simhash's own flags. The banding flags do not apply.
func (o Options) validateSimhashOrExact() error {
	if set := launcher.Given(o.Set, "bands", "rows", "recall", "max_bands"); len(set) > 0 {
		return fmt.Errorf("--scheme %s has no bands: %s", o.Scheme, launcher.DoNotApply(set))
	}
	if !openUnitInterval(o.Threshold) && !(o.Scheme == "exact" && o.Threshold == 1) {
		return fmt.Errorf("--threshold must be between 0 and 1 (exclusive), got %v", o.Threshold)
	}
	if o.Scheme == "exact" {
		// Its pairs are verified at Jaccard ≥ --threshold and nothing
		// else (exactjoin.Verification): the verification flags do not apply.
		if set := launcher.Given(o.Set, "min_jaccard", "max_edit"); len(set) > 0 {
			return fmt.Errorf("--scheme exact verifies its pairs at Jaccard ≥ --threshold: %s", launcher.DoNotApply(set))
		}
		return nil
	}
	h := o.Simhash
	switch {
	case h.Features != "shingles" && h.Features != "words":
		return fmt.Errorf("--features must be 'shingles' or 'words', got %q", h.Features)
	case h.Bits < 1 || h.Bits > 64:
		return fmt.Errorf("--simhash_bits must be between 1 and 64, got %d", h.Bits)
	case h.Permutations < 1 || h.Permutations > maxPermutations:
		return fmt.Errorf("--permutations must be between 1 and %d, got %d", maxPermutations, h.Permutations)
	case h.Window < 2 || h.Window > maxWindow:
		return fmt.Errorf("--window must be between 2 and %d, got %d", maxWindow, h.Window)
	case h.MaxHamming < -1 || h.MaxHamming > h.Bits:
		return fmt.Errorf("--max_hamming must be between 0 and --simhash_bits (%d), or -1 (from --threshold), got %d", h.Bits, h.MaxHamming)
	}
	if o.Set["max_hamming"] && h.MaxHamming >= 0 && o.Set["threshold"] {
		return fmt.Errorf("--max_hamming sets the Hamming limit by hand: --threshold does not apply")
	}
	return nil
}

// resolve validates the options and chooses the banding: the weissman
// scheme's fixed one, or for oph and bands, unless --bands and --rows give
// it, the sharpest one of at most MaxBands bands that reaches the recall at
// the threshold.
func (o *Options) resolve() error {
	if err := o.Validate(); err != nil {
		return err
	}
	return o.chooseBanding()
}

// chooseBanding fills in Bands and Rows of valid options, and clears the
// parameters the banding does not use, so that summary.json records only
// what the run used.
func (o *Options) chooseBanding() error {
	if o.Scheme != "simhash" {
		o.Simhash = SimhashOptions{}
	}
	switch {
	case o.Scheme == "simhash" || o.Scheme == "exact":
		o.Bands, o.Rows, o.Recall, o.MaxBands = 0, 0, 0, 0
		if o.Scheme == "exact" {
			v := exactjoin.Verification(o.Threshold)
			o.MinJaccard, o.MaxEdit = v.MinJaccard, v.MaxEdit
		}
		if o.Scheme == "simhash" && o.Simhash.MaxHamming < 0 {
			o.Simhash.MaxHamming = simhash.MaxHammingFor(o.Threshold, o.Simhash.Bits)
		}
	case o.Scheme == "weissman":
		o.Bands, o.Rows, o.Threshold, o.Recall, o.MaxBands = weissmanBands, weissmanRows, 0, 0, 0
	default:
		b, r, err := o.banding().Choose()
		if err != nil {
			return err
		}
		o.Bands, o.Rows = b, r
	}
	return nil
}

// banding is the MinHash banding of the oph and bands schemes.
func (o Options) banding() launcher.Banding {
	return launcher.Banding{Threshold: o.Threshold, Recall: o.Recall, MaxBands: o.MaxBands, Bands: o.Bands, Rows: o.Rows}
}

// openUnitInterval reports whether 0 < x < 1 (false for NaN).
func openUnitInterval(x float64) bool { return x > 0 && x < 1 }

// checkRunID refuses a run id that is not a plain directory name.
func checkRunID(id string) error { return launcher.CheckRunID(id) }
