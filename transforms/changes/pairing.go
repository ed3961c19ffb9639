package changes

// Pairing the sentences of a group (a gap between the diff's matches, or
// the sentences left unpaired page-wide): which old and new sentences are
// versions of each other.

import (
	"cmp"
	"hash/fnv"
	"math"
	"slices"
	"unicode"
	"unicode/utf8"

	"github.com/neardup/neardup/transforms/categorize"
	"github.com/neardup/neardup/transforms/shingle"
	"github.com/neardup/neardup/transforms/verify"
)

// MinWordDice is the least Dice similarity of the sets of words of two
// sentences that makes them versions of one statement when the
// verification's bounds do not: two versions that give other values
// change the characters around each of them, which breaks many shingles,
// but keep most of their words. It is where categorize.Compare stops
// calling a pair too different to be one statement (OtherMinChangedShare
// of its words changed).
const MinWordDice = 1 - categorize.OtherMinChangedShare

// MinSharedWords is the fewest words two sentences paired by their words
// share: a heading of two words sharing one ("Mental abacus",
// "MesoAmerican abacus") is no version of the other.
const MinSharedWords = 3

// Bounds of the index that pairs a large group of sentences (pairIndexed).
const (
	// DefaultMaxVisits bounds the posting entries the index reads for one
	// page: 256 M, some seconds, far beyond a real page (the 124 × 288
	// sentences of Alabama left unpaired read 19 k). Beyond it the old sentences left
	// are compared with the new ones near their place only, and the rest
	// of their pairs are counted as skipped.
	DefaultMaxVisits = 1 << 28
	// maxCandidates is the most new sentences an old one is compared
	// with, for each of the two measures, the most similar first (by
	// shared rare shingles or words): the others are counted as skipped.
	// Only a sentence repeated with small changes over a long list has
	// more versions than that.
	maxCandidates = 64
	// editCandidates is how many of the new sentences sharing the most of
	// its rare shingles an old sentence is verified against even without a
	// shingle of both prefixes: a pair within the edit-distance bound may
	// share too few shingles for the Jaccard bound.
	editCandidates = 4
	// commonToken: a shingle or word of more new sentences than this,
	// outside the prefix of an old sentence, is not counted in what it
	// shares with them: it is a common word, and tells little.
	commonToken = 64
)

// candidate is a pair of sentences that are versions of each other: by
// the verification's bounds (tier 0, with their similarity), or by their
// words (tier 1, with the words' Dice similarity).
type candidate struct {
	Match
	tier  int
	sim   verify.Similarity
	words float64
}

// best takes the candidates best first, each sentence once: the
// verification's before the words', and of each the most similar (highest
// Jaccard similarity, then least edit distance; highest Dice similarity of
// the words), then by position.
func best(cands []candidate) []Match {
	slices.SortFunc(cands, func(x, y candidate) int {
		return cmp.Or(
			cmp.Compare(x.tier, y.tier),
			cmp.Compare(y.sim.Jaccard, x.sim.Jaccard),
			cmp.Compare(x.sim.Edit, y.sim.Edit),
			cmp.Compare(y.words, x.words),
			cmp.Compare(x.Old, y.Old),
			cmp.Compare(x.New, y.New))
	})
	usedOld, usedNew := map[int]bool{}, map[int]bool{}
	var out []Match
	for _, k := range cands {
		if !usedOld[k.Old] && !usedNew[k.New] {
			usedOld[k.Old], usedNew[k.New] = true, true
			out = append(out, k.Match)
		}
	}
	return out
}

// pairGroup pairs old sentences of the indices io with new ones of the
// indices in, comparing at most budget pairs: all against all if there are
// at most MaxGapPairs pairs, otherwise the candidates of an index of the
// sentences' shingles and words (pairIndexed), which reads at most visits
// posting entries. It returns the pairs, how many it compared and how many
// candidate pairs the bounds skipped.
func (c *Comparer) pairGroup(old, cur []Sentence, io, in []int, sets *sentenceSets, budget int, visits *int) (ms []Match, compared, skipped int) {
	same, io, in := samePairs(old, cur, io, in, sets)
	n, m := len(io), len(in)
	var cands []candidate
	switch {
	case n == 0 || m == 0:
	case n*m <= min(c.cfg.MaxGapPairs, budget):
		for _, i := range io {
			for _, j := range in {
				compared++
				if k, ok := c.versions(old, cur, i, j, sets); ok {
					cands = append(cands, k)
				}
			}
		}
	default:
		cands, compared, skipped = c.pairIndexed(old, cur, io, in, sets, budget, visits)
	}
	return append(same, best(cands)...), compared, skipped
}

// samePairs pairs the old sentences io and the new ones in whose
// normalised texts are the same (a moved sentence, or one whose case or
// spacing changed), each old one with the first new one left, and returns
// those pairs and the sentences left. They are the pairs best would take
// first (Jaccard similarity 1, edit distance 0), found without comparing
// each with each: a page that repeats its sentences, whose diff finds no
// anchor, costs no more than another.
func samePairs(old, cur []Sentence, io, in []int, sets *sentenceSets) (same []Match, restOld, restNew []int) {
	firsts := map[string][]int{} // normalised text → the new sentences with it, in order
	for _, j := range in {
		k := sets.get(1, j, cur[j].Text).norm
		firsts[k] = append(firsts[k], j)
	}
	paired := map[int]bool{}
	for _, i := range io {
		k := sets.get(0, i, old[i].Text).norm
		if js := firsts[k]; len(js) > 0 {
			same = append(same, Match{i, js[0]})
			firsts[k], paired[js[0]] = js[1:], true
			continue
		}
		restOld = append(restOld, i)
	}
	if len(same) == 0 {
		return nil, io, in
	}
	for _, j := range in {
		if !paired[j] {
			restNew = append(restNew, j)
		}
	}
	return same, restOld, restNew
}

// versions reports whether old[i] and cur[j] are versions of each other,
// as a candidate: by the verification, or by their words.
func (c *Comparer) versions(old, cur []Sentence, i, j int, sets *sentenceSets) (candidate, bool) {
	if sim, ok := c.checker.Compare(old[i].Text, cur[j].Text); ok {
		return candidate{Match: Match{i, j}, sim: sim}, true
	}
	return c.wordVersions(old, cur, i, j, sets)
}

// wordVersions reports whether old[i] and cur[j] share enough words to be
// versions (MinWordDice, MinSharedWords).
func (c *Comparer) wordVersions(old, cur []Sentence, i, j int, sets *sentenceSets) (candidate, bool) {
	x, y := sets.get(0, i, old[i].Text).words, sets.get(1, j, cur[j].Text).words
	d, common := dice(x, y)
	return candidate{Match: Match{i, j}, tier: 1, words: d}, d >= MinWordDice && common >= MinSharedWords
}

// dice returns 2|x ∩ y| / (|x| + |y|) of two sorted sets, and |x ∩ y|.
func dice(x, y []uint64) (float64, int) {
	if len(x)+len(y) == 0 {
		return 0, 0
	}
	common := 0
	for a, b := 0, 0; a < len(x) && b < len(y); {
		switch {
		case x[a] < y[b]:
			a++
		case x[a] > y[b]:
			b++
		default:
			common++
			a++
			b++
		}
	}
	return 2 * float64(common) / float64(len(x)+len(y)), common
}

// sentenceSets holds what the index reads of a page's sentences, computed
// once each: the normalised text, the sorted distinct hashes of its
// shingles (as the verification computes them), its length in runes, and
// the sorted distinct hashes of its words in lower case.
type sentenceSets struct {
	length int
	norm   shingle.Normalization
	sets   [2][]*sentenceSet
	buf    []rune
}

type sentenceSet struct {
	norm     string // the normalised text
	shingles []uint64
	runes    int
	words    []uint64
}

func newSentenceSets(cfg Config, old, cur int) *sentenceSets {
	return &sentenceSets{length: cfg.ShingleLength, norm: cfg.Norm, sets: [2][]*sentenceSet{make([]*sentenceSet, old), make([]*sentenceSet, cur)}}
}

// get returns the sets of sentence i of side (0 old, 1 new), whose text is
// text.
func (s *sentenceSets) get(side, i int, text string) *sentenceSet {
	if x := s.sets[side][i]; x != nil {
		return x
	}
	s.buf = s.norm.Normalize(s.buf[:0], text)
	h := shingle.AppendHashes(nil, s.buf, min(s.length, len(s.buf)))
	slices.Sort(h)
	x := &sentenceSet{norm: string(s.buf), shingles: slices.Compact(h), runes: len(s.buf), words: wordSet(text)}
	s.sets[side][i] = x
	return x
}

// wordSet returns the sorted distinct FNV-1a hashes of the words of text
// (runs of letters, marks and digits of any script), in lower case.
func wordSet(text string) []uint64 {
	var out []uint64
	h := fnv.New64a()
	var buf [utf8.UTFMax]byte
	in := false
	for _, r := range text + " " {
		if unicode.IsLetter(r) || unicode.IsDigit(r) || unicode.IsMark(r) {
			h.Write(buf[:utf8.EncodeRune(buf[:], unicode.ToLower(r))])
			in = true
			continue
		}
		if in {
			out = append(out, h.Sum64())
			h.Reset()
			in = false
		}
	}
	slices.Sort(out)
	return slices.Compact(out)
}

// rank orders the tokens (shingles or words) of a group from the rarest
// to the most common, ties by hash.
type rank struct {
	freq int32
	hash uint64
}

func (r rank) cmp(o rank) int {
	return cmp.Or(cmp.Compare(r.freq, o.freq), cmp.Compare(r.hash, o.hash))
}

// index is an inverted index of the token sets of a group's new sentences
// for prefix filtering at Jaccard similarity t: ordered from the group's
// rarest token to its most common, two sets with Jaccard similarity at
// least t share a token among the first |X| − ⌈t·|X|⌉ + 1 of each.
type index struct {
	t        float64
	freq     map[uint64]int32
	postings map[uint64][]int32 // token → positions of the new sentences holding it
	bounds   []rank             // the last token of each new sentence's prefix
	ordered  []rank

	shared    []int32 // by new sentence: tokens shared with the old one probed
	hit       []bool  // by new sentence: a token of both prefixes shared
	touched   []int32 // the new sentences sharing a token
	uncounted int32   // tokens of the old one probed that shared leaves out
	sizes     []int32 // tokens of each new sentence
}

// newIndex indexes the sets of the new sentences, counting the tokens of
// the old ones too.
func newIndex(t float64, olds, news [][]uint64) *index {
	x := &index{t: t, freq: map[uint64]int32{}, postings: map[uint64][]int32{},
		bounds: make([]rank, len(news)), shared: make([]int32, len(news)), hit: make([]bool, len(news))}
	for _, sets := range [][][]uint64{olds, news} {
		for _, s := range sets {
			for _, h := range s {
				x.freq[h]++
			}
		}
	}
	x.sizes = make([]int32, len(news))
	for b, s := range news {
		x.sizes[b] = int32(len(s))
		x.order(s)
		if p := x.prefix(len(x.ordered)); p > 0 {
			x.bounds[b] = x.ordered[p-1]
		}
		for _, r := range x.ordered {
			x.postings[r.hash] = append(x.postings[r.hash], int32(b))
		}
	}
	return x
}

// order sets x.ordered to the ranks of the tokens of set, rarest first.
func (x *index) order(set []uint64) {
	x.ordered = x.ordered[:0]
	for _, h := range set {
		x.ordered = append(x.ordered, rank{x.freq[h], h})
	}
	slices.SortFunc(x.ordered, rank.cmp)
}

// prefix is how many of the rarest of n tokens a set with Jaccard
// similarity at least t to another shares one of with the other's prefix:
// n − ⌈t·n⌉ + 1 (all of them if t is 0 or less).
func (x *index) prefix(n int) int {
	if !(x.t > 0) {
		return n
	}
	return min(n, n-int(math.Ceil(x.t*float64(n)-1e-9))+1)
}

// probe counts, for each new sentence, the tokens of set it shares (those
// of the prefix, and the others held by at most commonToken new sentences)
// and whether it shares one of both prefixes, reading at most visits
// posting entries. It reports false if visits ran out.
func (x *index) probe(set []uint64, visits *int) bool {
	for _, b := range x.touched {
		x.shared[b], x.hit[b] = 0, false
	}
	x.touched, x.uncounted = x.touched[:0], 0
	x.order(set)
	px := x.prefix(len(x.ordered))
	for k, r := range x.ordered {
		post := x.postings[r.hash]
		if k >= px && len(post) > commonToken {
			x.uncounted++
			continue
		}
		if *visits < len(post) {
			return false
		}
		*visits -= len(post)
		for _, b := range post {
			if x.shared[b] == 0 {
				x.touched = append(x.touched, b)
			}
			x.shared[b]++
			if k < px && r.cmp(x.bounds[b]) <= 0 {
				x.hit[b] = true
			}
		}
	}
	return true
}

// candidate reports whether new sentence b may reach the index's Jaccard
// bound with the old set of n tokens probed last: it shares a token of
// both prefixes, and the tokens it shares, with those left uncounted, can
// reach the overlap the bound needs, t/(1+t)·(n + |Y|).
func (x *index) candidate(b int32, n int) bool {
	need := x.t / (1 + x.t) * float64(n+int(x.sizes[b]))
	return x.hit[b] && float64(x.shared[b]+x.uncounted) >= need-1e-9
}

// pairIndexed pairs the old sentences io with the new ones in through
// inverted indexes of the new sentences' shingles and words, so that a
// group of n old and m new sentences costs about the tokens of its
// sentences and a few comparisons per sentence, not n·m comparisons.
//
// Every pair whose shingle sets reach the Jaccard bound is a candidate
// (prefix filtering), and so is every pair whose word sets reach
// MinWordDice (a Jaccard similarity of d/(2−d)). A pair accepted by the
// edit-distance bound alone may share fewer shingles, so each old sentence
// is also verified against the editCandidates new ones that share the most
// of its rare shingles, and a short one (fewer than twice the shingle
// length: one edit can leave it no shingle in common) against the new ones
// near its place, as a gap's alignment would place them. Each old sentence
// is compared with at most maxCandidates new ones by each measure, the
// most similar first. It returns the candidates accepted, how many
// comparisons it made and how many candidates the bounds left uncompared.
func (c *Comparer) pairIndexed(old, cur []Sentence, io, in []int, sets *sentenceSets, budget int, visits *int) (cands []candidate, compared, skipped int) {
	n, m := len(io), len(in)
	oldShingles, oldWords := make([][]uint64, n), make([][]uint64, n)
	for a, i := range io {
		s := sets.get(0, i, old[i].Text)
		oldShingles[a], oldWords[a] = s.shingles, s.words
	}
	newShingles, newWords := make([][]uint64, m), make([][]uint64, m)
	for b, j := range in {
		s := sets.get(1, j, cur[j].Text)
		newShingles[b], newWords[b] = s.shingles, s.words
	}
	byShingles := newIndex(c.cfg.Thresholds.MinJaccard, oldShingles, newShingles)
	byWords := newIndex(MinWordDice/(2-MinWordDice), oldWords, newWords)

	var verified, worded []int32
	for a, i := range io {
		at := a * m / n
		near := func(x *index) func(p, q int32) int {
			return func(p, q int32) int {
				return cmp.Or(cmp.Compare(x.shared[q], x.shared[p]), cmp.Compare(abs(int(p)-at), abs(int(q)-at)), cmp.Compare(p, q))
			}
		}
		complete := byShingles.probe(oldShingles[a], visits)
		complete = byWords.probe(oldWords[a], visits) && complete // both probed, each resets its counts
		// Verified against: every shingle prefix hit, the new sentences
		// sharing the most rare shingles, and for a short sentence or one
		// the visits bound stopped, the new ones near its place.
		verified = verified[:0]
		var others []int32
		for _, b := range byShingles.touched {
			if byShingles.candidate(b, len(oldShingles[a])) {
				verified = append(verified, b)
			} else {
				others = append(others, b)
			}
		}
		slices.SortFunc(others, near(byShingles))
		xRunes := sets.get(0, i, old[i].Text).runes
		for _, b := range others[:min(len(others), editCandidates)] {
			if c.editPossible(xRunes, sets.get(1, in[b], cur[in[b]].Text).runes) {
				verified = append(verified, b)
			}
		}
		if !complete || xRunes < 2*sets.length {
			for b := int32(max(0, at-window)); b < int32(min(m, at+window+1)); b++ {
				if !slices.Contains(verified, b) {
					verified = append(verified, b)
				}
			}
		}
		slices.SortFunc(verified, near(byShingles))
		worded = worded[:0]
		for _, b := range byWords.touched {
			if byWords.candidate(b, len(oldWords[a])) && !slices.Contains(verified, b) {
				worded = append(worded, b)
			}
		}
		slices.SortFunc(worded, near(byWords))
		if !complete {
			skipped += m - len(verified) - len(worded)
		}
		for _, picks := range []*[]int32{&verified, &worded} {
			if len(*picks) > maxCandidates {
				skipped += len(*picks) - maxCandidates
				*picks = (*picks)[:maxCandidates]
			}
		}
		for k, b := range slices.Concat(verified, worded) {
			if compared == budget {
				skipped += len(verified) + len(worded) - k
				break
			}
			compared++
			var cand candidate
			var ok bool
			if k < len(verified) {
				cand, ok = c.versions(old, cur, i, in[b], sets)
			} else {
				cand, ok = c.wordVersions(old, cur, i, in[b], sets)
			}
			if ok {
				cands = append(cands, cand)
			}
		}
	}
	return cands, compared, skipped
}

// editPossible reports whether texts of x and y runes can be within the
// edit-distance bound: their lengths differ by at most that many edits.
func (c *Comparer) editPossible(x, y int) bool {
	return float64(abs(x-y)) <= c.cfg.Thresholds.MaxEdit*float64(max(x, y))
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}
