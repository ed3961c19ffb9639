package webcorpus

import (
	"reflect"
	"testing"
)

func TestScore(t *testing.T) {
	a := ArticleRef{Wiki: "enwiki", PageID: 1, Title: "A"}
	b := ArticleRef{Wiki: "enwiki", PageID: 2, Title: "B"}
	f1 := ArticleRef{Wiki: "elwiki", PageID: 10, Title: "F1"}
	f2 := ArticleRef{Wiki: "elwiki", PageID: 11, Title: "F2"}
	labels := []Label{
		{URL: "u1", Reuses: []Reuse{{Article: a, Kind: Content}}},
		{URL: "u2", Reuses: []Reuse{{Article: a, Kind: Content}, {Article: b, Kind: Content}}},
		{URL: "u3", Reuses: []Reuse{{Article: f1, Kind: Structure, Family: []ArticleRef{f1, f2}}}},
		{URL: "neg"},
	}
	found := func(url string, r ArticleRef, k Kind) Found {
		return Found{URL: url, Wiki: r.Wiki, PageID: r.PageID, Kind: k}
	}
	for _, tc := range []struct {
		name                    string
		found                   []Found
		precision, recall, kind float64
		fp, wrong               int
		fn                      int
	}{
		{name: "nothing", precision: 1, recall: 0, kind: 1, fn: 4},
		{name: "all", found: []Found{found("u1", a, Content), found("u2", a, Content), found("u2", b, Content), found("u3", f1, Structure)},
			precision: 1, recall: 1, kind: 1},
		{name: "family member counts", found: []Found{found("u3", f2, Structure)}, precision: 1, recall: 0.25, kind: 1, fn: 3},
		{name: "repeats count once", found: []Found{found("u1", a, Content), found("u1", a, Content)}, precision: 1, recall: 0.25, kind: 1, fn: 3},
		{name: "false positive", found: []Found{found("u1", a, Content), found("neg", a, Content), found("u1", b, Content)},
			precision: 1.0 / 3, recall: 0.25, kind: 1, fp: 2, fn: 3},
		{name: "wrong kind", found: []Found{found("u1", a, Structure), found("u3", f2, Content), found("u2", b, Content)},
			precision: 1, recall: 0.75, kind: 1.0 / 3, wrong: 2, fn: 1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := Score(labels, tc.found)
			if s.Precision != tc.precision || s.Recall != tc.recall || s.KindAccuracy != tc.kind {
				t.Errorf("precision %v recall %v kind accuracy %v, want %v %v %v", s.Precision, s.Recall, s.KindAccuracy, tc.precision, tc.recall, tc.kind)
			}
			if len(s.FalsePositives) != tc.fp || len(s.FalseNegatives) != tc.fn || len(s.WrongKind) != tc.wrong {
				t.Errorf("%d false positives, %d false negatives, %d wrong kinds; want %d %d %d", len(s.FalsePositives), len(s.FalseNegatives), len(s.WrongKind), tc.fp, tc.fn, tc.wrong)
			}
		})
	}
}

func TestScorePerKind(t *testing.T) {
	a := ArticleRef{Wiki: "w", PageID: 1}
	labels := []Label{
		{URL: "c1", Reuses: []Reuse{{Article: a, Kind: Content}}},
		{URL: "c2", Reuses: []Reuse{{Article: a, Kind: Content}}},
		{URL: "s1", Reuses: []Reuse{{Article: a, Kind: Structure}}},
	}
	s := Score(labels, []Found{
		{URL: "c1", Wiki: "w", PageID: 1, Kind: Content},
		{URL: "c2", Wiki: "w", PageID: 1, Kind: Structure},
		{URL: "s1", Wiki: "w", PageID: 1, Kind: Structure},
	})
	want := map[Kind]KindScore{Content: {Precision: 1, Recall: 0.5}, Structure: {Precision: 0.5, Recall: 1}}
	if !reflect.DeepEqual(s.PerKind, want) {
		t.Errorf("per kind %v, want %v", s.PerKind, want)
	}
}
