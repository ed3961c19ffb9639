package categorize

import (
	"slices"
	"testing"
)

// changeCase compares two versions of a sentence and wants the facts as
// "change type from→to", and a mechanism among the comparison's, if any.
type changeCase struct {
	name      string
	a, b      string
	facts     []string
	mechanism string
}

func checkChanges(t *testing.T, cases []changeCase) {
	t.Helper()
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got := Compare(Member{Wiki: "enwiki", Title: "Page", Text: c.a}, Member{Wiki: "enwiki", Title: "Page", Text: c.b})
			var facts []string
			for _, f := range got.Facts {
				facts = append(facts, f.Change+" "+f.Type+" "+f.From+"→"+f.To)
			}
			if !slices.Equal(facts, c.facts) {
				t.Errorf("facts %q, want %q (kind %s, mechanisms %q)", facts, c.facts, got.Kind, got.Mechanisms)
			}
			if c.mechanism != "" && !slices.Contains(got.Mechanisms, c.mechanism) {
				t.Errorf("mechanisms %q, want %q among them", got.Mechanisms, c.mechanism)
			}
		})
	}
}

// Sentences of the labelled cross-date pairs (Anarchism, ASCII).
func TestCompareClaims(t *testing.T) {
	checkChanges(t, []changeCase{
		{"frequency adverb replaced",
			"Anarchism is often considered to be a radical left-wing ideology.",
			"Anarchism is usually considered a radical left-wing ideology.",
			[]string{"replaced quantity often→usually"}, ""},
		{"frequency adverbs of one class",
			"Anarchism is usually considered a radical left-wing ideology.",
			"Anarchism is generally considered a radical left-wing ideology.",
			nil, ""},
		{"a negated clause dropped",
			"Criticisms of anarchism include moral criticisms, consequentialist criticisms, and the criticism that anarchism could not be maintained.",
			"Criticisms of anarchism include moral criticisms and pragmatic criticisms.",
			nil, "clause: the criticism that anarchism could not be maintained"},
		{"a quantity replaced across a word both keep",
			"33 are non-printing control characters (now mostly obsolete) that affect how text and space is processed.",
			"33 are non-printing control characters (many now obsolete) that affect how text and space are processed.",
			[]string{"replaced quantity mostly→many"}, "quantity: mostly → many"},
		{"quantities of one class across a word",
			"The control characters (now mostly obsolete) affect how text is processed.",
			"The control characters (largely now obsolete) affect how text is processed.",
			nil, ""},
		{"a statement denied",
			"The bridge was not completed before the war.",
			"The bridge was completed before the war.",
			[]string{"replaced negation not→"}, ""},
		{"a verb denied in its place",
			"The bridge was not completed before the war.",
			"The bridge was abandoned before the war.",
			[]string{"replaced negation not completed→abandoned"}, ""},
	})
}
