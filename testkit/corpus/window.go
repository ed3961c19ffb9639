package corpus

import "github.com/neardup/neardup/transforms/shingle"

// Window is the pipeline's length window (--shingle_length,
// --min_shingles, --max_shingles, --fold_case, --collapse_space): it signs
// a sentence of n shingles if Min < n < Max.
type Window struct {
	Length, Min, Max int
	Norm             shingle.Normalization
}

// DefaultWindow is the pipeline's window at its defaults: 75 < n < 600
// shingles of 12 characters, case folded, white space collapsed.
var DefaultWindow = Window{Length: 12, Min: 75, Max: 600, Norm: shingle.DefaultNormalization}

// Holds reports whether the pipeline signs text.
func (w Window) Holds(text string) bool {
	return w.HoldsRunes(len(w.Norm.Normalize(nil, text)))
}

// HoldsRunes reports whether the pipeline signs a text of n characters
// once normalised.
func (w Window) HoldsRunes(n int) bool {
	c := shingle.Count(n, w.Length)
	return w.Min < c && c < w.Max
}
