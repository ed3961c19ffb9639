package passageeval

import (
	"bytes"
	"slices"
	"testing"

	"github.com/neardup/neardup/io/document"
	"github.com/neardup/neardup/io/dump"
	"github.com/neardup/neardup/testkit/testshared"
)

// TestDumpPlanted reads a real dump, splits its articles and plants a
// paragraph into one: the planted copy is the dump but for that page's
// text, which reads back as planted and splits as Pages.Split says.
func TestDumpPlanted(t *testing.T) {
	path := testshared.Katrina(t)
	d, err := ReadDump(t.Context(), path)
	if err != nil {
		t.Fatal(err)
	}
	site, err := dump.ReadSite(t.Context(), path)
	if err != nil {
		t.Fatal(err)
	}
	pages, err := NewPages([]*Dump{d}, []document.Site{site})
	if err != nil {
		t.Fatal(err)
	}
	same, err := d.Planted(nil)
	if err != nil || !bytes.Equal(same, d.Data) {
		t.Fatalf("Planted(nil): %d bytes, %v; want the dump's %d bytes", len(same), err, len(d.Data))
	}
	all := pages.Of([]*Dump{d})
	if len(all) < 10 || d.Wiki() != site.Wiki || d.Name != "Katrina.xml" {
		t.Fatalf("%d articles of wiki %q in %s", len(all), d.Wiki(), d.Name)
	}
	target := all[len(all)/2]
	text := target.Text + "\n\nThe levees failed in fifty places. The city flooded for weeks.\n"
	planted, err := d.Planted(map[string]string{target.Doc: text})
	if err != nil {
		t.Fatal(err)
	}
	want, err := pages.Split(target.Doc, text)
	if err != nil {
		t.Fatal(err)
	}
	r := dump.NewReader(bytes.NewReader(planted), d.Name, dump.Options{FileStart: true})
	changed := 0
	for {
		p, err := r.Next()
		if err != nil {
			break
		}
		p.Wiki = d.Wiki()
		if DocID(p.Wiki, p.ID, p.RevID) != target.Doc {
			continue
		}
		changed++
		got, err := pages.SplitPage(p)
		if err != nil || p.Text != text || !slices.Equal(got, want) || len(got) != len(target.Sentences)+2 {
			t.Errorf("planted page: text equal %v, %d sentences (want %d, %d before), %v", p.Text == text, len(got), len(want), len(target.Sentences), err)
		}
	}
	if changed != 1 {
		t.Errorf("%d pages of document %s in the planted dump, want 1", changed, target.Doc)
	}
	if len(planted)-len(d.Data) <= 0 {
		t.Errorf("planted dump %d bytes, the dump %d", len(planted), len(d.Data))
	}
}
