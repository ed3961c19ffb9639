package index

import (
	"cmp"
	"slices"

	"github.com/neardup/neardup/transforms/kindstyle"
)

// kindRank orders categories as report.html does (kindstyle.Kinds),
// others after them.
func kindRank(kind string) int {
	if i := slices.IndexFunc(kindstyle.Kinds, func(k kindstyle.Kind) bool { return k.Name == kind }); i >= 0 {
		return i
	}
	return len(kindstyle.Kinds)
}

// SortKinds orders categories as report.html does (identical, copy_edit,
// factual_drift, template, reference, other), others after them by name.
func SortKinds(ks []KindCount) {
	slices.SortFunc(ks, func(a, b KindCount) int {
		return cmp.Or(cmp.Compare(kindRank(a.Kind), kindRank(b.Kind)), cmp.Compare(a.Kind, b.Kind))
	})
}
