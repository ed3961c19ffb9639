package multistream

import (
	"bytes"
	stdbzip2 "compress/bzip2"
	"errors"
	"fmt"
	"io"
	"strings"
	"testing"
)

// page returns a raw page as Wikimedia writes it, indented, with its
// trailing newline.
func page(id int, title, text string) string {
	return fmt.Sprintf("  <page>\n    <title>%s</title>\n    <ns>0</ns>\n    <id>%d</id>\n"+
		"    <revision>\n      <id>%d</id>\n      <text xml:space=\"preserve\">%s</text>\n    </revision>\n  </page>\n",
		title, id, 1000+id, text)
}

const (
	header = "<mediawiki xmlns=\"http://www.mediawiki.org/xml/export-0.10/\" xml:lang=\"en\">\n" +
		"  <siteinfo>\n    <sitename>Wikipedia</sitename>\n  </siteinfo>\n"
	footer = "</mediawiki>\n"
)

func TestSplit(t *testing.T) {
	p1, p2 := page(1, "One", "a"), page(2, "Two", "b &lt;page&gt;")
	tests := []struct {
		name   string
		doc    string
		header string
		pages  []string
		footer string
	}{
		{"dump", header + p1 + p2 + footer, header, []string{p1, p2}, footer},
		{"no page", header + footer, header + footer, nil, ""},
		{"bare pages", "<page><title>A</title></page><page><title>B</title></page>", "",
			[]string{"<page><title>A</title></page>", "<page><title>B</title></page>"}, ""},
		{"junk between pages stays with the page before", p1 + "junk\n" + p2, "", []string{p1 + "junk\n", p2}, ""},
		{"tag after text on its line", "x <page>\n</page>\n", "x ", []string{"<page>\n</page>\n"}, ""},
		{"tabs and CRLF", "<r>\r\n\t<page>\r\n\t</page>  \r\n</r>", "<r>\r\n", []string{"\t<page>\r\n\t</page>  \r\n"}, "</r>"},
		{"close without line break", "<page></page>  </mediawiki>", "", []string{"<page></page>"}, "  </mediawiki>"},
		{"last page not closed", header + p1 + "  <page>\n    <title>Cut", header,
			[]string{p1, "  <page>\n    <title>Cut"}, ""},
		{"not page tags", "<pages><page_x></pages>", "<pages><page_x></pages>", nil, ""},
		{"page with attributes", "<page id=\"1\">x</page>\n", "", []string{"<page id=\"1\">x</page>\n"}, ""},
		{"empty", "", "", nil, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			h, pages, f := Split([]byte(tt.doc))
			if string(h) != tt.header {
				t.Errorf("header %q, want %q", h, tt.header)
			}
			if got := strings.Join(strs(pages), "|"); got != strings.Join(tt.pages, "|") || len(pages) != len(tt.pages) {
				t.Errorf("pages %q, want %q", strs(pages), tt.pages)
			}
			if string(f) != tt.footer {
				t.Errorf("footer %q, want %q", f, tt.footer)
			}
		})
	}
}

func strs(bs [][]byte) []string {
	out := make([]string, len(bs))
	for i, b := range bs {
		out[i] = string(b)
	}
	return out
}

// FuzzSplit checks that the parts of any document concatenate back to it
// and that every page starts with its tag, after blanks.
func FuzzSplit(f *testing.F) {
	f.Add([]byte(header + page(1, "One", "a") + page(2, "Two", "b") + footer))
	f.Add([]byte("<page>\r\n\t</page>  \r\n<page"))
	f.Fuzz(func(t *testing.T, doc []byte) {
		h, pages, foot := Split(doc)
		joined := bytes.Clone(h)
		for i, p := range pages {
			if !bytes.HasPrefix(bytes.TrimLeft(p, " \t"), []byte("<page")) {
				t.Fatalf("page %d does not start with <page: %q", i, p)
			}
			joined = append(joined, p...)
		}
		joined = append(joined, foot...)
		if !bytes.Equal(joined, doc) {
			t.Fatalf("parts give %q, want %q", joined, doc)
		}
	})
}

func TestKeyOf(t *testing.T) {
	tests := []struct {
		name  string
		page  string
		id    int64
		title string
		err   string
	}{
		{"page", page(12, "Anarchism", "x"), 12, "Anarchism", ""},
		{"escaped title kept raw", page(7, "AT&amp;T: a company", "x"), 7, "AT&amp;T: a company", ""},
		{"id after the title", "<page><id>3</id><title>T</title><revision><id>9</id></revision></page>", 9, "T", ""},
		{"spaces around id", "<page><title>T</title><id> 42 </id></page>", 42, "T", ""},
		{"no title", "<page><id>1</id></page>", 0, "", "no <title>…</title>"},
		{"empty title", "<page><title></title><id>1</id></page>", 0, "", "empty <title>"},
		{"title on two lines", "<page><title>A\nB</title><id>1</id></page>", 0, "", `title "A\nB" spans lines`},
		{"no id", "<page><title>T</title></page>", 0, "", `page "T" has no <id>…</id>`},
		{"bad id", "<page><title>T</title><id>x1</id></page>", 0, "", `page "T": id "x1" is not a decimal number`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			k, err := keyOf([]byte(tt.page))
			if tt.err != "" {
				if err == nil || err.Error() != tt.err {
					t.Fatalf("error %v, want %q", err, tt.err)
				}
				return
			}
			if err != nil || k.id != tt.id || string(k.title) != tt.title {
				t.Errorf("keyOf = %d %q %v, want %d %q", k.id, k.title, err, tt.id, tt.title)
			}
		})
	}
}

// TestWriteSmall builds a file of five pages, two per stream, and checks
// the index text and that each range of the index decompresses, alone, to
// exactly its part: the header, two pages, two pages, and the last page
// followed by the footer's own stream.
func TestWriteSmall(t *testing.T) {
	var pages [][]byte
	for i := 1; i <= 5; i++ {
		pages = append(pages, []byte(page(i, fmt.Sprintf("Title:%d &amp; more", i), strings.Repeat("word ", 50*i))))
	}
	var file, index bytes.Buffer
	if err := Write(&file, &index, pages, []byte(header), []byte(footer), 2); err != nil {
		t.Fatal(err)
	}
	streams, err := ParseIndex(bytes.NewReader(index.Bytes()))
	if err != nil {
		t.Fatal(err)
	}
	ranges := Ranges(streams, int64(file.Len()))
	if len(ranges) != 4 {
		t.Fatalf("ranges %v, want 4", ranges)
	}
	want := []string{header, string(pages[0]) + string(pages[1]), string(pages[2]) + string(pages[3]), string(pages[4]) + footer}
	for i, rg := range ranges {
		got, err := io.ReadAll(stdbzip2.NewReader(bytes.NewReader(file.Bytes()[rg.Start:rg.End])))
		if err != nil || string(got) != want[i] {
			t.Errorf("range %d %v holds %q, %v; want %q", i, rg, got, err, want[i])
		}
	}
	var wantIndex strings.Builder
	for i := 1; i <= 5; i++ {
		fmt.Fprintf(&wantIndex, "%d:%d:Title:%d &amp; more\n", ranges[1+(i-1)/2].Start, i, i)
	}
	if index.String() != wantIndex.String() {
		t.Errorf("index\n%s\nwant\n%s", index.String(), wantIndex.String())
	}
	// bzip2 is deterministic: the file starts with the header's stream and
	// ends with the footer's, each compressed alone at level 9.
	if !bytes.HasPrefix(file.Bytes(), bzip2Level9(t, header)) || !bytes.HasSuffix(file.Bytes(), bzip2Level9(t, footer)) {
		t.Errorf("header and footer are not streams of their own")
	}
}

// bzip2Level9 compresses s as one bzip2 stream at level 9.
func bzip2Level9(t testing.TB, s string) []byte {
	var c compressor
	b, err := c.compress([][]byte{[]byte(s)})
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func TestWriteEmptyParts(t *testing.T) {
	var file, index bytes.Buffer
	p := []byte(page(1, "One", "x"))
	if err := Write(&file, &index, [][]byte{p}, nil, nil, 100); err != nil {
		t.Fatal(err)
	}
	if index.String() != "0:1:One\n" {
		t.Errorf("index %q", index.String())
	}
	got, err := io.ReadAll(stdbzip2.NewReader(&file))
	if err != nil || !bytes.Equal(got, p) {
		t.Errorf("file holds %q, %v", got, err)
	}

	file.Reset()
	index.Reset()
	if err := Write(&file, &index, nil, nil, nil, 100); err != nil || file.Len() != 0 || index.Len() != 0 {
		t.Errorf("nothing to write: %v, %d bytes, index %q", err, file.Len(), index.String())
	}
}

// failWriter accepts n bytes, then fails.
type failWriter struct {
	n   int
	err error
}

func (f *failWriter) Write(p []byte) (int, error) {
	if len(p) > f.n {
		n := f.n
		f.n = 0
		return n, f.err
	}
	f.n -= len(p)
	return len(p), nil
}

func TestWriteErrors(t *testing.T) {
	good := [][]byte{[]byte(page(1, "One", "x")), []byte(page(2, "Two", "y"))}
	boom := errors.New("disk full")
	tests := []struct {
		name      string
		w, indexW io.Writer
		pages     [][]byte
		perStream int
		want      string
	}{
		{"zero per stream", io.Discard, io.Discard, good, 0, "multistream: 0 pages per stream: must be at least 1"},
		{"bad page", io.Discard, io.Discard, [][]byte{good[0], []byte("<page></page>")}, 1, "multistream: page 1: no <title>…</title>"},
		{"file fails", &failWriter{n: 50, err: boom}, io.Discard, good, 1, "multistream: writing stream at offset 50: disk full"},
		{"index fails", io.Discard, &failWriter{err: boom}, good, 1, "multistream: writing index: disk full"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := Write(tt.w, tt.indexW, tt.pages, []byte(header), []byte(footer), tt.perStream)
			if err == nil || err.Error() != tt.want {
				t.Errorf("error %v, want %q", err, tt.want)
			}
		})
	}
}

// TestWriteBadPageWritesNothing checks that a page that cannot be indexed
// is found before any byte is written.
func TestWriteBadPageWritesNothing(t *testing.T) {
	var file, index bytes.Buffer
	pages := [][]byte{[]byte(page(1, "One", "x")), []byte("<page><title>T</title></page>")}
	if err := Write(&file, &index, pages, []byte(header), nil, 1); err == nil {
		t.Fatal("no error")
	}
	if file.Len() != 0 || index.Len() != 0 {
		t.Errorf("wrote %d bytes and index %q", file.Len(), index.String())
	}
}
