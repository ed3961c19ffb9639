package parquetfile

import (
	"encoding/json"
	"slices"
	"testing"
)

// scanCluster decodes a cluster line with the scanner alone.
func scanCluster(line []byte) (clusterLine, bool) {
	var p scanner
	var c clusterLine
	p.reset(line)
	ok := p.cluster(&c) && p.end()
	return c, ok
}

// scanSentence decodes a sentence line with the scanner alone.
func scanSentence(line []byte) (sentenceLine, bool) {
	var p scanner
	var s sentenceLine
	p.reset(line)
	ok := p.sentence(&s) && p.end()
	return s, ok
}

// TestScannerDecodesFixtures checks that the scanner decodes the lines of
// the fixtures, like the pipeline's, rather than leaving them to
// encoding/json, and as encoding/json does.
func TestScannerDecodesFixtures(t *testing.T) {
	for _, name := range []string{"clusters.jsonl", "clusters-handwritten.jsonl"} {
		for i, line := range readLines(t, name) {
			got, ok := scanCluster(line)
			if !ok {
				t.Errorf("%s line %d: the scanner declines it", name, i+1)
				continue
			}
			var want clusterLine
			if err := json.Unmarshal(line, &want); err != nil {
				t.Fatal(err)
			}
			if !equalClusterLines(got, want) {
				t.Errorf("%s line %d: the scanner decodes\n%+v\nencoding/json\n%+v", name, i+1, got, want)
			}
		}
	}
	for _, name := range []string{"sentences.jsonl", "sentences-handwritten.jsonl"} {
		for i, line := range readLines(t, name) {
			got, ok := scanSentence(line)
			if !ok {
				t.Errorf("%s line %d: the scanner declines it", name, i+1)
				continue
			}
			var want sentenceLine
			if err := json.Unmarshal(line, &want); err != nil {
				t.Fatal(err)
			}
			if got != want {
				t.Errorf("%s line %d: the scanner decodes\n%+v\nencoding/json\n%+v", name, i+1, got, want)
			}
		}
	}
}

// equalClusterLines reports whether a and b are equal, an empty slice of
// members equal to none.
func equalClusterLines(a, b clusterLine) bool {
	return a.ID == b.ID && a.Size == b.Size && a.Pages == b.Pages && a.Category == b.Category &&
		a.Evidence == b.Evidence && a.Cohesion == b.Cohesion && slices.Equal(a.Members, b.Members) &&
		a.MembersOmitted == b.MembersOmitted
}

// scannerSeeds returns lines on the edges of what the scanner decodes.
func scannerSeeds() []string {
	return []string{
		``, ` `, `null`, `{}`, ` {} `, `{} {}`, `[]`, `"x"`, `{"id":"a"}`, `{"id":"a",}`, `{,"id":"a"}`, `{"id" "a"}`,
		`{"id":"a","id":"b"}`, `{"ID":"a"}`, `{"\u0069d":"a"}`, `{"ıd":"a"}`, `{"id":null}`, `{"id":1}`,
		`{"id":"a\"b\\c\/d\b\f\n\r\t\u00e9\u20ac"}`, `{"id":"\ud83d\ude00"}`, `{"id":"\ud83d"}`, `{"id":"\'"}`,
		"{\"id\":\"\xff\"}", "{\"id\":\"a\x01\"}", "{\"id\":\"€ 日本\"}", "{\"id\":\"\\u00\"}",
		`{"size":3}`, `{"size":-0}`, `{"size":1.5}`, `{"size":1e3}`, `{"size":01}`, `{"size":-}`, `{"size":9223372036854775808}`,
		`{"size":"3"}`, `{"pages":true}`, `{"cohesion":{"min_jaccard":1e400}}`, `{"cohesion":{"min_jaccard":-1.5E-3,"edges":2}}`,
		`{"cohesion":{"mean_edit":.5}}`, `{"cohesion":{"mean_edit":1.}}`, `{"cohesion":null}`, `{"cohesion":[]}`,
		`{"evidence":{}}`, `{"evidence":null}`, `{"evidence":"x"}`, `{"evidence":{"rule":"r","reason":"why","x":[1,{"a":[true,false,null]}]}}`,
		`{"evidence":{"Rule":"r"}}`, `{"evidence":{"rule":"r","rule":"s"}}`, `{"evidence":{"rule":1}}`, `{"evidence":{"x":[1,]}}`,
		`{"evidence":{"x":tru}}`, `{"evidence":{"x":{"\u0041":1}}}`, `{"evidence" : { "rule" : "r" } }`,
		`{"members":[]}`, `{"members":null}`, `{"members":[null]}`, `{"members":[{}]}`, `{"members":[{"id":"a"},{"id":"b","cluster_id":"c"}]}`,
		`{"members":[{"id":"a"},]}`, `{"members":{}}`, `{"members_omitted":4,"x":{"y":[[[]]]}}`,
		`{"id":"a","wiki":"w","page_id":1,"rev_id":2,"title":"t","sentence":3,"section":"s","context":"prose","text":"x","cluster_id":"c"}`,
		`{"id":"a","PAGE_ID":1}`, `{"id":"a","page_id":1.0}`, `{"id":"a","language":"en"}`,
		"{\"id\":\"a\"}\n", "\t{\"id\":\"a\"}\r\n", `{"id":"a"}x`, `{"id":"a"`, `{"id":"a`, `{"id`,
	}
}

// FuzzDecodeCluster checks that the scanner decodes a cluster line as
// encoding/json does, when it decodes it.
func FuzzDecodeCluster(f *testing.F) {
	for _, name := range []string{"clusters.jsonl", "clusters-handwritten.jsonl", "sentences.jsonl"} {
		for _, line := range readLines(f, name) {
			f.Add(line)
		}
	}
	for _, s := range scannerSeeds() {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, line []byte) {
		got, ok := scanCluster(line)
		if !ok {
			return // left to encoding/json
		}
		var want clusterLine
		if err := json.Unmarshal(line, &want); err != nil {
			t.Fatalf("%q: the scanner decodes %+v, encoding/json fails: %v", line, got, err)
		}
		if !equalClusterLines(got, want) {
			t.Fatalf("%q: the scanner decodes\n%+v\nencoding/json\n%+v", line, got, want)
		}
	})
}

// FuzzDecodeSentence checks that the scanner decodes a sentence line as
// encoding/json does, when it decodes it.
func FuzzDecodeSentence(f *testing.F) {
	for _, name := range []string{"sentences.jsonl", "sentences-handwritten.jsonl"} {
		for _, line := range readLines(f, name) {
			f.Add(line)
		}
	}
	for _, s := range scannerSeeds() {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, line []byte) {
		got, ok := scanSentence(line)
		if !ok {
			return
		}
		var want sentenceLine
		if err := json.Unmarshal(line, &want); err != nil {
			t.Fatalf("%q: the scanner decodes %+v, encoding/json fails: %v", line, got, err)
		}
		if got != want {
			t.Fatalf("%q: the scanner decodes\n%+v\nencoding/json\n%+v", line, got, want)
		}
	})
}
