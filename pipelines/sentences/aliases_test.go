package main

import (
	"reflect"
	"slices"
	"testing"

	"github.com/neardup/neardup/internal/counters"
	"github.com/neardup/neardup/transforms/categorize"
)

// TestAliasesOnPrism runs the pipeline on a dump whose redirect (Côte
// d'Ivoire → Ivory Coast) and piped link ([[Ivory Coast|Côte d'Ivoire]])
// say that two names are one country, with a page given twice: the
// cluster of the sentence written with either name is a copy edit whose
// evidence says same_entity, while the sentence whose country is renamed
// without a redirect or link saying so (Upper Volta, Burkina Faso) keeps
// its name fact; and with --max_aliases 0 both are facts.
func TestAliasesOnPrism(t *testing.T) {
	const fixture = "testdata/aliases.xml"
	mechanisms := func(o Options) (map[string]string, map[string][]string, counters.Counts) {
		files := run(t, o)
		cats, mechs := map[string]string{}, map[string][]string{}
		for _, c := range readClusters(t, files) {
			cats[c.ID], mechs[c.ID] = c.Category, c.Evidence.Mechanisms
		}
		return cats, mechs, readSummary(t, files)
	}
	const cocoa, railway = "enwiki:10:1010:1", "enwiki:13:1013:1"

	cats, mechs, counts := mechanisms(testOptions(t, t.TempDir(), fixture))
	if cats[cocoa] != categorize.CopyEdit || !slices.Contains(mechs[cocoa], "same_entity: [[Ivory Coast]]") {
		t.Errorf("cluster %s: %s %q, want copy_edit with same_entity: [[Ivory Coast]]", cocoa, cats[cocoa], mechs[cocoa])
	}
	if cats[railway] == categorize.CopyEdit || slices.ContainsFunc(mechs[railway], isSameEntity) {
		t.Errorf("cluster %s: %s %q, want a name fact", railway, cats[railway], mechs[railway])
	}
	want := counters.Aliases{RedirectClaims: 1, LinkClaims: 7, Names: 11}
	if counts.Aliases != want {
		t.Errorf("counts.aliases %+v, want %+v", counts.Aliases, want)
	}
	if counts.Redirects != 1 || counts.PagesDuplicate != 1 {
		t.Errorf("redirects %d, duplicate pages %d; want 1 and 1", counts.Redirects, counts.PagesDuplicate)
	}
	checkAccounting(t, counts)

	o := testOptions(t, t.TempDir(), fixture)
	o.MaxAliases = 0
	cats, mechs, counts = mechanisms(o)
	if cats[cocoa] == categorize.CopyEdit || slices.ContainsFunc(mechs[cocoa], isSameEntity) {
		t.Errorf("without the table, cluster %s: %s %q, want a name fact", cocoa, cats[cocoa], mechs[cocoa])
	}
	if !reflect.DeepEqual(counts.Aliases, counters.Aliases{}) {
		t.Errorf("without the table, counts.aliases %+v", counts.Aliases)
	}
}

func isSameEntity(m string) bool { return len(m) > 12 && m[:12] == "same_entity:" }
