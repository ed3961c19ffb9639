// Package synthrun writes synthetic run directories, shaped as
// pipelines/sentences writes them (manifest.json, summary.json, and each
// shard's clusters-*.jsonl with its cluster_index-*.tsv), for the
// explorer's benchmarks and tests: a run of a million clusters takes a
// real dump of tens of gigabytes to make, and a generator makes one in
// seconds.
//
// Clusters are drawn from a seeded generator: 2–40 members (most have 2 or
// 3, as in real runs), in 1–10 articles of a skewed pool (some articles
// are in many clusters), of three wikis whose titles are English, Greek
// and Japanese; members' texts are sentences of a few shapes, varied by a
// number or a name. Lines are valid cluster JSON, sorted by their root as
// the pipeline sorts them, and the index rows are the pipeline's own
// (categorize.AppendDigest), so the explorer reads them as a real run.
package synthrun

import (
	"cmp"
	"math/rand/v2"
	"os"
	"slices"
	"strconv"

	"github.com/neardup/neardup/transforms/categorize"
	"github.com/neardup/neardup/transforms/cluster"
	"github.com/neardup/neardup/transforms/sentence"
)

// Config says what run to write.
type Config struct {
	Clusters int    // how many
	Shards   int    // clusters files (0: 1)
	Articles int    // the pool of distinct articles (0: as many as clusters)
	Seed     uint64 // same seed, same files
}

// wikis are the run's wikis, by name (their rank is their index).
var wikis = [...]Wiki{
	{"elwiki", "el", "https://el.wikipedia.org/wiki/Πύλη:Κύρια"},
	{"enwiki", "en", "https://en.wikipedia.org/wiki/Main_Page"},
	{"jawiki", "ja", "https://ja.wikipedia.org/wiki/メインページ"},
}

// article is an article of the pool.
type article struct {
	wiki  int
	page  int64
	rev   int64
	title string
}

// member is a member of a cluster before its text is made: its article
// and its sentence's ordinal there.
type member struct {
	art     int
	ordinal int
}

// skeleton is a cluster before its texts are made.
type skeleton struct {
	members []member // sorted as the pipeline sorts them
	seed    uint64
}

// Write writes the run to dir, which it creates.
func Write(dir string, cfg Config) error {
	if cfg.Shards <= 0 {
		cfg.Shards = 1
	}
	if cfg.Articles <= 0 {
		cfg.Articles = max(cfg.Clusters, 10)
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	r := rand.New(rand.NewPCG(cfg.Seed, 0x5eed))
	arts := pool(r, cfg.Articles)
	skels := skeletons(r, arts, cfg.Clusters)
	w, err := NewWriter(dir, cfg.Shards, wikis[:])
	if err != nil {
		return err
	}
	for _, s := range skels {
		if err := w.Add(makeCluster(arts, s)); err != nil {
			w.Close()
			return err
		}
	}
	return w.Close()
}

// pool makes n articles: one in ten Greek, one in ten Japanese.
func pool(r *rand.Rand, n int) []article {
	arts := make([]article, n)
	for i := range arts {
		w := 1
		switch i % 10 {
		case 3:
			w = 0
		case 7:
			w = 2
		}
		page := int64(100 + i*3)
		arts[i] = article{wiki: w, page: page, rev: 1_000_000 + page*11, title: title(r, wikis[w].Lang)}
	}
	return arts
}

// skeletons draws n clusters, sorted by root (wiki, revision, ordinal of
// their first member), with no sentence in two clusters.
func skeletons(r *rand.Rand, arts []article, n int) []skeleton {
	next := make([]int32, len(arts)) // each article's next free ordinal
	skels := make([]skeleton, n)
	for i := range skels {
		size := min(2+geometric(r, 0.45), 40)
		na := min(1+geometric(r, 0.5), 10, size)
		chosen := make([]int, 0, na)
		for len(chosen) < na {
			u := r.Float64()
			a := int(u * u * u * float64(len(arts))) // skewed: low indexes are in many clusters
			if !slices.Contains(chosen, a) {
				chosen = append(chosen, a)
			}
		}
		ms := make([]member, size)
		for j := range ms {
			a := chosen[j%na]
			if j >= na {
				a = chosen[r.IntN(na)]
			}
			ms[j] = member{art: a, ordinal: int(next[a])}
			next[a]++
		}
		slices.SortFunc(ms, func(x, y member) int { return compareMembers(arts, x, y) })
		skels[i] = skeleton{members: ms, seed: r.Uint64()}
	}
	slices.SortFunc(skels, func(x, y skeleton) int { return compareMembers(arts, x.members[0], y.members[0]) })
	return skels
}

// compareMembers orders members by wiki, page id (so revision), ordinal.
func compareMembers(arts []article, x, y member) int {
	a, b := arts[x.art], arts[y.art]
	return cmp.Or(cmp.Compare(a.wiki, b.wiki), cmp.Compare(a.page, b.page), cmp.Compare(x.ordinal, y.ordinal))
}

// geometric draws the failures before a success of probability p.
func geometric(r *rand.Rand, p float64) int {
	n := 0
	for r.Float64() > p {
		n++
	}
	return n
}

// categories are drawn with about the shares of a real run.
var categories = []struct {
	name  string
	share float64
}{{categorize.Identical, 0.42}, {categorize.Reference, 0.12}, {categorize.Template, 0.18},
	{categorize.CopyEdit, 0.12}, {categorize.FactualDrift, 0.06}, {categorize.Other, 0.10}}

// makeCluster makes a cluster's texts, category and cohesion.
func makeCluster(arts []article, s skeleton) categorize.Cluster {
	r := rand.New(rand.NewPCG(s.seed, 1))
	kind, u := categories[len(categories)-1].name, r.Float64()
	for _, c := range categories {
		if u < c.share {
			kind = c.name
			break
		}
		u -= c.share
	}
	base := text(r)
	c := categorize.Cluster{Size: len(s.members), Category: kind, Members: make([]sentence.View, len(s.members)),
		Evidence: categorize.Evidence{Rule: "synthetic", Reason: "made by the explorer's generator of synthetic runs",
			Diffs: []categorize.PairDiff{}, Identical: [][]int{}}}
	pages := map[int]bool{}
	for j, m := range s.members {
		a := arts[m.art]
		text := base
		if kind != categorize.Identical && j > 0 && r.IntN(3) > 0 {
			text = variant(r, base)
		}
		c.Members[j] = sentence.View{ID: id(a, m.ordinal), Wiki: wikis[a.wiki].Name, PageID: a.page, RevID: a.rev,
			Title: a.title, Sentence: m.ordinal, Section: pick(r, []string{"", "History", "Geography", "Demographics"}),
			Context: "prose", Text: text}
		pages[m.art] = true
	}
	c.ID, c.Pages = c.Members[0].ID, len(pages)
	c.Cohesion = cohesion(r, kind, c.Size)
	return c
}

func id(a article, ordinal int) string {
	return wikis[a.wiki].Name + ":" + strconv.FormatInt(a.page, 10) + ":" + strconv.FormatInt(a.rev, 10) + ":" + strconv.Itoa(ordinal)
}

// cohesion draws plausible similarities of a cluster's edges.
func cohesion(r *rand.Rand, kind string, size int) cluster.Cohesion {
	if kind == categorize.Identical {
		return cluster.Cohesion{Edges: size - 1, MinJaccard: 1, MeanJaccard: 1}
	}
	round := func(x float64) float64 { return float64(int(x*1e4+0.5)) / 1e4 }
	minJ := round(0.5 + 0.5*r.Float64())
	maxE := round(0.25 * r.Float64())
	return cluster.Cohesion{Edges: size - 1, MinJaccard: minJ, MeanJaccard: round(minJ + (1-minJ)*r.Float64()),
		MaxEdit: maxE, MeanEdit: round(maxE * r.Float64())}
}
