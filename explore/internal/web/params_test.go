package web

import (
	"net/url"
	"reflect"
	"strings"
	"testing"

	"github.com/neardup/neardup/explore/internal/index"
)

func TestParseFilter(t *testing.T) {
	f := func(x float64) *float64 { return &x }
	for _, tc := range []struct {
		query string
		want  index.Query
		page  int
		err   string
	}{
		{"", index.Query{}, 1, ""},
		{"kind=copy_edit&kind=&kind=template", index.Query{Kinds: []string{"copy_edit", "template"}}, 1, ""},
		{"size_min=3&size_max=+40+&page=7", index.Query{SizeMin: 3, SizeMax: 40}, 7, ""},
		{"title=%CE%91%CF%87%CE%B5%CE%BB%CF%8E%CE%BF%CF%82&sort=id", index.Query{Title: "Αχελώος", ByID: true}, 1, ""},
		{"jaccard_min=0.5&jaccard_max=1&edit_max=0", index.Query{JaccardMin: f(0.5), JaccardMax: f(1), EditMax: f(0)}, 1, ""},
		{"sort=size", index.Query{}, 1, ""},
		{"size_min=abc", index.Query{}, 1, `size_min: "abc" is not a whole number`},
		{"size_max=-2", index.Query{}, 1, `size_max: "-2" is not a whole number`},
		{"jaccard_min=2", index.Query{}, 1, `jaccard_min: "2" is not a number from 0 to 1`},
		{"edit_max=NaN", index.Query{}, 1, `edit_max: "NaN" is not a number from 0 to 1`},
		{"sort=random", index.Query{}, 1, `sort: "random" is not a sort order; use size or id`},
		{"page=0", index.Query{}, 1, `page: "0" is not a page number`},
		{"page=368934881474191033", index.Query{}, 1, `page: "368934881474191033" is beyond the last page of any run (at most 42949672)`},
		{"page=42949672", index.Query{}, 42949672, ""},
	} {
		t.Run(tc.query, func(t *testing.T) {
			v, _ := url.ParseQuery(tc.query)
			fl, q, err := parseFilter(v)
			if tc.err != "" {
				if err == nil || !strings.Contains(err.Error(), tc.err) {
					t.Fatalf("error %v, want %q", err, tc.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(q, tc.want) || fl.Page != tc.page {
				t.Errorf("query %+v page %d, want %+v page %d", q, fl.Page, tc.want, tc.page)
			}
		})
	}
}

// TestFilterLinks checks that the links of the pager keep the filters
// and only those set.
func TestFilterLinks(t *testing.T) {
	v, _ := url.ParseQuery("kind=template&size_min=3&title=%3Cb%3E+x&sort=id&edit_max=&page=2")
	f, _, err := parseFilter(v)
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		page int
		want string
	}{{1, "/?kind=template&size_min=3&sort=id&title=%3Cb%3E+x"}, {3, "/?kind=template&page=3&size_min=3&sort=id&title=%3Cb%3E+x"}} {
		if got := f.link("/", tc.page); got != tc.want {
			t.Errorf("link to page %d = %q, want %q", tc.page, got, tc.want)
		}
	}
	if got := (filter{Sort: "size"}).link("/article/enwiki/3", 1); got != "/article/enwiki/3" {
		t.Errorf("link without filters = %q", got)
	}
}
