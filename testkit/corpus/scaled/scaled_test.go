package scaled

import (
	"bytes"
	"io"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/neardup/neardup/io/dump"
	"github.com/neardup/neardup/testkit/corpus"
)

const testPage = `  <page>
    <title>Hurricane Katrina &amp; New Orleans</title>
    <ns>0</ns>
    <id>2569378</id>
    <revision>
      <id>550000001</id>
      <contributor><id>77</id></contributor>
      <text xml:space="preserve">Hurricane Katrina struck in August 2005 and killed 1836 people along the Gulf coast. ` +
	`The levees of New Orleans failed in 53 places &amp; flooded 80 percent of the city, ` +
	`causing &#8220;damage&#8221; of &#x24;125 billion.&lt;ref&gt;NOAA report&lt;/ref&gt;</text>
    </revision>
  </page>
`

func TestCopyZeroKeepsTheText(t *testing.T) {
	got, err := Scaler{Seed: 1, Rate: 1}.Copy([]byte(testPage), 0, 0, 99)
	if err != nil {
		t.Fatal(err)
	}
	want := strings.Replace(testPage, "<id>2569378</id>", "<id>99</id>", 1)
	want = strings.Replace(want, "<id>550000001</id>", "<id>99</id>", 1) // its own revision id too
	if string(got) != want {
		t.Errorf("copy 0:\n%s\nwant\n%s", got, want)
	}
}

func TestCopyIsDeterministic(t *testing.T) {
	s := Scaler{Seed: 7, Rate: 0.3}
	a, _ := s.Copy([]byte(testPage), 3, 2, 10)
	b, _ := s.Copy([]byte(testPage), 3, 2, 10)
	if !bytes.Equal(a, b) {
		t.Fatal("the same seed, page and copy gave different pages")
	}
	differ := func(x, y []byte) bool { return !bytes.Equal(textOf(t, x), textOf(t, y)) }
	other, _ := Scaler{Seed: 8, Rate: 0.3}.Copy([]byte(testPage), 3, 2, 10)
	nextCopy, _ := s.Copy([]byte(testPage), 3, 3, 10)
	nextPage, _ := s.Copy([]byte(testPage), 4, 2, 10)
	if !differ(a, other) || !differ(a, nextCopy) || !differ(a, nextPage) {
		t.Error("changing the seed, the copy or the page index did not change the edits")
	}
}

// textOf parses a raw page as io/dump does and returns its decoded text.
func textOf(t *testing.T, page []byte) []byte {
	t.Helper()
	p, err := dump.NewReader(bytes.NewReader(page), "test", dump.Options{}).Next()
	if err != nil {
		t.Fatalf("edited page does not parse: %v\n%s", err, page)
	}
	return []byte(p.Text)
}

// TestCopyStaysValid edits every token and checks that the page still
// parses, keeps its title and markup, and that only letters and digits
// changed.
func TestCopyStaysValid(t *testing.T) {
	for seed := range uint64(20) {
		got, err := Scaler{Seed: seed, Rate: 1}.Copy([]byte(testPage), 0, 1, 5)
		if err != nil {
			t.Fatal(err)
		}
		p, err := dump.NewReader(bytes.NewReader(got), "test", dump.Options{}).Next()
		if err != nil {
			t.Fatalf("seed %d: %v\n%s", seed, err, got)
		}
		if p.ID != 5 || p.RevID != 5 || p.Title != "Hurricane Katrina & New Orleans" {
			t.Errorf("seed %d: id %d, rev %d, title %q", seed, p.ID, p.RevID, p.Title)
		}
		for _, kept := range []string{"&", "\u201cdamage\u201d", "$125", "<ref>", "</ref>"} {
			if !strings.Contains(p.Text, kept) {
				t.Errorf("seed %d: %q lost from %q", seed, kept, p.Text)
			}
		}
	}
}

func TestEditText(t *testing.T) {
	tests := []struct {
		name string
		text string
		rate float64
		want string
	}{
		{"rate 0 changes nothing", "Born in 1956 in New Orleans.", 0, "Born in 1956 in New Orleans."},
		{"markup is never edited", "&amp;&#160;&#x2013;&lt;ref&gt;&lt;/ref&gt;", 1, "&amp;&#160;&#x2013;&lt;ref&gt;&lt;/ref&gt;"},
		{"mixed tokens are never edited", "F1 B52s", 1, "F1 B52s"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := editText([]byte(tt.text), rand.New(rand.NewPCG(1, 2)), tt.rate)
			if string(got) != tt.want {
				t.Errorf("editText = %q, want %q", got, tt.want)
			}
		})
	}
}

// TestEditTextNumbers checks that numbers keep their length and do not
// gain a leading zero, and that words come from the text or vanish.
func TestEditTextNumbers(t *testing.T) {
	text := "In 2005 there were 1836 deaths and 7 storms and 80 percent flooded"
	for seed := range uint64(50) {
		got := strings.Fields(string(editText([]byte(text), rand.New(rand.NewPCG(seed, 0)), 1)))
		vocabulary := map[string]bool{}
		for _, w := range words([]byte(text)) {
			vocabulary[string(w)] = true
		}
		for _, f := range got {
			switch {
			case f[0] >= '0' && f[0] <= '9':
				// The numbers of the text have 4, 4, 1 and 2 digits.
				if len(f) > 1 && f[0] == '0' || len(f) != 1 && len(f) != 2 && len(f) != 4 {
					t.Errorf("seed %d: number %q", seed, f)
				}
			case !vocabulary[f]:
				t.Errorf("seed %d: word %q is not from the text", seed, f)
			}
		}
	}
}

// TestEditRate checks that about rate of the tokens change.
func TestEditRate(t *testing.T) {
	var text strings.Builder
	for i := range 5000 {
		text.WriteString([]string{"alpha ", "beta ", "gamma ", "delta "}[i%4])
	}
	got := strings.Fields(string(editText([]byte(text.String()), rand.New(rand.NewPCG(3, 4)), 0.1)))
	want := strings.Fields(text.String())
	deleted := len(want) - len(got)
	if deleted < 150 || deleted > 350 { // half of the ~500 edits delete
		t.Errorf("%d of %d words deleted at rate 0.1, want about 250", deleted, len(want))
	}
}

func TestReplaceIDErrors(t *testing.T) {
	for _, page := range []string{"<page><id>1</id></page>", "<page><title>T</title></page>", "<page><title>T</title><id>1</page>"} {
		if _, err := corpus.ReplaceID([]byte(page), "</title>", 2); err == nil {
			t.Errorf("corpus.ReplaceID(%q): no error", page)
		}
	}
}

func TestMakeCopiesIDs(t *testing.T) {
	pages := [][]byte{[]byte(testPage), []byte(strings.Replace(testPage, "2569378", "12", 1))}
	copies, err := Copies(Scaler{Seed: 1, Rate: 0.05}, pages, 3)
	if err != nil {
		t.Fatal(err)
	}
	var ids []int64
	for _, c := range copies {
		p, err := dump.NewReader(bytes.NewReader(c), "t", dump.Options{}).Next()
		if err != nil && err != io.EOF {
			t.Fatal(err)
		}
		ids = append(ids, p.ID)
	}
	if want := []int64{1, 2, 3, 4, 5, 6}; !slices.Equal(ids, want) {
		t.Errorf("ids %v, want %v", ids, want)
	}
}
