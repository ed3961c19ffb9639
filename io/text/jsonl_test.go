package text

import (
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"reflect"
	"strings"
	"testing"

	"github.com/neardup/neardup/internal/counters"
	"github.com/neardup/neardup/io/document"
	"github.com/neardup/neardup/io/dump"
)

// TestJSONLFields reads one line of each layout: the plain one, Dolma's,
// datatrove's and CCNet's, and the optional fields' fallbacks.
func TestJSONLFields(t *testing.T) {
	tests := []struct {
		name, line string
		want       document.Page // File, Offset, ID and Plain are checked apart
	}{
		{"id and text", `{"id":"doc-1","text":"Hello."}`,
			document.Page{Name: "doc-1", Title: "doc-1", Text: "Hello."}},
		{"title, url and lang", `{"id":"d","text":"T","title":"A title","url":"https://example.org/a","lang":"de"}`,
			document.Page{Name: "d", Title: "A title", Text: "T", URL: "https://example.org/a", Lang: "de"}},
		{"language", `{"id":"d","text":"T","language":"pt_BR"}`,
			document.Page{Name: "d", Title: "d", Text: "T", Lang: "pt-br"}},
		{"numeric id kept as written", `{"id":-42.5e3,"text":"T"}`,
			document.Page{Name: "-42.5e3", Title: "-42.5e3", Text: "T"}},
		{"Dolma", `{"id":"blj5uzvc","text":"T","source":"common-crawl","added":"2023-04-07","metadata":{"url":"http://a.example/","warc_url":"http://b.example/","language":"en"}}`,
			document.Page{Name: "blj5uzvc", Title: "blj5uzvc", Text: "T", URL: "http://a.example/", Lang: "en"}},
		{"datatrove", `{"text":"T","id":"<urn:uuid:6f2c>","media":[],"metadata":{"dump":"CC-MAIN-2024-10","url":"https://c.example/x","language":"fr","language_score":0.97}}`,
			document.Page{Name: "<urn:uuid:6f2c>", Title: "<urn:uuid:6f2c>", Text: "T", URL: "https://c.example/x", Lang: "fr"}},
		{"CCNet metadata title", `{"id":"http://e.example/","text":"T","metadata":{"title":"Page title","url":"http://e.example/","language":"en"}}`,
			document.Page{Name: "http://e.example/", Title: "Page title", Text: "T", URL: "http://e.example/", Lang: "en"}},
		{"top-level fields before metadata's", `{"id":"d","text":"T","url":"u1","lang":"es","title":"t1","metadata":{"url":"u2","language":"en","title":"t2"}}`,
			document.Page{Name: "d", Title: "t1", Text: "T", URL: "u1", Lang: "es"}},
		{"optional fields that are not strings are ignored", `{"id":"d","text":"T","title":5,"url":null,"lang":["en"],"metadata":"none"}`,
			document.Page{Name: "d", Title: "d", Text: "T"}},
		{"not a language tag", `{"id":"d","text":"T","language":"English (US)"}`,
			document.Page{Name: "d", Title: "d", Text: "T"}},
		{"escapes and invalid UTF-8", "{\"id\":\"\\u00e9\",\"text\":\"a\\nb \xff\"}",
			document.Page{Name: "é", Title: "é", Text: "a\nb \uFFFD"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := NewJSONLReader(strings.NewReader("\n"+tt.line+"\n"), "f.jsonl", 0)
			p, err := r.Next()
			if err != nil {
				t.Fatal(err)
			}
			want := tt.want
			want.File, want.Offset, want.ID, want.Plain = "f.jsonl", 1, 2, true
			if !reflect.DeepEqual(p, want) {
				t.Errorf("Next() =\n %+v\nwant\n %+v", p, want)
			}
			if _, err := r.Next(); err != io.EOF {
				t.Errorf("then %v, want io.EOF", err)
			}
		})
	}
}

// TestJSONLBadLines reads a file of every kind of bad line: each is a dead
// letter with its file, offset, line and reason, and the good lines
// around them are read.
func TestJSONLBadLines(t *testing.T) {
	lines := []string{
		`{"id":"a","text":"first"}`, // 1
		`not json`,                  // 2
		`[1,2]`,                     // 3
		`{"text":"no id"}`,          // 4
		`{"id":"b"}`,                // 5
		`{"id":"c","text":5}`,       // 6
		`{"id":true,"text":"x"}`,    // 7
		`{"id":"","text":"x"}`,      // 8
		`{"id":"a","text":"again"}`, // 9
		`{"id":"d","text":"x"`,      // 10
		``,                          // 11: blank lines are skipped
		`   `,                       // 12
		`{"id":null,"text":"x"}`,    // 13
		`{"id":"e","text":null}`,    // 14
		`{"id":"b","text":"b now"}`, // 15: b had no text: its id is free
		`{"id":7,"text":"x"} junk`,  // 16
		`{"id":"` + strings.Repeat("z", 80) + `","text":"long"}`, // 17
		`{"id":"f","text":"last, no newline"}`,                   // 18
	}
	in := strings.Join(lines, "\n")
	offsets := make([]int64, len(lines)+1)
	for i, l := range lines {
		offsets[i+1] = offsets[i] + int64(len(l)) + 1
	}
	letter := func(line int, reason string) document.DeadLetter {
		return document.DeadLetter{File: "bad.jsonl", Offset: offsets[line-1], Line: int64(line), Reason: reason}
	}
	wantDead := []document.DeadLetter{
		letter(2, "invalid JSON: invalid character 'o' in literal null (expecting 'u')"),
		letter(3, "not a JSON object"),
		letter(4, `no "id"`),
		letter(5, `no "text"`),
		letter(6, `"text" is not a string`),
		letter(7, `"id" is neither a string nor a number`),
		letter(8, `empty "id"`),
		letter(9, `id "a" repeats line 1`),
		letter(10, "invalid JSON: unexpected end of JSON input"),
		letter(13, `no "id"`),
		letter(14, `no "text"`),
		letter(16, "invalid JSON: invalid character 'j' after top-level value"),
		letter(17, "line longer than 64 bytes (--max_page_bytes)"),
	}
	d := drainReader(t, strings.NewReader(in), Source{File: "bad.jsonl", Corpus: "bad"}, 64)
	if !reflect.DeepEqual(d.dead, wantDead) {
		t.Errorf("dead letters:\n%s\nwant\n%s", show(d.dead), show(wantDead))
	}
	var got []string
	for _, p := range d.pages {
		got = append(got, fmt.Sprintf("%d@%d %s %q %s", p.ID, p.Offset, p.Name, p.Text, p.Wiki))
	}
	want := []string{
		`1@0 a "first" bad`,
		fmt.Sprintf(`15@%d b "b now" bad`, offsets[14]),
		fmt.Sprintf(`18@%d f "last, no newline" bad`, offsets[17]),
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("pages:\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	wantCounts := counters.Counts{FilesRead: 1, PagesRead: 16, PagesKept: 3, PagesFailed: 13, DeadLetters: 13}
	if !reflect.DeepEqual(d.counts, wantCounts) {
		t.Errorf("counts %+v, want %+v", d.counts, wantCounts)
	}
}

func show(dead []document.DeadLetter) string {
	var b strings.Builder
	for _, d := range dead {
		fmt.Fprintf(&b, "  %+v\n", d)
	}
	return b.String()
}

// TestJSONLEmptyText reads documents whose text is empty or blank: read
// and counted, not kept, and their ids taken.
func TestJSONLEmptyText(t *testing.T) {
	in := `{"id":1,"text":""}` + "\n" + `{"id":2,"text":" \n\t "}` + "\n" + `{"id":3,"text":"Kept."}` + "\n" + `{"id":1,"text":"again"}` + "\n"
	d := drainReader(t, strings.NewReader(in), Source{File: "e.jsonl", Corpus: "e"}, 0)
	if len(d.pages) != 1 || d.pages[0].Name != "3" || d.pages[0].ID != 3 {
		t.Errorf("pages %+v, want only id 3 at line 3", d.pages)
	}
	want := counters.Counts{FilesRead: 1, PagesRead: 4, PagesKept: 1, PagesEmpty: 2, PagesFailed: 1, DeadLetters: 1}
	if !reflect.DeepEqual(d.counts, want) {
		t.Errorf("counts %+v, want %+v", d.counts, want)
	}
	if len(d.dead) != 1 || d.dead[0].Reason != `id "1" repeats line 1` {
		t.Errorf("dead letters %+v", d.dead)
	}
}

// TestJSONLLongID quotes a repeated long id cut, with a mark.
func TestJSONLLongID(t *testing.T) {
	id := strings.Repeat("é", 150) // 300 bytes
	line := `{"id":"` + id + `","text":"x"}` + "\n"
	d := drainReader(t, strings.NewReader(line+line), Source{File: "l.jsonl"}, 0)
	want := fmt.Sprintf("id %q… repeats line 1", strings.Repeat("é", 100))
	if len(d.dead) != 1 || d.dead[0].Reason != want {
		t.Errorf("dead letters %+v, want one saying %s", d.dead, want)
	}
}

// TestJSONLByteOrderMark skips a UTF-8 byte order mark before the first
// line, and offsets count it.
func TestJSONLByteOrderMark(t *testing.T) {
	in := "\xef\xbb\xbf" + `{"id":"a","text":"x"}` + "\r\n" + `{"id":"b","text":"y"}` + "\r\n"
	d := drainReader(t, strings.NewReader(in), Source{File: "bom.jsonl"}, 0)
	if len(d.dead) != 0 || len(d.pages) != 2 || d.pages[0].Name != "a" || d.pages[1].Offset != 26 {
		t.Errorf("pages %+v, dead letters %+v", d.pages, d.dead)
	}
}

// TestJSONLCompressed reads the same documents plain, gzipped and
// Zstandard-compressed, through dump.Open.
func TestJSONLCompressed(t *testing.T) {
	var b strings.Builder
	for i := range 3000 {
		fmt.Fprintf(&b, `{"id":"doc-%d","text":"Document %d: %s","metadata":{"url":"https://example.org/%d"}}`+"\n", i, i, strings.Repeat("words ", i%40), i)
	}
	dir := t.TempDir()
	data := []byte(b.String())
	files := []string{
		writeFile(t, dir, "c.jsonl", data),
		writeFile(t, dir, "c.jsonl.gz", gzipped(t, data)),
		writeFile(t, dir, "c.jsonl.zst", zstded(t, data)),
	}
	var want []document.Page
	for i, f := range files {
		d := drainFile(t, Source{File: f, Corpus: "c"}, 0)
		if len(d.pages) != 3000 || len(d.dead) != 0 || d.pages[2999].Name != "doc-2999" || d.pages[2999].URL != "https://example.org/2999" {
			t.Fatalf("%s: %d pages, %d dead letters", f, len(d.pages), len(d.dead))
		}
		for j := range d.pages {
			d.pages[j].File = ""
		}
		if i == 0 {
			want = d.pages
		} else if !reflect.DeepEqual(d.pages, want) {
			t.Errorf("%s: the pages differ from the plain file's", f)
		}
	}
}

// TestJSONLTruncated reads JSON lines whose compressed stream is cut: the
// complete lines before the cut are kept, then a dead letter for the cut
// line (its offset and number) and one for the file's truncation.
func TestJSONLTruncated(t *testing.T) {
	// Random words, so that a Zstandard stream has many blocks (of 128 KiB
	// of text), each decoded whole.
	const lines = 20000
	rng := rand.New(rand.NewPCG(1, 2))
	var b strings.Builder
	var offsets []int64
	for i := range lines {
		offsets = append(offsets, int64(b.Len()))
		fmt.Fprintf(&b, `{"id":%d,"text":"document %d`, i, i)
		for range 10 + i%20 {
			fmt.Fprintf(&b, " %x", rng.Uint32())
		}
		b.WriteString("\"}\n")
	}
	dir := t.TempDir()
	for _, tt := range []struct {
		name string
		data []byte
	}{
		{"cut.jsonl.gz", gzipped(t, []byte(b.String()))},
		{"cut.jsonl.zst", zstded(t, []byte(b.String()))},
	} {
		t.Run(tt.name, func(t *testing.T) {
			file := writeFile(t, dir, tt.name, tt.data[:len(tt.data)/2])
			d := drainFile(t, Source{File: file, Corpus: "cut"}, 0)
			n := len(d.pages)
			if n < 1000 || n >= lines {
				t.Fatalf("%d complete lines read of the first half", n)
			}
			for i, p := range d.pages {
				if p.ID != int64(i+1) || p.Name != fmt.Sprint(i) {
					t.Fatalf("page %d: %+v", i, p)
				}
			}
			if len(d.dead) != 2 {
				t.Fatalf("dead letters %+v, want the cut line's and the file's", d.dead)
			}
			cut, end := d.dead[0], d.dead[1]
			if cut.File != file || cut.Offset != offsets[n] || cut.Line != int64(n+1) || !strings.HasPrefix(cut.Reason, "truncated: document cut: ") {
				t.Errorf("cut line's dead letter %+v, want line %d at offset %d", cut, n+1, offsets[n])
			}
			if end.File != file || end.Offset != offsets[n] || end.Line != 0 || !strings.HasPrefix(end.Reason, "truncated: ") || strings.Contains(end.Reason, "cut") {
				t.Errorf("file's dead letter %+v", end)
			}
			want := counters.Counts{FilesRead: 1, FilesTruncated: 1, PagesRead: int64(n + 1), PagesKept: int64(n), PagesFailed: 1, DeadLetters: 2}
			if !reflect.DeepEqual(d.counts, want) {
				t.Errorf("counts %+v, want %+v", d.counts, want)
			}
		})
	}
}

// TestJSONLTruncatedBetweenLines cuts a stream right after a newline:
// nothing is cut but the file, whose dead letter is at the end of the
// data.
func TestJSONLTruncatedBetweenLines(t *testing.T) {
	r := NewJSONLReader(io.MultiReader(strings.NewReader(`{"id":"a","text":"x"}`+"\n"), failing{}), "f.jsonl.gz", 0)
	if p, err := r.Next(); err != nil || p.Name != "a" {
		t.Fatalf("Next() = %+v, %v", p, err)
	}
	_, err := r.Next()
	var cut *TruncatedError
	if !errors.As(err, &cut) || cut.Cut || cut.Line != 0 || cut.Offset != 22 || !errors.Is(err, dump.ErrTruncated) {
		t.Fatalf("Next() error %v (%+v), want a truncation at offset 22 with no line cut", err, cut)
	}
	if _, again := r.Next(); again != err {
		t.Errorf("then %v, want the same terminal error", again)
	}
}

// failing is a stream whose decompressor fails.
type failing struct{}

func (failing) Read([]byte) (int, error) { return 0, io.ErrUnexpectedEOF }

// TestJSONLSourceError returns an error of the file itself, not a dead
// letter: the runner retries the bundle.
func TestJSONLSourceError(t *testing.T) {
	broken := dump.MarkSourceErrors(io.MultiReader(strings.NewReader(`{"id":"a",`), errReader{}))
	var c counters.Counts
	err := Drain(broken, Source{File: "f.jsonl"}, 0, &c, func(document.Page) {}, func(document.DeadLetter) { t.Error("a dead letter for an I/O error") })
	if err == nil || !strings.Contains(err.Error(), "f.jsonl") || !strings.Contains(err.Error(), "disk on fire") {
		t.Errorf("Drain error %v, want one naming the file and the cause", err)
	}
}

type errReader struct{}

func (errReader) Read([]byte) (int, error) { return 0, errors.New("disk on fire") }

// TestRaw: Raw gives each document's line as the file has it, a bad line's
// too, and nothing for a line too long to be held.
func TestRaw(t *testing.T) {
	in := "\ufeff{\"id\":\"a\",  \"text\":\"One.\"}\n\n{bad json\n{\"id\":\"b\",\"text\":\"" + strings.Repeat("x", 100) + "\"}\n{\"id\":\"c\",\"text\":\"Two.\"}"
	r := NewJSONLReader(strings.NewReader(in), "f.jsonl", 64)
	want := []string{`{"id":"a",  "text":"One."}`, `{bad json`, ``, `{"id":"c","text":"Two."}`}
	for i, w := range want {
		_, err := r.Next()
		var bad *DocError
		if err != nil && !errors.As(err, &bad) {
			t.Fatalf("document %d: %v", i, err)
		}
		if got := string(r.Raw()); got != w {
			t.Errorf("document %d: Raw = %q, want %q", i, got, w)
		}
	}
	if _, err := r.Next(); err != io.EOF {
		t.Errorf("after the last line: %v, want io.EOF", err)
	}
}
