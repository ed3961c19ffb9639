package sectionkind

import (
	"cmp"
	"encoding/json"
	"fmt"
	"slices"
)

// Heading is one learned heading of a wiki and the counts that taught it.
type Heading struct {
	Wiki      string `json:"wiki"`
	Heading   string `json:"heading"` // folded (Fold)
	Lines     int64  `json:"lines"`
	Citations int64  `json:"citations"`
	Pages     int    `json:"pages"` // pages with a citation line, at most MaxPages
}

// Table is the headings learned to hold citations, per wiki. The zero
// Table knows none. It is read-only once built or decoded, safe for
// concurrent use, and implements categorize.Sections.
type Table struct {
	headings []Heading                  // sorted by wiki, then heading
	index    map[string]map[string]bool // wiki → folded heading
}

// Build returns the table of the headings of entries that are Learned,
// at most MaxHeadingsPerWiki per wiki (most citation lines first, ties by
// heading). Entries of one key must have been summed already (Counter).
func Build(entries []Entry) *Table {
	var hs []Heading
	for _, e := range entries {
		if e.Stats.Learned() {
			hs = append(hs, Heading{Wiki: e.Wiki, Heading: e.Heading, Lines: e.Stats.Lines,
				Citations: e.Stats.Citations, Pages: len(e.Stats.Pages)})
		}
	}
	return newTable(hs)
}

// Merge returns the table of the headings of a and b, bounded as Build
// bounds it.
func Merge(a, b *Table) *Table {
	return newTable(append(slices.Clone(a.headings), b.headings...))
}

// newTable keeps the best MaxHeadingsPerWiki headings of each wiki (and
// the best of two with one key), sorts them and indexes them.
func newTable(hs []Heading) *Table {
	slices.SortFunc(hs, func(a, b Heading) int {
		return cmp.Or(cmp.Compare(a.Wiki, b.Wiki), cmp.Compare(b.Citations, a.Citations),
			cmp.Compare(a.Heading, b.Heading), cmp.Compare(b.Lines, a.Lines), cmp.Compare(b.Pages, a.Pages))
	})
	t := &Table{index: map[string]map[string]bool{}}
	for _, h := range hs {
		w := t.index[h.Wiki]
		if w == nil {
			w = map[string]bool{}
			t.index[h.Wiki] = w
		}
		if !w[h.Heading] && len(w) < MaxHeadingsPerWiki {
			w[h.Heading] = true
			t.headings = append(t.headings, h)
		}
	}
	slices.SortFunc(t.headings, func(a, b Heading) int {
		return cmp.Or(cmp.Compare(a.Wiki, b.Wiki), cmp.Compare(a.Heading, b.Heading))
	})
	return t
}

// IsReference reports whether the section headed section in wiki was
// learned to hold citations.
func (t *Table) IsReference(wiki, section string) bool {
	if t == nil || len(t.index) == 0 {
		return false
	}
	return t.index[wiki][Fold(section)]
}

// Headings returns the learned headings, sorted by wiki and heading.
func (t *Table) Headings() []Heading {
	if t == nil {
		return nil
	}
	return slices.Clone(t.headings)
}

// Len is the number of learned headings.
func (t *Table) Len() int {
	if t == nil {
		return 0
	}
	return len(t.headings)
}

// MarshalBinary encodes the table as the JSON list of its headings.
func (t *Table) MarshalBinary() ([]byte, error) {
	hs := []Heading{}
	if t != nil {
		hs = t.headings
	}
	return json.Marshal(hs)
}

// UnmarshalBinary decodes what MarshalBinary wrote into t.
func (t *Table) UnmarshalBinary(b []byte) error {
	var hs []Heading
	if err := json.Unmarshal(b, &hs); err != nil {
		return fmt.Errorf("sectionkind: decoding the learned headings: %w", err)
	}
	*t = *newTable(hs)
	return nil
}
