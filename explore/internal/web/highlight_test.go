package web

import (
	"reflect"
	"testing"

	"github.com/neardup/neardup/transforms/categorize"
)

func TestHighlight(t *testing.T) {
	type seg = categorize.Segment
	for _, tc := range []struct {
		name  string
		texts []string
		want  [][]seg
	}{
		{"identical", []string{"The lake is 40 m deep.", "The lake is 40 m deep."},
			[][]seg{{{Text: "The lake is 40 m deep."}}, {{Text: "The lake is 40 m deep."}}}},
		{"a number changed", []string{"The lake is 40 m deep.", "The lake is 45 m deep."},
			[][]seg{{{Text: "The lake is "}, {Text: "40", Changed: true}, {Text: " m deep."}},
				{{Text: "The lake is "}, {Text: "45", Changed: true}, {Text: " m deep."}}}},
		{"the first marks every other's changes", []string{"It was built in 1890 by Anna Ivins.", "It was built in 1891 by Anna Ivins.", "It was built in 1890 by Karin Ivins."},
			[][]seg{{{Text: "It was built in "}, {Text: "1890", Changed: true}, {Text: " by "}, {Text: "Anna", Changed: true}, {Text: " Ivins."}},
				{{Text: "It was built in "}, {Text: "1891", Changed: true}, {Text: " by Anna Ivins."}},
				{{Text: "It was built in 1890 by "}, {Text: "Karin", Changed: true}, {Text: " Ivins."}}}},
		{"Greek", []string{"Η λίμνη έχει βάθος 40 μέτρα.", "Η λίμνη έχει βάθος 45 μέτρα."},
			[][]seg{{{Text: "Η λίμνη έχει βάθος "}, {Text: "40", Changed: true}, {Text: " μέτρα."}},
				{{Text: "Η λίμνη έχει βάθος "}, {Text: "45", Changed: true}, {Text: " μέτρα."}}}},
		{"one member", []string{"Alone."}, [][]seg{{{Text: "Alone."}}}},
		{"none", nil, [][]seg{}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := highlight(tc.texts); !reflect.DeepEqual(got, tc.want) {
				t.Errorf("got  %+v\nwant %+v", got, tc.want)
			}
		})
	}
}
