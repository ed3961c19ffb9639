package text

import (
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

func TestCorpusName(t *testing.T) {
	for file, want := range map[string]string{
		"/data/dolma-cc_en_head-0091.jsonl.gz":          "dolma-cc_en_head-0091",
		"gs://b/c4/en/c4-train.00001-of-01024.json.zst": "c4-train.00001-of-01024",
		"docs.ndjson":                      "docs",
		"plain.jsonl":                      "plain",
		"data.v2.jsonl.bz2":                "data.v2",
		"noext":                            "noext",
		`C:\corpora\web part:1.jsonl.xz`:   "web_part_1",
		".jsonl":                           ".jsonl",
		"/a/b/":                            "b",
		strings.Repeat("é", 40) + ".jsonl": strings.Repeat("é", 32),
	} {
		if got := CorpusName(file); got != want {
			t.Errorf("CorpusName(%q) = %q, want %q", file, got, want)
		}
	}
}

func TestParseFormat(t *testing.T) {
	for _, f := range []Format{Auto, MediaWiki, JSONL, Plain, WARC} {
		if got, err := ParseFormat(f.String()); err != nil || got != f {
			t.Errorf("ParseFormat(%q) = %v, %v", f.String(), got, err)
		}
	}
	if _, err := ParseFormat("xml"); err == nil || err.Error() != `unknown input format "xml" (want auto, mediawiki, jsonl, text or warc)` {
		t.Errorf("ParseFormat(xml) error %v", err)
	}
	if got := Format(9).String(); got != "Format(9)" {
		t.Errorf("Format(9) = %q", got)
	}
}

func TestPlan(t *testing.T) {
	dir := t.TempDir()
	b := writeFile(t, dir, "b.txt", []byte("bee"))
	a := writeFile(t, dir, "a.txt", []byte("a"))
	web := writeFile(t, dir, "web-0001.jsonl.gz", gzipped(t, []byte(`{"id":1,"text":"x"}`)))
	news := writeFile(t, dir, "news.jsonl", []byte(`{"id":1,"text":"x"}`+"\n"))
	got, err := Plan(t.Context(), []string{web, news}, []string{b, a})
	if err != nil {
		t.Fatal(err)
	}
	want := []Source{
		{File: a, Size: 1, Plain: true, Corpus: "text", Rank: 1},
		{File: b, Size: 3, Plain: true, Corpus: "text", Rank: 2},
		{File: news, Size: 20, Corpus: "news"},
		{File: web, Size: int64(len(gzipped(t, []byte(`{"id":1,"text":"x"}`)))), Corpus: "web-0001"},
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("Plan =\n %+v\nwant\n %+v", got, want)
	}
	if c := Corpora(got); !reflect.DeepEqual(c, []string{"news", "text", "web-0001"}) {
		t.Errorf("Corpora = %q", c)
	}

	other := filepath.Join(t.TempDir(), "web-0001.jsonl")
	writeFile(t, filepath.Dir(other), "web-0001.jsonl", []byte(`{"id":1,"text":"x"}`))
	textJSONL := writeFile(t, dir, "text.jsonl", []byte(`{"id":1,"text":"x"}`))
	for _, tt := range []struct {
		jsonl, plain []string
		err          string
	}{
		{[]string{other, web}, nil, web + " and " + other + ` are both corpus "web-0001"`},
		{[]string{textJSONL}, []string{a}, a + " and " + textJSONL + ` are both corpus "text"`},
		{[]string{dir}, nil, dir + " is a directory"},
	} {
		if _, err := Plan(t.Context(), tt.jsonl, tt.plain); err == nil || !strings.Contains(err.Error(), tt.err) {
			t.Errorf("Plan(%q, %q) error %v, want one containing %q", tt.jsonl, tt.plain, err, tt.err)
		}
	}
	if _, err := Plan(t.Context(), []string{textJSONL}, nil); err != nil {
		t.Errorf("a JSON-lines file named text, without plain-text files: %v", err)
	}
}
