package index

import (
	"fmt"
	"slices"
	"testing"

	"github.com/neardup/neardup/transforms/categorize"
)

// The pages and clusters of the query tests: titles in three scripts, one
// that is markup, one with a slash.
var (
	lakeOrsel  = page{Wiki: "enwiki", ID: 10, Title: "Lake Orsel"}
	orselAbbey = page{Wiki: "enwiki", ID: 20, Title: "Orsel Abbey"}
	acheloos   = page{Wiki: "elwiki", ID: 5, Title: "Ποταμός Αχελώος"}
	tokyo      = page{Wiki: "jawiki", ID: 7, Title: "東京駅"}
	script     = page{Wiki: "enwiki", ID: 30, Title: "<script>alert(1)</script>"}
	acdc       = page{Wiki: "enwiki", ID: 40, Title: "AC/DC"}
	trichonida = page{Wiki: "elwiki", ID: 6, Title: "Λίμνη Τριχωνίδα"}
)

// queryClusters are c1 … c6; by size, largest first, then id: c4 c2 c5 c1
// c3 c6; by id (elwiki, enwiki, jawiki): c4 c1 c2 c3 c5 c6.
func queryClusters() []categorize.Cluster {
	return []categorize.Cluster{
		makeCluster(1, categorize.Identical, 1, 0, lakeOrsel, orselAbbey),
		makeCluster(2, categorize.FactualDrift, 0.808, 0.0079, lakeOrsel, acheloos, tokyo),
		makeCluster(3, categorize.CopyEdit, 0.866, 0.0106, orselAbbey, acdc),
		makeCluster(4, categorize.Template, 0.5, 0.25, acheloos, trichonida, tokyo, script, lakeOrsel),
		makeCluster(5, categorize.Reference, 0.7, 0.1, script, script, script),
		makeCluster(6, categorize.Other, 0.9, 0.05, tokyo, trichonida),
	}
}

// names returns the clusters' names, c1 … c6, by their ids.
func names(r *Run, clusters []categorize.Cluster, indexes []int) []string {
	out := []string{}
	for _, i := range indexes {
		id := r.Entry(i).ID
		for n, c := range clusters {
			if c.ID == id {
				out = append(out, fmt.Sprintf("c%d", n+1))
			}
		}
	}
	return out
}

func TestFilter(t *testing.T) {
	clusters := queryClusters()
	f := func(x float64) *float64 { return &x }
	for _, shards := range []int{1, 2} {
		r := load(t, writeRun(t, shards, clusters...), Options{})
		art := func(p page) *int {
			i, ok := r.FindArticle(p.Wiki, p.ID)
			if !ok {
				t.Fatalf("no article %v", p)
			}
			return &i
		}
		for _, tc := range []struct {
			name string
			q    Query
			want []string
		}{
			{"all", Query{}, []string{"c4", "c2", "c5", "c1", "c3", "c6"}},
			{"by id", Query{ByID: true}, []string{"c4", "c1", "c2", "c3", "c5", "c6"}},
			{"kind", Query{Kinds: []string{"factual_drift"}}, []string{"c2"}},
			{"two kinds", Query{Kinds: []string{"identical", "other"}}, []string{"c1", "c6"}},
			{"unknown kind", Query{Kinds: []string{"nonsense"}}, []string{}},
			{"size min", Query{SizeMin: 3}, []string{"c4", "c2", "c5"}},
			{"size max", Query{SizeMax: 2}, []string{"c1", "c3", "c6"}},
			{"size range", Query{SizeMin: 3, SizeMax: 3}, []string{"c2", "c5"}},
			{"jaccard min, bound included", Query{JaccardMin: f(0.808)}, []string{"c2", "c1", "c3", "c6"}},
			{"jaccard max, bound included", Query{JaccardMax: f(0.808)}, []string{"c4", "c2", "c5"}},
			{"jaccard range", Query{JaccardMin: f(0.8), JaccardMax: f(0.9)}, []string{"c2", "c3", "c6"}},
			{"edit max", Query{EditMax: f(0.0106)}, []string{"c2", "c1", "c3"}},
			{"title", Query{Title: "orsel"}, []string{"c4", "c2", "c1", "c3"}},
			{"title trimmed", Query{Title: "  ORSEL "}, []string{"c4", "c2", "c1", "c3"}},
			{"title with underscores", Query{Title: "LAKE_ORSEL"}, []string{"c4", "c2", "c1"}},
			{"Greek title in capitals", Query{Title: "ΑΧΕΛΏΟΣ"}, []string{"c4", "c2"}},
			{"Greek title, final sigma", Query{Title: "αχελώος"}, []string{"c4", "c2"}},
			{"Greek title without accent", Query{Title: "αχελωος"}, []string{"c4", "c2"}},
			{"Greek title in capitals without accent", Query{Title: "ΑΧΕΛΩΟΣ"}, []string{"c4", "c2"}},
			{"Japanese title", Query{Title: "東京"}, []string{"c4", "c2", "c6"}},
			{"markup in a title", Query{Title: "<script>"}, []string{"c4", "c5"}},
			{"slash", Query{Title: "ac/dc"}, []string{"c3"}},
			{"no title matches", Query{Title: "zzz"}, []string{}},
			{"article", Query{Article: art(lakeOrsel)}, []string{"c4", "c2", "c1"}},
			{"article and a title it has not", Query{Article: art(lakeOrsel), Title: "東京"}, []string{}},
			{"article and its title", Query{Article: art(tokyo), Title: "東京"}, []string{"c4", "c2", "c6"}},
			{"kind and title", Query{Kinds: []string{"template"}, Title: "orsel"}, []string{"c4"}},
			{"everything", Query{Kinds: []string{"factual_drift", "other"}, SizeMin: 2, SizeMax: 3, Title: "東京",
				JaccardMin: f(0.8), EditMax: f(0.05), ByID: true}, []string{"c2", "c6"}},
		} {
			t.Run(fmt.Sprintf("%d shards, %s", shards, tc.name), func(t *testing.T) {
				p := r.Filter(tc.q, 0, 100)
				if got := names(r, clusters, p.Clusters); !slices.Equal(got, tc.want) || p.Matches != len(tc.want) {
					t.Errorf("got %q (%d matches), want %q", got, p.Matches, tc.want)
				}
			})
		}
	}
}

func TestFilterPages(t *testing.T) {
	clusters := queryClusters()
	r := load(t, writeRun(t, 1, clusters...), Options{})
	for _, tc := range []struct {
		offset, limit int
		want          []string
	}{
		{0, 2, []string{"c4", "c2"}},
		{2, 2, []string{"c5", "c1"}},
		{4, 2, []string{"c3", "c6"}},
		{5, 10, []string{"c6"}},
		{6, 10, []string{}},
		{100, 10, []string{}},
	} {
		p := r.Filter(Query{}, tc.offset, tc.limit)
		if got := names(r, clusters, p.Clusters); !slices.Equal(got, tc.want) || p.Matches != 6 {
			t.Errorf("offset %d, limit %d: got %q of %d, want %q of 6", tc.offset, tc.limit, got, p.Matches, tc.want)
		}
	}
}

func TestFind(t *testing.T) {
	clusters := queryClusters()
	r := load(t, writeRun(t, 2, clusters...), Options{})
	for _, c := range clusters {
		i, ok := r.Find(c.ID)
		if !ok || r.Entry(i).ID != c.ID {
			t.Errorf("Find(%s) = %d, %v", c.ID, i, ok)
		}
	}
	for _, id := range []string{"", "enwiki:10:100:11", "dewiki:10:100:10", "enwiki:10:0100:10", "nonsense", "enwiki:10:100:10 "} {
		if i, ok := r.Find(id); ok {
			t.Errorf("Find(%q) = %d", id, i)
		}
	}
}
