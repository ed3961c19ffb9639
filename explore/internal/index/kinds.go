package index

import (
	"cmp"
	"slices"

	"github.com/neardup/neardup/transforms/categorize"
)

// kindRank orders categories as categorize's rules do, others after them.
func kindRank(kind string) int {
	switch kind {
	case categorize.Reference:
		return 0
	case categorize.Identical:
		return 1
	case categorize.Other:
		return 2
	case categorize.CopyEdit:
		return 3
	case categorize.Template:
		return 4
	case categorize.FactualDrift:
		return 5
	}
	return 6
}

// SortKinds orders categories as categorize's rules do (reference,
// identical, other, copy_edit, template, factual_drift), others after them
// by name.
func SortKinds(ks []KindCount) {
	slices.SortFunc(ks, func(a, b KindCount) int {
		return cmp.Or(cmp.Compare(kindRank(a.Kind), kindRank(b.Kind)), cmp.Compare(a.Kind, b.Kind))
	})
}
