package webcorpus

import (
	"cmp"
	"slices"
)

// Found is a reuse case the pipeline reports: the web page at URL reuses
// the article (Wiki, PageID), of kind Kind.
type Found struct {
	URL    string
	Wiki   string
	PageID int64
	Kind   Kind
}

// Case is a labelled reuse case (Label.Reuses).
type Case struct {
	URL     string
	Article ArticleRef
	Kind    Kind
}

// KindScore is the precision and recall of one kind on the cases found
// that are true.
type KindScore struct{ Precision, Recall float64 }

// Scores is how the cases found compare with the labels.
type Scores struct {
	Labelled, Found, Correct, Recalled int
	// Precision is Correct/Found: a found case is correct if its (URL,
	// article) is a labelled content case or, for a structure label, the
	// article is one of the label's family. Recall is Recalled/Labelled: a
	// content case is recalled if found, a structure case if any article
	// of its family is.
	Precision, Recall float64
	// KindAccuracy is the share of correct cases found with the right
	// kind; PerKind are the precision and recall of each kind on them.
	KindAccuracy float64
	PerKind      map[Kind]KindScore
	// FalsePositives are the found cases that are not correct,
	// FalseNegatives the labelled cases not recalled, WrongKind the
	// correct cases found with the wrong kind.
	FalsePositives []Found
	FalseNegatives []Case
	WrongKind      []Found
}

type pairKey struct {
	url    string
	wiki   string
	pageID int64
}

// Score scores the cases found (repeats count once) against the labels.
func Score(labels []Label, found []Found) Scores {
	var cases []Case
	byPair := map[pairKey]int{}
	for _, l := range labels {
		for _, r := range l.Reuses {
			byPair[pairKey{l.URL, r.Article.Wiki, r.Article.PageID}] = len(cases)
			for _, f := range r.Family {
				k := pairKey{l.URL, f.Wiki, f.PageID}
				if _, ok := byPair[k]; !ok {
					byPair[k] = len(cases)
				}
			}
			cases = append(cases, Case{URL: l.URL, Article: r.Article, Kind: r.Kind})
		}
	}
	s := Scores{Labelled: len(cases), PerKind: map[Kind]KindScore{}}
	recalled := make([]bool, len(cases))
	seen := map[pairKey]bool{}
	right := 0
	type tally struct{ predicted, truth, both int }
	kinds := map[Kind]*tally{Content: {}, Structure: {}}
	for _, f := range found {
		k := pairKey{f.URL, f.Wiki, f.PageID}
		if seen[k] {
			continue
		}
		seen[k] = true
		s.Found++
		i, ok := byPair[k]
		if !ok {
			s.FalsePositives = append(s.FalsePositives, f)
			continue
		}
		s.Correct++
		recalled[i] = true
		truth := cases[i].Kind
		for _, kk := range []Kind{f.Kind, truth} {
			if kinds[kk] == nil {
				kinds[kk] = &tally{}
			}
		}
		kinds[f.Kind].predicted++
		kinds[truth].truth++
		if f.Kind == truth {
			right++
			kinds[truth].both++
		} else {
			s.WrongKind = append(s.WrongKind, f)
		}
	}
	for i, c := range cases {
		if recalled[i] {
			s.Recalled++
		} else {
			s.FalseNegatives = append(s.FalseNegatives, c)
		}
	}
	s.Precision, s.Recall, s.KindAccuracy = ratio(s.Correct, s.Found), ratio(s.Recalled, s.Labelled), ratio(right, s.Correct)
	for k, t := range kinds {
		s.PerKind[k] = KindScore{Precision: ratio(t.both, t.predicted), Recall: ratio(t.both, t.truth)}
	}
	sortFound(s.FalsePositives)
	sortFound(s.WrongKind)
	return s
}

// ratio is n/d, or 1 when d is 0 (nothing to get wrong).
func ratio(n, d int) float64 {
	if d == 0 {
		return 1
	}
	return float64(n) / float64(d)
}

func sortFound(fs []Found) {
	slices.SortFunc(fs, func(a, b Found) int {
		return cmp.Or(cmp.Compare(a.URL, b.URL), cmp.Compare(a.Wiki, b.Wiki), cmp.Compare(a.PageID, b.PageID))
	})
}
