package testshared

import "testing"

func TestPaperCases(t *testing.T) {
	cases := PaperCases(t)
	if len(cases) < 10 {
		t.Fatalf("%d paper cases, want at least 10", len(cases))
	}
	for _, c := range cases {
		if c.Label == "" || len(c.Members) < 2 {
			t.Errorf("case %+v lacks a label or members", c)
		}
	}
	if p := Data(t, "wikiduper/Katrina.xml"); p == "" {
		t.Error("no path for Katrina.xml")
	}
}
