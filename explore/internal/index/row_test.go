package index

import (
	"math/rand/v2"
	"reflect"
	"strconv"
	"strings"
	"testing"

	"github.com/neardup/neardup/transforms/categorize"
)

func TestParseIndexRow(t *testing.T) {
	digest := func(d categorize.Digest) string { return string(categorize.AppendDigest(nil, d)) }
	d := categorize.Digest{ID: "enwiki:12:345:6", Category: "factual_drift", Size: 3, Pages: 2, MembersOmitted: 1,
		MinJaccard: 0.808, MaxEdit: 0.0079, Articles: []categorize.Article{{Wiki: "enwiki", PageID: 12, Title: "Lake Orsel"},
			{Wiki: "elwiki", PageID: 7, Title: "Λίμνη Ορσέλ"}}}
	escaped := d
	escaped.Articles = []categorize.Article{{Wiki: "enwiki", PageID: 12, Title: "Tab\there \\ and\nnewline"}}
	good := []struct {
		name string
		line string
		want row
	}{
		{"plain", "100\t250\t" + digest(d), row{offset: 100, length: 250, wiki: []byte("enwiki"), page: 12,
			revOrd: 345<<ordinalBits | 6, kind: []byte("factual_drift"), size: 3, pages: 2, omitted: 1, minJ: 0.808, maxE: 0.0079,
			arts: []artRow{{[]byte("enwiki"), 12, []byte("Lake Orsel")}, {[]byte("elwiki"), 7, []byte("Λίμνη Ορσέλ")}}}},
		{"escaped title", "0\t9\t" + digest(escaped), row{offset: 0, length: 9, wiki: []byte("enwiki"), page: 12,
			revOrd: 345<<ordinalBits | 6, kind: []byte("factual_drift"), size: 3, pages: 2, omitted: 1, minJ: 0.808, maxE: 0.0079,
			arts: []artRow{{[]byte("enwiki"), 12, []byte("Tab\there \\ and\nnewline")}}}},
		{"no articles", "5\t6\ta:b:1:2:3\tother\t2\t1\t0\t1\t0", row{offset: 5, length: 6, wiki: []byte("a:b"), page: 1,
			revOrd: 2<<ordinalBits | 3, kind: []byte("other"), size: 2, pages: 1, minJ: 1}},
	}
	for _, tc := range good {
		t.Run(tc.name, func(t *testing.T) {
			var got row
			if err := parseIndexRow([]byte(tc.line), &got); err != nil {
				t.Fatal(err)
			}
			if len(got.arts) == 0 {
				got.arts = nil
			}
			if !reflect.DeepEqual(got, tc.want) {
				t.Errorf("got  %+v\nwant %+v", got, tc.want)
			}
		})
	}
	bad := []struct{ name, line, want string }{
		{"empty", "", "offset and length"},
		{"no length", "12", "offset and length"},
		{"signed offset", "+1\t2\t" + digest(d), "offset and length"},
		{"leading zero", "01\t2\t" + digest(d), "offset and length"},
		{"zero length", "1\t0\t" + digest(d), "out of range"},
		{"no digest", "1\t2", "not wiki:page_id:rev_id:sentence"},
		{"bad id", "1\t2\tenwiki:12:x:6\tother\t2\t1\t0\t1\t0", `"x" is not a number`},
		{"id without wiki", "1\t2\t:12:3:6\tother\t2\t1\t0\t1\t0", "not wiki:page_id"},
		{"ordinal too large", "1\t2\tw:1:2:1048576\tother\t2\t1\t0\t1\t0", "not wiki:page_id"},
		{"no category", "1\t2\tw:1:2:3\t\t2\t1\t0\t1\t0", "no category"},
		{"bad size", "1\t2\tw:1:2:3\tother\tbig\t1\t0\t1\t0", "size, pages"},
		{"bad cohesion", "1\t2\tw:1:2:3\tother\t2\t1\t0\tone\t0", "cohesion"},
		{"short article", "1\t2\tw:1:2:3\tother\t2\t1\t0\t1\t0\tw\t5", "fewer than 3 fields"},
		{"bad page id", "1\t2\tw:1:2:3\tother\t2\t1\t0\t1\t0\tw\tfive\tT", "article page id"},
		{"page id too large", "1\t2\tw:1:2:3\tother\t2\t1\t0\t1\t0\tw\t281474976710656\tT", "below 2^48"},
		{"bad escape", "1\t2\tw:1:2:3\tother\t2\t1\t0\t1\t0\tw\t5\tT\\q", "bad escape"},
	}
	for _, tc := range bad {
		t.Run(tc.name, func(t *testing.T) {
			var got row
			err := parseIndexRow([]byte(tc.line), &got)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("error %v, want one saying %q", err, tc.want)
			}
		})
	}
}

func TestIDRoundTrip(t *testing.T) {
	for _, id := range []string{"enwiki:1:2:0", "samplewiki:104:40117:1", "a:b:c:0:8589934591:1048575", "ελwiki:9:9:9"} {
		wiki, page, revOrd, err := parseID([]byte(id))
		if err != nil {
			t.Fatalf("%s: %v", id, err)
		}
		if got := formatID(string(wiki), page, revOrd); got != id {
			t.Errorf("formatID(parseID(%q)) = %q", id, got)
		}
	}
	for _, id := range []string{"", "enwiki", "enwiki:1:2", "enwiki:1:2:", "enwiki:1:02:3", "enwiki:-1:2:3", "enwiki:1: 2:3"} {
		if _, _, _, err := parseID([]byte(id)); err == nil {
			t.Errorf("parseID(%q) succeeded", id)
		}
	}
}

// TestAtof checks the fast float parser against strconv on the forms the
// pipeline writes and on random decimals.
func TestAtof(t *testing.T) {
	cases := []string{"0", "1", "0.5", "0.808", "0.0079", "0.8138", "1e-05", "0.1", "0.3", "123456789012345", "0.000000000000000000001", "1.5e3", "Inf"}
	r := rand.New(rand.NewPCG(1, 2))
	for range 10000 {
		cases = append(cases, strconv.FormatFloat(float64(r.IntN(100000))/1e4, 'g', -1, 64),
			strconv.FormatFloat(r.Float64(), 'g', -1, 64), strconv.FormatFloat(r.Float64(), 'f', r.IntN(20), 64))
	}
	for _, s := range cases {
		want, werr := strconv.ParseFloat(s, 64)
		got, err := atof([]byte(s))
		if got != want || (err == nil) != (werr == nil) {
			t.Fatalf("atof(%q) = %v, %v; strconv says %v, %v", s, got, err, want, werr)
		}
	}
	for _, s := range []string{"", ".", "1..2", "x", "1,5"} {
		if _, err := atof([]byte(s)); err == nil {
			t.Errorf("atof(%q) succeeded", s)
		}
	}
}
