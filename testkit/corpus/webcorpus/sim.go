package webcorpus

import (
	"slices"
	"unicode/utf8"

	"github.com/neardup/neardup/transforms/shingle"
	"github.com/neardup/neardup/transforms/verify"
)

// ShingleLength is the length of the character shingles the labels'
// Jaccard similarities are measured on, with the pipeline's default
// normalisation (case folded, white space collapsed).
const ShingleLength = 5

// NearDuplicate is the Jaccard similarity on character 5-shingles at and
// above which two sentences count as sharing text: copied sentences match
// no other article at it, negatives no article at all.
const NearDuplicate = 0.5

// shingles returns the sorted distinct character-5-shingle hashes of text.
func shingles(sh *shingle.Shingler, text string) []uint64 {
	return verify.Set(nil, sh.Hashes(text))
}

func newShingler() *shingle.Shingler {
	return shingle.New(ShingleLength, shingle.DefaultNormalization)
}

// Jaccard is the Jaccard similarity of the character-5-shingle sets of a
// and b (1 for two texts too short to have shingles that are equal).
func Jaccard(a, b string) float64 {
	sh := newShingler()
	return verify.Jaccard(shingles(sh, a), shingles(sh, b))
}

// index finds, among the query sentences added to it, those a scanned
// sentence is similar to, by counting shared shingles.
type index struct {
	sh     *shingle.Shingler
	post   map[uint64][]int32
	sizes  []int
	counts []int32
	seen   []int32
	least  int // the fewest shingles of a query
}

func newIndex() *index { return &index{sh: newShingler(), post: map[uint64][]int32{}} }

// add adds a query sentence and returns its number.
func (ix *index) add(text string) int {
	q := len(ix.sizes)
	set := shingles(ix.sh, text)
	for _, h := range set {
		ix.post[h] = append(ix.post[h], int32(q))
	}
	if len(ix.sizes) == 0 || len(set) < ix.least {
		ix.least = len(set)
	}
	ix.sizes = append(ix.sizes, len(set))
	ix.counts = append(ix.counts, 0)
	return q
}

// scan calls match for every query whose Jaccard similarity with text is
// at least threshold.
func (ix *index) scan(text string, threshold float64, match func(q int, j float64)) {
	// A text of n runes has at most n-ShingleLength+1 shingles, and a
	// query of m shingles is within threshold of a set of at least
	// threshold·m.
	if n := utf8.RuneCountInString(text) - ShingleLength + 1; float64(n) < threshold*float64(ix.least) {
		return
	}
	set := shingles(ix.sh, text)
	ix.seen = ix.seen[:0]
	for _, h := range set {
		for _, q := range ix.post[h] {
			if ix.counts[q] == 0 {
				ix.seen = append(ix.seen, q)
			}
			ix.counts[q]++
		}
	}
	slices.Sort(ix.seen)
	for _, q := range ix.seen {
		c := int(ix.counts[q])
		ix.counts[q] = 0
		if j := float64(c) / float64(ix.sizes[q]+len(set)-c); j >= threshold {
			match(int(q), j)
		}
	}
}
