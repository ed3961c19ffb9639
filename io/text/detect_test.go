package text

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestDetectHead(t *testing.T) {
	utf16le := func(s string) string {
		b := []byte{0xFF, 0xFE}
		for _, c := range s {
			b = append(b, byte(c), 0)
		}
		return string(b)
	}
	straddling := strings.Repeat("a", checkBytes-1) + "é" // its second byte is past the first KB
	tests := []struct {
		name, head string
		want       Format
		err        string
	}{
		{"dump", `<mediawiki xmlns="http://www.mediawiki.org/xml/export-0.10/">`, MediaWiki, ""},
		{"bare pages after white space", " \r\n\t<page>", MediaWiki, ""},
		{"empty", "", MediaWiki, ""},
		{"only white space", "\n\n  ", MediaWiki, ""},
		{"XML with a byte order mark", "\xef\xbb\xbf<mediawiki>", MediaWiki, ""},
		{"UTF-16 XML", utf16le("  <mediawiki>"), MediaWiki, ""},
		{"JSON lines", `{"id":"a","text":"b"}` + "\n", JSONL, ""},
		{"JSON lines after a byte order mark and a blank line", "\xef\xbb\xbf\n{\"id\":1}", JSONL, ""},
		{"plain text", "Call me Ishmael.", Plain, ""},
		{"WARC 1.0", "WARC/1.0\r\nWARC-Type: warcinfo\r\n", WARC, ""},
		{"WARC 1.1 after a blank line", "\r\nWARC/1.1\r\nWARC-Type: response\r\n", WARC, ""},
		{"a text about WARC/2 is plain text", "WARC/2.0 is not a version", Plain, ""},
		{"a JSON array is plain text", `[{"id":1}]`, Plain, ""},
		{"a character across the first KB's end", straddling, Plain, ""},
		{"invalid UTF-8 after the first KB", strings.Repeat("a", checkBytes) + "\xff", Plain, ""},
		{"a NUL byte", "PK\x03\x04\x00\x00", 0, `z.bin is not UTF-8 text: a NUL byte at offset 4 of its first KB (first bytes: "PK\x03\x04\x00\x00")`},
		{"invalid UTF-8", "caf\xe9 text", 0, `z.bin is not UTF-8 text: invalid UTF-8 at offset 3 of its first KB (first bytes: "caf\xe9 text")`},
		{"JSON lines with binary", "{\"id\":\x00}", 0, "a NUL byte at offset 6"},
		{"UTF-16 text", utf16le("Hello"), 0, `z.bin is not UTF-8 text: UTF-16 text at offset 0 of its first KB (first bytes: "\xff\xfeH\x00e\x00l\x00l\x00o\x00")`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := DetectHead("z.bin", []byte(tt.head))
			switch {
			case tt.err == "" && (err != nil || got != tt.want):
				t.Errorf("DetectHead = %v, %v; want %v", got, err, tt.want)
			case tt.err != "" && (err == nil || !strings.Contains(err.Error(), tt.err)):
				t.Errorf("DetectHead error %v, want one containing %q", err, tt.err)
			}
			var bin *BinaryError
			if tt.err != "" && !errors.As(err, &bin) {
				t.Errorf("error %T, want a *BinaryError", err)
			}
		})
	}
}

// TestDetectFiles detects the format of real and written files, compressed
// or not.
func TestDetectFiles(t *testing.T) {
	dir := t.TempDir()
	tests := map[string]Format{
		writeFile(t, dir, "doc.txt.gz", gzipped(t, []byte("Plain words.\n"))):      Plain,
		writeFile(t, dir, "d.jsonl.zst", zstded(t, []byte(`{"id":1,"text":"x"}`))): JSONL,
		writeFile(t, dir, "cut.xml.gz", gzipped(t, []byte("<mediawiki>"))[:5]):     MediaWiki, // dump's reader reports it
		filepath.Join("..", "..", "testdata", "sample", "simplewiki-sample.xml"):   MediaWiki,
		filepath.Join("..", "..", "testdata", "README.md"):                         Plain,
	}
	if data, ok := sharedData(); ok {
		tests[filepath.Join(data, "commoncrawl-text", "dolma-cc_en_head-0091.jsonl.gz")] = JSONL
		tests[filepath.Join(data, "gensim-wiki", "bgwiki-latest-pages-articles-shortened.xml.bz2")] = MediaWiki // UTF-16
		tests[filepath.Join(data, "xztextfilter-wiki-truncated", "elwiki-truncated-100k.xml.xz")] = MediaWiki
		tests[filepath.Join(data, "wikiduper", "README.txt")] = Plain
	}
	for file, want := range tests {
		if got, err := Detect(t.Context(), file); err != nil || got != want {
			t.Errorf("Detect(%s) = %v, %v; want %v", file, got, err, want)
		}
	}
	binary := writeFile(t, dir, "image.png", []byte("\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR"))
	if _, err := Detect(t.Context(), binary); err == nil || !strings.Contains(err.Error(), binary+" is not UTF-8 text: invalid UTF-8 at offset 0") {
		t.Errorf("Detect(a PNG) error %v", err)
	}
	if _, err := Detect(t.Context(), dir); err == nil || !strings.Contains(err.Error(), dir+" is a directory") {
		t.Errorf("Detect(a directory) error %v", err)
	}
	if _, err := Detect(t.Context(), filepath.Join(dir, "missing.txt")); err == nil || !strings.Contains(err.Error(), "missing.txt") {
		t.Errorf("Detect(a missing file) error %v", err)
	}
}

// sharedData returns the path of ../shared/data and whether it is there.
func sharedData() (string, bool) {
	path := filepath.Join("..", "..", "..", "shared", "data")
	_, err := os.Stat(path)
	return path, err == nil
}
