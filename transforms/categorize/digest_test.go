package categorize

import (
	"reflect"
	"strings"
	"testing"

	"github.com/neardup/neardup/transforms/cluster"
	"github.com/neardup/neardup/transforms/sentence"
)

func TestDigestRoundTrip(t *testing.T) {
	tests := []struct {
		name string
		d    Digest
		row  string
	}{
		{"two articles", Digest{ID: "enwiki:12:345:3", Category: "factual_drift", Size: 3, Pages: 2, MinJaccard: 0.8125, MaxEdit: 0.0625,
			Articles: []Article{{"enwiki", 12, "Aare"}, {"dewiki", 7, "Aare (Fluss)"}}},
			"enwiki:12:345:3\tfactual_drift\t3\t2\t0\t0.8125\t0.0625\tenwiki\t12\tAare\tdewiki\t7\tAare (Fluss)"},
		{"escapes", Digest{ID: "doc", Category: "other", Size: 2, Pages: 1, MembersOmitted: 4, MinJaccard: 1,
			Articles: []Article{{"web", 0, "a\tb\\c\nd\x1e\u00e9"}}},
			"doc\tother\t2\t1\t4\t1\t0\tweb\t0\ta\\tb\\\\c\\nd\\x1e\u00e9"},
		{"no articles", Digest{ID: "x", Category: "identical", Size: 2, Pages: 2}, "x\tidentical\t2\t2\t0\t0\t0"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			row := string(AppendDigest(nil, tt.d))
			if row != tt.row {
				t.Fatalf("AppendDigest = %q, want %q", row, tt.row)
			}
			got, err := ParseDigest([]byte(row))
			if err != nil || !reflect.DeepEqual(got, tt.d) {
				t.Errorf("ParseDigest = %+v, %v; want %+v", got, err, tt.d)
			}
		})
	}
}

func TestParseDigestErrors(t *testing.T) {
	for _, row := range []string{"", "a\tb\t1\t1\t0\t1", "a\tb\tx\t1\t0\t1\t0", "a\tb\t1\t1\t0\t1\t0\tw\t1",
		"a\\q\tb\t1\t1\t0\t1\t0", "a\tb\t1\t1\t0\t1\t0\tw\tseven\tT", "a\\x4\tb\t1\t1\t0\t1\t0"} {
		if _, err := ParseDigest([]byte(row)); err == nil || !strings.Contains(err.Error(), "cluster digest") {
			t.Errorf("ParseDigest(%q) = %v, want a cluster digest error", row, err)
		}
	}
}

func TestClusterDigest(t *testing.T) {
	c := Cluster{ID: "w:1:10:0", Size: 3, Pages: 2, Category: "identical", MembersOmitted: 1,
		Cohesion: cluster.Cohesion{MinJaccard: 0.9, MaxEdit: 0.1},
		Members:  []sentence.View{{Wiki: "w", PageID: 1, Title: "A"}, {Wiki: "w", PageID: 2, Title: "B"}, {Wiki: "w", PageID: 1, Title: "A"}}}
	want := Digest{ID: "w:1:10:0", Category: "identical", Size: 3, Pages: 2, MembersOmitted: 1, MinJaccard: 0.9, MaxEdit: 0.1,
		Articles: []Article{{"w", 1, "A"}, {"w", 2, "B"}}}
	if got := c.Digest(); !reflect.DeepEqual(got, want) {
		t.Errorf("Digest = %+v, want %+v", got, want)
	}
}

func FuzzDigestField(f *testing.F) {
	f.Add("Aare (Fluss)")
	f.Add("a\tb\\x\n")
	f.Fuzz(func(t *testing.T, s string) {
		enc := AppendField(nil, s)
		for _, c := range enc {
			if c < 0x20 {
				t.Fatalf("AppendField(%q) = %q holds a control byte", s, enc)
			}
		}
		got, err := unescapeField(enc)
		if err != nil || got != s {
			t.Fatalf("unescapeField(AppendField(%q)) = %q, %v", s, got, err)
		}
	})
}
