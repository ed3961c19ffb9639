package dump

import (
	"bytes"
	"encoding/binary"
	"errors"
	"io"
	"os"
	"path/filepath"
	"reflect"
	"strconv"
	"strings"
	"testing"
	"testing/iotest"
	"unicode/utf16"

	"github.com/neardup/neardup/io/document"
)

// outcome is everything a Reader returned for one input.
type outcome struct {
	pages []document.Page
	dead  []document.DeadLetter
	end   error // the terminal error: io.EOF, *TruncatedError or other
}

// readAll reads r to its terminal error, checking on the way that offsets
// only grow.
func readAll(t testing.TB, r *Reader) outcome {
	t.Helper()
	var res outcome
	last := int64(-1)
	for {
		p, err := r.Next()
		if r.Offset() < last {
			t.Fatalf("Offset went back from %d to %d", last, r.Offset())
		}
		last = r.Offset()
		var pe *PageError
		switch {
		case err == nil:
			res.pages = append(res.pages, p)
		case errors.As(err, &pe):
			res.dead = append(res.dead, pe.DeadLetter)
		default:
			res.end = err
			return res
		}
	}
}

// checkOutcome checks the titles of the pages read and the reasons of the
// dead letters, each of which must contain its entry of reasons.
func checkOutcome(t *testing.T, res outcome, wantTitles, reasons []string) {
	t.Helper()
	if got := titles(res.pages); !reflect.DeepEqual(got, wantTitles) {
		t.Errorf("titles = %q, want %q", got, wantTitles)
	}
	if len(res.dead) != len(reasons) {
		t.Fatalf("dead letters = %+v, want %d", res.dead, len(reasons))
	}
	for i, d := range res.dead {
		if !strings.Contains(d.Reason, reasons[i]) {
			t.Errorf("dead letter %d reason %q, want it to contain %q", i, d.Reason, reasons[i])
		}
	}
}

func readString(t testing.TB, s string, opt Options) outcome {
	t.Helper()
	return readAll(t, NewReader(strings.NewReader(s), "f.xml", opt))
}

const (
	mwOpen  = `<mediawiki xmlns="http://www.mediawiki.org/xml/export-0.10/" version="0.10" xml:lang="en">` + "\n"
	mwClose = "</mediawiki>\n"
)

// page returns a well-formed page element.
func page(id int, title, text string) string {
	return "  <page>\n    <title>" + title + "</title>\n    <ns>0</ns>\n    <id>" + strconv.Itoa(id) +
		"</id>\n    <revision>\n      <id>" + strconv.Itoa(id*10) + "</id>\n      <text xml:space=\"preserve\">" +
		text + "</text>\n    </revision>\n  </page>\n"
}

func titles(pages []document.Page) []string {
	var out []string
	for _, p := range pages {
		out = append(out, p.Title)
	}
	return out
}

func TestReaderPageFields(t *testing.T) {
	in := mwOpen + `  <siteinfo>
    <namespaces>
      <namespace key="0" case="first-letter" />
      <namespace key="1" case="first-letter">Talk</namespace>
      <namespace key="10" case="first-letter">Template</namespace>
    </namespaces>
  </siteinfo>
  <page>
    <title>A &amp; B</title>
    <ns>4</ns>
    <id> 12 </id>
    <redirect title="C &quot;D&quot;" />
    <revision>
      <id>100</id>
      <text xml:space="preserve">old</text>
    </revision>
    <revision>
      <id>101</id>
      <contributor><username>X</username><id>7</id></contributor>
      <text xml:space="preserve" bytes="20">&lt;ref&gt;x&lt;/ref&gt; &#233;&#x4E2D; 'q'</text>
      <sha1>abc</sha1>
    </revision>
  </page>
  <page>
    <title>Template:Infobox</title>
    <id>13</id>
    <revision><id>102</id><text /></revision>
  </page>
  <page>
    <title>talk:Lower</title>
    <id>14</id>
  </page>
  <page>
    <title>Unknown:Prefix</title>
    <id>15</id>
  </page>
` + mwClose
	res := readString(t, in, Options{})
	if res.end != io.EOF || len(res.dead) != 0 {
		t.Fatalf("end = %v, dead = %v", res.end, res.dead)
	}
	first := strings.Index(in, "<page>")
	want := []document.Page{
		{File: "f.xml", Offset: int64(first), ID: 12, RevID: 101, NS: 4, Title: "A & B",
			Redirect: `C "D"`, Text: "<ref>x</ref> é中 'q'"},
		{File: "f.xml", Offset: int64(strings.Index(in, "<page>\n    <title>Template")), ID: 13, RevID: 102, NS: 10,
			Title: "Template:Infobox"},
		{File: "f.xml", Offset: int64(strings.Index(in, "<page>\n    <title>talk")), ID: 14, NS: 1, Title: "talk:Lower"},
		{File: "f.xml", Offset: int64(strings.Index(in, "<page>\n    <title>Unknown")), ID: 15, NS: 0, Title: "Unknown:Prefix"},
	}
	if !reflect.DeepEqual(res.pages, want) {
		t.Errorf("pages:\n got %+v\nwant %+v", res.pages, want)
	}
}

// TestReaderOutcomes checks how each kind of input ends and which pages and
// dead letters it gives.
func TestReaderOutcomes(t *testing.T) {
	good1, good2 := page(1, "One", "first"), page(2, "Two", "second")
	tests := []struct {
		name    string
		in      string
		opt     Options
		titles  []string
		reasons []string // substrings of the dead letters' reasons, in order
		end     string   // "eof", "truncated"
	}{
		{name: "empty", in: "", end: "eof"},
		{name: "only spaces", in: " \n\t", end: "eof"},
		{name: "complete", in: mwOpen + good1 + good2 + mwClose, titles: []string{"One", "Two"}, end: "eof"},
		{name: "no namespace declaration", in: "<mediawiki>" + good1 + "</mediawiki>", titles: []string{"One"}, end: "eof"},
		{name: "bare fragments", in: good1 + good2, titles: []string{"One", "Two"}, end: "eof"},
		{name: "bare fragment cut", in: good1 + good2[:40], titles: []string{"One"}, end: "truncated"},
		{name: "root not closed", in: mwOpen + good1 + good2, titles: []string{"One", "Two"}, end: "truncated"},
		{name: "header only", in: mwOpen + "<siteinfo><sitename>W</sitename></siteinfo>\n", end: "truncated"},
		{name: "cut in page", in: mwOpen + good1 + good2[:60], titles: []string{"One"}, end: "truncated"},
		{name: "cut in tag", in: mwOpen + good1 + "  <pa", titles: []string{"One"}, end: "truncated"},
		{name: "junk between pages", in: mwOpen + good1 + "  <namespace key=\"829\" cas junk &bad; </page>\n" + good2 + mwClose,
			titles: []string{"One", "Two"}, end: "eof"},
		{name: "junk after root", in: mwOpen + good1 + mwClose + "trailing <junk>", titles: []string{"One"}, end: "eof"},
		{name: "malformed page", in: mwOpen + good1 + page(3, "Bad", "a <b c") + good2 + mwClose,
			titles: []string{"One", "Two"}, reasons: []string{"malformed XML"}, end: "eof"},
		{name: "undefined entity", in: mwOpen + page(3, "Ent", "&nbsp;") + good1 + mwClose,
			titles: []string{"One"}, reasons: []string{"invalid character entity &nbsp;"}, end: "eof"},
		{name: "mismatched tag", in: mwOpen + strings.Replace(good2, "</title>", "</titl>", 1) + good1 + mwClose,
			titles: []string{"One"}, reasons: []string{"malformed XML"}, end: "eof"},
		{name: "control character", in: mwOpen + page(3, "Ctl", "a\x01b") + good1 + mwClose,
			titles: []string{"One"}, reasons: []string{"illegal character code U+0001"}, end: "eof"},
		{name: "missing id", in: mwOpen + "<page><title>NoID</title></page>" + good1 + mwClose,
			titles: []string{"One"}, reasons: []string{"missing page id"}, end: "eof"},
		{name: "missing title", in: mwOpen + "<page><id>5</id></page>" + good1 + mwClose,
			titles: []string{"One"}, reasons: []string{"missing title"}, end: "eof"},
		{name: "bad id", in: mwOpen + "<page><title>T</title><id>x5</id></page>" + good1 + mwClose,
			titles: []string{"One"}, reasons: []string{`bad page id "x5"`}, end: "eof"},
		{name: "bad ns", in: mwOpen + "<page><title>T</title><ns>n</ns><id>5</id></page>" + good1 + mwClose,
			titles: []string{"One"}, reasons: []string{`bad ns "n"`}, end: "eof"},
		{name: "bad revision id", in: mwOpen + "<page><title>T</title><id>5</id><revision><id>9x</id></revision></page>" + mwClose,
			reasons: []string{`bad revision id "9x"`}, end: "eof"},
		{name: "page cut by next page", in: mwOpen + good1[:50] + good2 + mwClose,
			titles: []string{"Two"}, reasons: []string{"page not closed before the next <page>"}, end: "eof"},
		{name: "page cut by root end", in: mwOpen + good1 + good2[:50] + mwClose,
			titles: []string{"One"}, reasons: []string{"page not closed before </mediawiki>"}, end: "eof"},
		{name: "self-closed page", in: mwOpen + "<page />" + good1 + mwClose,
			titles: []string{"One"}, reasons: []string{"page not closed before the next <page>"}, end: "eof"},
		{name: "oversize", in: mwOpen + good1 + page(3, "Big", strings.Repeat("x", 500)) + good2 + mwClose,
			opt: Options{MaxPageBytes: 300}, titles: []string{"One", "Two"}, end: "eof",
			reasons: []string{"page of " + strconv.Itoa(len(strings.TrimSpace(page(3, "Big", strings.Repeat("x", 500))))) + " bytes, larger than 300 bytes"}},
		{name: "oversize and cut", in: mwOpen + good1 + page(3, "Big", strings.Repeat("x", 500))[:450],
			opt: Options{MaxPageBytes: 300}, titles: []string{"One"}, end: "truncated"},
		{name: "exactly max size", in: good1, opt: Options{MaxPageBytes: len(strings.TrimSpace(good1))},
			titles: []string{"One"}, end: "eof"},
		{name: "one byte over max size", in: good1, opt: Options{MaxPageBytes: len(strings.TrimSpace(good1)) - 1},
			reasons: []string{"page of " + strconv.Itoa(len(strings.TrimSpace(good1))) + " bytes, larger than"}, end: "eof"},
		{name: "cdata and comment", in: mwOpen + page(3, "C", "a<![CDATA[<b>]]>c<!-- x -->d") + mwClose,
			titles: []string{"C"}, end: "eof"},
		{name: "cdata holding a page", in: mwOpen + page(3, "C", "<![CDATA[x</page><page><title>Phantom</title><ns>0</ns><id>9</id></page>]]>") + good1 + mwClose,
			titles: []string{"C", "One"}, end: "eof"},
		{name: "comment holding a page", in: mwOpen + page(3, "C", "<!--x</page><page><title>Phantom</title><ns>0</ns><id>9</id></page>-->") + good1 + mwClose,
			titles: []string{"C", "One"}, end: "eof"},
		{name: "comment between pages", in: mwOpen + good1 + "<!-- <page><title>Phantom</title><ns>0</ns><id>9</id></page> -->" + good2 + mwClose,
			titles: []string{"One", "Two"}, end: "eof"},
		{name: "cdata not closed", in: mwOpen + good1 + page(3, "C", "<![CDATA[x</page>") + good2 + mwClose,
			titles: []string{"One"}, end: "truncated"},
		{name: "stray comment opener", in: mwOpen + good1 + "<!-- " + strings.Repeat("j", 400) + good2 + mwClose,
			opt: Options{MaxPageBytes: 300}, titles: []string{"One", "Two"}, end: "eof"},
		{name: "stray comment opener near a page", in: mwOpen + good1 + "<!-- " + strings.Repeat("j", 100) + good2 + mwClose,
			opt: Options{MaxPageBytes: 300}, titles: []string{"One"}, end: "truncated"},
		{name: "crlf", in: strings.ReplaceAll(mwOpen+good1+mwClose, "\n", "\r\n"), titles: []string{"One"}, end: "eof"},
		{name: "page with attribute and spaces", in: "<page id=\"x\" >" + "<title >T</title ><id>1</id></page>",
			titles: []string{"T"}, end: "eof"},
		{name: "prefixed elements", in: `<mw:mediawiki xmlns:mw="http://www.mediawiki.org/xml/export-0.11/">` +
			"<page><mw:title>P</mw:title><mw:id>3</mw:id></page></mw:mediawiki>", titles: []string{"P"}, end: "eof"},
		{name: "doctype entities not expanded", in: "<?xml version=\"1.0\"?>\n<!DOCTYPE mediawiki [\n" +
			"<!ENTITY lol \"lol\">\n<!ENTITY lol2 \"&lol;&lol;&lol;&lol;\">\n]>\n" + mwOpen +
			page(3, "Lol", "&lol2;") + good1 + mwClose,
			titles: []string{"One"}, reasons: []string{"invalid character entity &lol2;"}, end: "eof"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res := readString(t, tt.in, tt.opt)
			checkOutcome(t, res, tt.titles, tt.reasons)
			switch tt.end {
			case "eof":
				if res.end != io.EOF {
					t.Errorf("end = %v, want io.EOF", res.end)
				}
			case "truncated":
				var te *TruncatedError
				if !errors.Is(res.end, ErrTruncated) || !errors.As(res.end, &te) {
					t.Errorf("end = %v, want a TruncatedError", res.end)
				}
			}
		})
	}
}

func TestDeadLetterDetails(t *testing.T) {
	bad := "<page>\n<title>Fish &amp; Chips</title>\n<ns>0</ns>\n<id>77</id>\n<revision><id>5</id><text>a &bogus b</text></revision>\n</page>\n"
	in := mwOpen + page(1, "One", "x") + bad + mwClose
	res := readString(t, in, Options{})
	want := []document.DeadLetter{{
		File:   "f.xml",
		Offset: int64(strings.Index(in, bad)),
		PageID: 77,
		Title:  "Fish & Chips",
		Reason: "malformed XML: XML syntax error on line 5: invalid character entity &bogus (no semicolon)",
	}}
	if !reflect.DeepEqual(res.dead, want) {
		t.Errorf("dead letters:\n got %+v\nwant %+v", res.dead, want)
	}
	if len(res.pages) != 1 || res.end != io.EOF {
		t.Errorf("pages %d, end %v", len(res.pages), res.end)
	}
}

func TestPageErrorMessage(t *testing.T) {
	e := &PageError{DeadLetter: document.DeadLetter{File: "a.xml", Offset: 9, PageID: 3, Title: "T", Reason: "missing title"}}
	if got, want := e.Error(), `dump: a.xml: bad page at offset 9 (id 3, title "T"): missing title`; got != want {
		t.Errorf("Error() = %q, want %q", got, want)
	}
	e.DeadLetter.PageID, e.DeadLetter.Title = 0, ""
	if got, want := e.Error(), `dump: a.xml: bad page at offset 9: missing title`; got != want {
		t.Errorf("Error() = %q, want %q", got, want)
	}
}

func TestTruncatedErrorIsTerminal(t *testing.T) {
	in := mwOpen + page(1, "One", "x") + page(2, "Two", "y")[:30]
	r := NewReader(strings.NewReader(in), "t.xml", Options{})
	if _, err := r.Next(); err != nil {
		t.Fatal(err)
	}
	_, err := r.Next()
	var te *TruncatedError
	if !errors.As(err, &te) {
		t.Fatalf("err = %v, want TruncatedError", err)
	}
	wantOff := int64(strings.LastIndex(in, "<page>"))
	if te.File != "t.xml" || te.Offset != wantOff || !errors.Is(err, io.ErrUnexpectedEOF) {
		t.Errorf("got %+v, want file t.xml, offset %d, cause unexpected EOF", te, wantOff)
	}
	if want := "dump: t.xml: truncated at offset " + strconv.Itoa(int(wantOff)) + ": unexpected EOF"; err.Error() != want {
		t.Errorf("Error() = %q, want %q", err.Error(), want)
	}
	for range 2 {
		if _, again := r.Next(); again != err {
			t.Errorf("Next after truncation = %v, want the same error", again)
		}
	}
	if r.Offset() != int64(len(in)) {
		t.Errorf("Offset = %d, want %d", r.Offset(), len(in))
	}
}

func TestRootNotClosedOffset(t *testing.T) {
	in := mwOpen + page(1, "One", "x")
	res := readString(t, in, Options{})
	var te *TruncatedError
	if !errors.As(res.end, &te) || te.Offset != int64(len(in)) || te.Err != errNoRootEnd {
		t.Errorf("end = %#v, want truncation at %d for a missing </mediawiki>", res.end, len(in))
	}
}

func TestReaderIOError(t *testing.T) {
	boom := errors.New("disk on fire")
	in := mwOpen + page(1, "One", "x")
	r := NewReader(io.MultiReader(strings.NewReader(in), iotest.ErrReader(boom)), "io.xml", Options{})
	res := readAll(t, r)
	if len(res.pages) != 1 || !errors.Is(res.end, boom) || errors.Is(res.end, ErrTruncated) {
		t.Fatalf("pages %d, end %v; want 1 page and the I/O error", len(res.pages), res.end)
	}
	if want := "dump: reading io.xml at offset " + strconv.Itoa(len(in)) + ": disk on fire"; res.end.Error() != want {
		t.Errorf("error %q, want %q", res.end, want)
	}
	if _, err := r.Next(); err != res.end {
		t.Errorf("Next after I/O error = %v, want the same error", err)
	}
}

func TestReaderNoProgress(t *testing.T) {
	r := NewReader(zeroReader{}, "z", Options{})
	if _, err := r.Next(); !errors.Is(err, io.ErrNoProgress) {
		t.Errorf("err = %v, want io.ErrNoProgress", err)
	}
}

// zeroReader returns no data and no error, forever.
type zeroReader struct{}

func (zeroReader) Read([]byte) (int, error) { return 0, nil }

// TestReaderSmallReads feeds the input one byte at a time, so that every
// tag straddles a read.
func TestReaderSmallReads(t *testing.T) {
	in := mwOpen + page(1, "One", "x &amp; y") + "junk <pag" + page(2, "Two", "z") + mwClose
	want := readString(t, in, Options{})
	got := readAll(t, NewReader(iotest.OneByteReader(strings.NewReader(in)), "f.xml", Options{}))
	if !reflect.DeepEqual(got, want) || len(got.pages) != 2 {
		t.Errorf("one byte at a time:\n got %+v\nwant %+v", got, want)
	}
}

// TestReaderLargeInput crosses many window refills, with pages longer than
// the window.
func TestReaderLargeInput(t *testing.T) {
	var b strings.Builder
	b.WriteString(mwOpen)
	long := strings.Repeat("word &amp; ", windowSize/5)
	for i := 1; i <= 5; i++ {
		b.WriteString(page(i, "P"+strconv.Itoa(i), long))
	}
	b.WriteString(mwClose)
	res := readString(t, b.String(), Options{})
	if len(res.pages) != 5 || res.end != io.EOF || len(res.dead) != 0 {
		t.Fatalf("pages %d, dead %d, end %v", len(res.pages), len(res.dead), res.end)
	}
	wantText := strings.Repeat("word & ", windowSize/5)
	for i, p := range res.pages {
		if p.Text != wantText || p.ID != int64(i+1) {
			t.Errorf("page %d: id %d, text of %d bytes, want id %d and %d bytes", i, p.ID, len(p.Text), i+1, len(wantText))
		}
	}
}

func TestInvalidUTF8Replaced(t *testing.T) {
	in := mwOpen + page(1, "Caf\xe9", "a\xff\xfeb \xc3") + mwClose
	res := readString(t, in, Options{})
	if len(res.pages) != 1 || res.end != io.EOF {
		t.Fatalf("pages %d, end %v", len(res.pages), res.end)
	}
	if p := res.pages[0]; p.Title != "Caf\uFFFD" || p.Text != "a\uFFFDb \uFFFD" {
		t.Errorf("title %q text %q", p.Title, p.Text)
	}
}

func encodeUTF16(s string, bigEndian bool) []byte {
	var order binary.AppendByteOrder = binary.LittleEndian
	out := []byte{0xFF, 0xFE}
	if bigEndian {
		order, out = binary.BigEndian, []byte{0xFE, 0xFF}
	}
	for _, u := range utf16.Encode([]rune(s)) {
		out = order.AppendUint16(out, u)
	}
	return out
}

func TestByteOrderMarks(t *testing.T) {
	doc := mwOpen + page(1, "Ĉu 𝄞", "text 😀 é") + mwClose
	want := document.Page{File: "f.xml", Offset: int64(len(mwOpen) + len("  ")), ID: 1, RevID: 10, Title: "Ĉu 𝄞", Text: "text 😀 é"}
	for _, tt := range []struct {
		name string
		in   []byte
		off  int64 // offset shift of the page
	}{
		{"utf-8", []byte(doc), 0},
		{"utf-8 bom", append([]byte{0xEF, 0xBB, 0xBF}, doc...), 3},
		{"utf-16le", encodeUTF16(doc, false), 0},
		{"utf-16be", encodeUTF16(doc, true), 0},
	} {
		t.Run(tt.name, func(t *testing.T) {
			res := readAll(t, NewReader(iotest.HalfReader(bytes.NewReader(tt.in)), "f.xml", Options{}))
			w := want
			w.Offset += tt.off
			if len(res.pages) != 1 || res.pages[0] != w || res.end != io.EOF {
				t.Errorf("got %+v (end %v), want %+v", res.pages, res.end, w)
			}
		})
	}
}

func TestUTF16Errors(t *testing.T) {
	tests := []struct {
		name string
		in   []byte // UTF-16LE without BOM
		want string
	}{
		{"lone high surrogate at end", []byte{'a', 0, 0x3D, 0xD8}, "a\uFFFD"},
		{"lone high surrogate", []byte{0x3D, 0xD8, 'b', 0}, "\uFFFDb"},
		{"lone low surrogate", []byte{0x00, 0xDC, 'c', 0}, "\uFFFDc"},
		{"odd byte", []byte{'d', 0, 'e'}, "d\uFFFD"},
		{"pair", []byte{0x34, 0xD8, 0x1E, 0xDD}, "𝄞"},
	}
	for _, tt := range tests {
		got, err := io.ReadAll(iotest.OneByteReader(newUTF16Reader(iotest.OneByteReader(bytes.NewReader(tt.in)), false)))
		if err != nil || string(got) != tt.want {
			t.Errorf("%s: got %q, %v; want %q", tt.name, got, err, tt.want)
		}
	}
}

// TestFixtures reads the hand-written files in testdata.
func TestFixtures(t *testing.T) {
	tests := []struct {
		file    string
		titles  []string
		reasons []string
		end     error
	}{
		{"empty.xml", nil, nil, io.EOF},
		{"doctype-entities.xml", []string{"Plain", "Numeric"}, []string{"invalid character entity &lol9;"}, io.EOF},
		{"malformed.xml", []string{"Good one", "Good two", "Good three"}, []string{
			"malformed XML", "page not closed before the next <page>", "missing page id"}, io.EOF},
		{"oldschema.xml", []string{"Main", "Talk:Main", "Wikipedia:About"}, nil, io.EOF},
	}
	for _, tt := range tests {
		t.Run(tt.file, func(t *testing.T) {
			f, err := os.Open(filepath.Join("testdata", tt.file))
			if err != nil {
				t.Fatal(err)
			}
			defer f.Close()
			res := readAll(t, NewReader(f, tt.file, Options{}))
			checkOutcome(t, res, tt.titles, tt.reasons)
			if res.end != tt.end {
				t.Errorf("end = %v, want %v", res.end, tt.end)
			}
		})
	}
}

func TestOldSchemaNamespaces(t *testing.T) {
	f, err := os.Open(filepath.Join("testdata", "oldschema.xml"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	res := readAll(t, NewReader(f, "oldschema.xml", Options{}))
	var got []int
	for _, p := range res.pages {
		got = append(got, p.NS)
	}
	if want := []int{0, 1, 4}; !reflect.DeepEqual(got, want) {
		t.Errorf("namespaces %v, want %v", got, want)
	}
}
