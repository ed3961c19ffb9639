// Package synth writes synthetic run directories, shaped as
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
package synth

import (
	"bufio"
	"cmp"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"time"

	"github.com/neardup/neardup/internal/tally"
	"github.com/neardup/neardup/io/result"
	"github.com/neardup/neardup/transforms/categorize"
	"github.com/neardup/neardup/transforms/cluster"
	"github.com/neardup/neardup/transforms/sentence"
	"github.com/neardup/neardup/transforms/summary"
)

// Config says what run to write.
type Config struct {
	Clusters int    // how many
	Shards   int    // clusters files (0: 1)
	Articles int    // the pool of distinct articles (0: as many as clusters)
	Seed     uint64 // same seed, same files
}

// wiki is a synthetic wiki.
type wiki struct{ name, lang, base string }

// wikis are the run's wikis, by name (their rank is their index).
var wikis = [...]wiki{
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
	counts, err := writeShards(dir, cfg.Shards, arts, skels)
	if err != nil {
		return err
	}
	return writeMeta(dir, cfg.Shards, counts)
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
		arts[i] = article{wiki: w, page: page, rev: 1_000_000 + page*11, title: title(r, wikis[w].lang)}
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

// writeShards writes the clusters files and their indexes, and returns
// the counts for the summary.
func writeShards(dir string, shards int, arts []article, skels []skeleton) (tally.Counts, error) {
	files := make([]*shardWriter, shards)
	for i := range files {
		w, err := newShardWriter(dir, i, shards)
		if err != nil {
			return tally.Counts{}, err
		}
		files[i] = w
	}
	var counts tally.Counts
	for i, s := range skels {
		c := makeCluster(arts, s)
		counts.Clusters++
		counts.SentencesInClusters += int64(c.Size)
		counts.LargestCluster = max(counts.LargestCluster, int64(c.Size))
		counts.AddCategory(c.Category, 1, int64(c.Size))
		if err := files[i%shards].add(c); err != nil {
			return counts, err
		}
	}
	for _, f := range files {
		if err := f.close(); err != nil {
			return counts, err
		}
	}
	return counts, nil
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
		c.Members[j] = sentence.View{ID: id(a, m.ordinal), Wiki: wikis[a.wiki].name, PageID: a.page, RevID: a.rev,
			Title: a.title, Sentence: m.ordinal, Section: pick(r, []string{"", "History", "Geography", "Demographics"}),
			Context: "prose", Text: text}
		pages[m.art] = true
	}
	c.ID, c.Pages = c.Members[0].ID, len(pages)
	c.Cohesion = cohesion(r, kind, c.Size)
	return c
}

func id(a article, ordinal int) string {
	return wikis[a.wiki].name + ":" + strconv.FormatInt(a.page, 10) + ":" + strconv.FormatInt(a.rev, 10) + ":" + strconv.Itoa(ordinal)
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

// shardWriter writes a clusters file and its index.
type shardWriter struct {
	lines, index *os.File
	lw, iw       *bufio.Writer
	offset       int64
	row          []byte
}

func newShardWriter(dir string, i, n int) (*shardWriter, error) {
	lines, err := os.Create(filepath.Join(dir, result.ShardName("clusters", i, n)))
	if err != nil {
		return nil, err
	}
	index, err := os.Create(filepath.Join(dir, result.IndexName("cluster_index", i, n)))
	if err != nil {
		lines.Close()
		return nil, err
	}
	return &shardWriter{lines: lines, index: index, lw: bufio.NewWriterSize(lines, 1<<20), iw: bufio.NewWriterSize(index, 1<<20)}, nil
}

// add writes a cluster's line and its index row.
func (w *shardWriter) add(c categorize.Cluster) error {
	line, err := c.MarshalLine()
	if err != nil {
		return err
	}
	w.row = strconv.AppendInt(w.row[:0], w.offset, 10)
	w.row = append(w.row, '\t')
	w.row = strconv.AppendInt(w.row, int64(len(line)), 10)
	w.row = append(w.row, '\t')
	w.row = append(categorize.AppendDigest(w.row, c.Digest()), '\n')
	w.offset += int64(len(line)) + 1
	w.lw.Write(line)
	w.lw.WriteByte('\n')
	_, err = w.iw.Write(w.row)
	return err
}

func (w *shardWriter) close() error {
	for _, f := range []struct {
		w *bufio.Writer
		f *os.File
	}{{w.lw, w.lines}, {w.iw, w.index}} {
		err := f.w.Flush()
		if cerr := f.f.Close(); err == nil {
			err = cerr
		}
		if err != nil {
			return fmt.Errorf("synth: writing %s: %w", f.f.Name(), err)
		}
	}
	return nil
}

// writeMeta writes summary.json, an empty dead-letter file and, last,
// manifest.json.
func writeMeta(dir string, shards int, counts tally.Counts) error {
	type wikiJSON struct {
		Wiki string `json:"wiki"`
		Lang string `json:"lang"`
		Base string `json:"base"`
	}
	var ws []wikiJSON
	for _, w := range wikis {
		ws = append(ws, wikiJSON{w.name, w.lang, w.base})
	}
	wj, _ := json.Marshal(ws)
	doc := summary.Document{Version: "synthetic", Parameters: json.RawMessage(`{"output_shards":` + strconv.Itoa(shards) + `}`),
		CollisionCurve: json.RawMessage(`{}`), Wikis: wj, Counts: counts, TopArticlePairs: []summary.PairCount{}}
	var outputs []string
	for i := range shards {
		outputs = append(outputs, result.ShardName("clusters", i, shards), result.IndexName("cluster_index", i, shards))
	}
	outputs = append(outputs, result.ShardName("dead_letter", 0, 1), "summary.json", "manifest.json")
	when := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	m := summary.Manifest{RunID: filepath.Base(dir), Version: "synthetic", Parameters: doc.Parameters, Outputs: outputs,
		Inputs: []summary.Input{}, Started: when, Finished: when, Counts: counts}
	for _, f := range []struct {
		name string
		v    any
	}{{result.ShardName("dead_letter", 0, 1), nil}, {"summary.json", doc}, {"manifest.json", m}} {
		var b []byte
		if f.v != nil {
			var err error
			if b, err = json.MarshalIndent(f.v, "", "  "); err != nil {
				return err
			}
			b = append(b, '\n')
		}
		if err := os.WriteFile(filepath.Join(dir, f.name), b, 0o644); err != nil {
			return err
		}
	}
	return nil
}
