// Package rereads makes a page revision that a run reads more than once count
// once.
//
// A run may read the same revision of a page twice: a dump listed twice,
// the multistream and the plain dump of one date, or two dumps of one wiki
// taken at dates between which the page did not change. Sentence ids are
// made of the wiki, the revision and the position (sentence.Doc), so the two
// copies give the same ids and the same records, and the later stages take
// each id once (bucket.Stars, the verification and cluster joins). What is
// left to do is accounting: the signing stage describes every page it
// signed (a minhash.PageInfo), and this package finds the ids met more than once, takes
// the copies after the first out of the counts (counters.Counts
// PagesDuplicate) and refuses, with an error naming both files and
// offsets, two different pages or texts that claim the same revision: ids
// would then mix sentences that are not the same, silently.
package rereads

import (
	"cmp"
	"fmt"
	"slices"

	"github.com/neardup/neardup/transforms/minhash"

	"github.com/neardup/neardup/internal/counters"
)

// Resolve sorts infos in place, by document then file and offset, and
// returns the counts that take every copy after the first of a document
// out of the totals. Copies must be the same page with the same text; a
// document claimed by two different pages or texts is an error.
func Resolve(infos []minhash.PageInfo) (counters.Counts, error) {
	slices.SortFunc(infos, func(a, b minhash.PageInfo) int {
		return cmp.Or(cmp.Compare(a.Doc, b.Doc), cmp.Compare(a.File, b.File), cmp.Compare(a.Offset, b.Offset))
	})
	var c counters.Counts
	for i := 1; i < len(infos); i++ {
		first, dup := infos[i-1], infos[i]
		if dup.Doc != first.Doc {
			continue
		}
		infos[i] = first // later copies are compared with the first
		if dup.PageID != first.PageID || dup.TextHash != first.TextHash {
			return counters.Counts{}, conflict(first, dup)
		}
		c.PagesDuplicate++
		c.PagesKept--
		c.Sentences -= dup.Counts.Sentences
		c.SentencesTooShort -= dup.Counts.TooShort
		c.SentencesTooLong -= dup.Counts.TooLong
		c.SentencesInWindow -= dup.Counts.InWindow
		c.Signatures -= dup.Counts.Signatures
		c.SentencesCut -= dup.Counts.Cut
		c.DebrisLines -= dup.Counts.Debris
	}
	return c, nil
}

// conflict describes two pages that claim the same revision.
func conflict(a, b minhash.PageInfo) error {
	what := "different texts"
	if a.PageID != b.PageID {
		what = fmt.Sprintf("different pages (ids %d and %d)", a.PageID, b.PageID)
	}
	return fmt.Errorf("rereads: %q at offset %d of %s and %q at offset %d of %s have the same wiki and revision id but %s; "+
		"revision ids must be unique within a wiki (give the files different <dbname>s if they are different wikis)",
		a.Title, a.Offset, a.File, b.Title, b.Offset, b.File, what)
}
