package categorize

import (
	"reflect"
	"testing"

	"github.com/neardup/neardup/transforms/alias"
)

// entities is a small table of the shape the run builds from a dump: the
// redirects Côte d'Ivoire → Ivory Coast and Hamedan → Hamadan, and the
// link texts of Ibn Badis's and Ghana's articles.
func entities(t *testing.T) *alias.Table {
	t.Helper()
	b := alias.AppendWiki(nil, "enwiki", []alias.Entry{
		{Key: alias.Key("Ivory Coast"), Articles: []string{"Ivory Coast"}},
		{Key: alias.Key("Côte d'Ivoire"), Articles: []string{"Ivory Coast", "Ivory Coast national football team"}},
		{Key: alias.Key("Hamedan"), Articles: []string{"Hamadan"}},
		{Key: alias.Key("Hamadan"), Articles: []string{"Hamadan"}},
		{Key: alias.Key("Abdelhamid Ben Badis"), Articles: []string{"Abdelhamid Ben Badis"}},
		{Key: alias.Key("Ibn Badis"), Articles: []string{"Abdelhamid Ben Badis", "Ibn Badis (disambiguation)"}},
		{Key: alias.Key("Ghana"), Articles: []string{"Ghana"}},
		{Key: alias.Key("Togo"), Articles: []string{"Togo"}},
	})
	var tab alias.Table
	if err := tab.UnmarshalBinary(b); err != nil {
		t.Fatal(err)
	}
	return &tab
}

func TestCompareSameEntity(t *testing.T) {
	know := Knowledge{Entities: entities(t)}
	tests := []struct {
		name       string
		wiki, a, b string
		kind, rule string
		mechanisms []string
		plain      string // the kind without the table
	}{
		{"a redirect's title and its target", "enwiki",
			"Cocoa is grown in Côte d'Ivoire and Ghana, which export most of it.",
			"Cocoa is grown in Ivory Coast and Ghana, which export most of it.",
			CopyEdit, flavorWordForms, []string{"same_entity: [[Ivory Coast]]"}, FactualDrift},
		{"a longer name around the replaced words", "enwiki",
			"The association was founded by Ibn Badis in 1931 in Algiers.",
			"The association was founded by Abdelhamid Ben Badis in 1931 in Algiers.",
			CopyEdit, flavorWordForms, []string{"same_entity: [[Abdelhamid Ben Badis]]"}, FactualDrift},
		{"a redirect spelt nearly as its target", "enwiki",
			"Avicenna died in Hamedan in June 1037, where he is buried.",
			"Avicenna died in Hamadan in June 1037, where he is buried.",
			CopyEdit, flavorWordForms, []string{"same_entity: [[Hamadan]]"}, CopyEdit}, // a near spelling without it
		{"with an article", "enwiki",
			"Cocoa is grown in Côte d'Ivoire and Ghana, which export most of it.",
			"Cocoa is grown in the Ivory Coast and Ghana, which export most of it.",
			CopyEdit, flavorWordForms, []string{"same_entity: [[Ivory Coast]]"}, FactualDrift},
		{"two articles", "enwiki",
			"Cocoa is grown in Togo and Ghana, which export most of it.",
			"Cocoa is grown in Ivory Coast and Ghana, which export most of it.",
			FactualDrift, "facts_differ", nil, FactualDrift},
		{"a wiki the table does not know", "frwiki",
			"Cocoa is grown in Côte d'Ivoire and Ghana, which export most of it.",
			"Cocoa is grown in Ivory Coast and Ghana, which export most of it.",
			FactualDrift, "facts_differ", nil, FactualDrift},
		{"the same entity but another figure", "enwiki",
			"In 2019 Côte d'Ivoire grew 2.2 million tonnes of cocoa.",
			"In 2019 Ivory Coast grew 2.1 million tonnes of cocoa.",
			FactualDrift, "facts_differ", []string{"same_entity: [[Ivory Coast]]"}, FactualDrift},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			a := Member{Wiki: tt.wiki, Title: "Cocoa", Context: "prose", Text: tt.a}
			b := Member{Wiki: tt.wiki, Title: "Cocoa", Context: "prose", Text: tt.b}
			got := CompareWith(a, b, know)
			if got.Kind != tt.kind || got.Rule != tt.rule || !reflect.DeepEqual(got.Mechanisms, tt.mechanisms) {
				t.Errorf("CompareWith = %s/%s %q (facts %+v), want %s/%s %q", got.Kind, got.Rule, got.Mechanisms, got.Facts, tt.kind, tt.rule, tt.mechanisms)
			}
			if plain := Compare(a, b); plain.Kind != tt.plain {
				t.Errorf("Compare without the table = %s %q, want %s", plain.Kind, plain.Mechanisms, tt.plain)
			}
		})
	}
}

// TestClassifySameEntity classifies a cluster whose members name Ivory
// Coast under its two names: a copy edit with the table, whose evidence
// says why, and drift without it.
func TestClassifySameEntity(t *testing.T) {
	texts := []string{
		"Cocoa is grown in Côte d'Ivoire and Ghana, which export most of it.",
		"Cocoa is grown in Côte d'Ivoire and Ghana, which export most of it.",
		"Cocoa is grown in Ivory Coast and Ghana, which export most of it.",
	}
	var members []Member
	for _, s := range texts {
		members = append(members, Member{Wiki: "enwiki", Title: "Cocoa", Context: "prose", Text: s})
	}
	r := ClassifyWith(members, Knowledge{Entities: entities(t)})
	if r.Category != CopyEdit || !reflect.DeepEqual(r.Evidence.Mechanisms, []string{"same_entity: [[Ivory Coast]]"}) || len(r.Evidence.Facts) > 0 {
		t.Errorf("ClassifyWith = %s, mechanisms %q, facts %+v; want copy_edit, same_entity: [[Ivory Coast]], no fact", r.Category, r.Evidence.Mechanisms, r.Evidence.Facts)
	}
	if r := Classify(members); r.Category != FactualDrift {
		t.Errorf("Classify without the table = %s, want factual_drift", r.Category)
	}
}
