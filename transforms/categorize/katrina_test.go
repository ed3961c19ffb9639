package categorize

import (
	"html"
	"maps"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/neardup/neardup/testkit/testshared"
)

// katrinaSentence is a sentence of Weissman et al.'s own test export.
type katrinaSentence struct{ title, text string }

// Crude wikitext cleaning, enough to read prose sentences for this test
// (the pipeline's wikitext and sentence packages do this properly).
var (
	wikiTemplate = regexp.MustCompile(`\{\{[^{}]*\}\}`)
	wikiRef      = regexp.MustCompile(`(?s)<ref[^>]*/>|<ref[^>]*>.*?</ref>|<!--.*?-->`)
	wikiLink     = regexp.MustCompile(`\[\[(?:[^|\]]*\|)?([^\]]*)\]\]`)
	sentenceEnd  = regexp.MustCompile(`[.!?]\s+`)
)

// loadKatrina reads ../../../shared/data/wikiduper/Katrina.xml (93 enwiki
// pages of 2013 around Hurricane Katrina) as sentences, skipping the test
// if it is missing.
func loadKatrina(tb testing.TB) []katrinaSentence {
	tb.Helper()
	var out []katrinaSentence
	for _, p := range testshared.DumpPages(tb, "wikiduper/Katrina.xml") {
		text := p.Text
		for range 5 { // nested templates, innermost first
			text = wikiTemplate.ReplaceAllString(text, "")
		}
		text = wikiRef.ReplaceAllString(text, "")
		text = wikiLink.ReplaceAllString(text, "$1")
		text = strings.NewReplacer("'''", "", "''", "").Replace(text)
		text = html.UnescapeString(text)
		for line := range strings.SplitSeq(text, "\n") {
			for _, s := range sentenceEnd.Split(line, -1) {
				if s = strings.TrimSpace(s); s != "" {
					out = append(out, katrinaSentence{p.Title, s + "."})
				}
			}
		}
	}
	return out
}

// TestKatrinaPairs classifies near-duplicate sentence pairs found in the
// Katrina export (pages that copy from each other) and checks the label a
// reader would give each.
func TestKatrinaPairs(t *testing.T) {
	sents := loadKatrina(t)
	find := func(prefix string, skip int) (katrinaSentence, bool) {
		for _, s := range sents {
			if strings.HasPrefix(s.text, prefix) {
				if skip == 0 {
					return s, true
				}
				skip--
			}
		}
		return katrinaSentence{}, false
	}
	tests := []struct {
		a, b     string // prefixes of the two sentences
		category string
		rule     string
	}{
		// A death toll revised between articles.
		{"State-by-State death tolls: Louisiana 841", "State-by-State death tolls: Louisiana 896", FactualDrift, "numbers_differ"},
		{"State-by-state death tolls: Louisiana 799", "State-by-State death tolls: Louisiana 1,577", FactualDrift, "numbers_differ"},
		// A forecast surge of 28 feet against an observed 20 ft.
		{"Since the storm surge produced by the hurricane's right-front quadrant (containing the strongest winds) was forecast",
			"Since the storm surge produced by the hurricane's right-front quadrant (containing the strongest winds) was more", FactualDrift, "numbers_differ"},
		{"In addition, 9 of 26 existing pumps", "In addition, nine of 26 existing pumps", CopyEdit, "word_forms"},
		{"Voluntary and mandatory evacuations", "Mandatory evacuations were issued", CopyEdit, "text_inserted"},
		{"Some disaster recovery response to Katrina began before the storm, with Federal Emergency Management Agency (FEMA)",
			"Some disaster recovery response to Katrina began before the storm, with Federal Emergency Management Agency preparations", CopyEdit, "text_inserted"},
		{"Two Casa airplanes from Martinique", "2 CASA airplanes from Martinique", CopyEdit, "minor_word_changes"},
		{"The Louisiana National Guard delivered three truckloads", "On August 28, the Louisiana National Guard delivered", CopyEdit, "minor_word_changes"},
		{"In Jackson County, storm surge flowed up the wide river estuary, with the combined surge and freshwater flooding",
			"In Jackson County, storm surge flowed up the wide river estuary, with the combined surge and freshwater floods", CopyEdit, "word_forms"},
		// One text holds a little over half of the other: a clause added on
		// one side, which is a copy edit, not a disagreement.
		{"Germany had offered airlifting", "Germany offered airlifting", CopyEdit, "text_inserted"},
	}
	for _, tt := range tests {
		a, okA := find(tt.a, 0)
		b, okB := find(tt.b, 0)
		if a.text == b.text {
			b, okB = find(tt.b, 1)
		}
		if !okA || !okB {
			t.Errorf("sentences %q / %q not found in the data", tt.a, tt.b)
			continue
		}
		r := Classify([]Member{{Title: a.title, Context: "prose", Text: a.text}, {Title: b.title, Context: "prose", Text: b.text}})
		if r.Category != tt.category || r.Evidence.Rule != tt.rule {
			t.Errorf("Classify(\n  %q,\n  %q) = %s/%s (%s), want %s/%s", a.text, b.text, r.Category, r.Evidence.Rule, r.Evidence.Reason, tt.category, tt.rule)
		}
	}
}

// TestKatrinaDeathTolls: the four versions of the death toll form one
// cluster of factual drift, not a template: only two of the six figures
// vary.
func TestKatrinaDeathTolls(t *testing.T) {
	var members []Member
	seen := map[string]bool{}
	for _, s := range loadKatrina(t) {
		if strings.HasPrefix(strings.ToLower(s.text), "state-by-state death tolls") && !seen[s.text] {
			seen[s.text] = true
			members = append(members, Member{Title: s.title, Context: "prose", Text: s.text})
		}
	}
	if len(members) != 4 {
		t.Fatalf("%d death-toll sentences, want 4", len(members))
	}
	r := Classify(members)
	if r.Category != FactualDrift || r.Evidence.Rule != "numbers_differ" || len(r.Evidence.Diffs) != 3 {
		t.Errorf("Classify = %s/%s with %d diffs (%s), want factual_drift/numbers_differ with 3", r.Category, r.Evidence.Rule, len(r.Evidence.Diffs), r.Evidence.Reason)
	}
}

// BenchmarkClassifyKatrina classifies, as one cluster each, the groups of
// sentences of the export that share their first five words.
func BenchmarkClassifyKatrina(b *testing.B) {
	sents := loadKatrina(b)
	first := map[string][]katrinaSentence{}
	for _, s := range sents {
		if w := strings.Fields(s.text); len(w) >= 8 {
			k := strings.Join(w[:5], " ")
			first[k] = append(first[k], s)
		}
	}
	var clusters [][]Member
	for _, k := range slices.Sorted(maps.Keys(first)) {
		group := first[k]
		if len(group) < 2 {
			continue
		}
		var m []Member
		for _, s := range group {
			m = append(m, Member{Title: s.title, Context: "prose", Text: s.text})
		}
		clusters = append(clusters, m)
	}
	benchEach(b, clusters, func(c []Member) { Classify(c) })
	b.ReportMetric(float64(len(clusters)), "clusters/op")
}

func BenchmarkTokenizeKatrina(b *testing.B) {
	sents := loadKatrina(b)
	benchEach(b, sents, func(s katrinaSentence) { Tokenize(s.text) })
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*len(sents)), "ns/sentence")
}
