package distinct

import (
	"bytes"
	"context"
	"errors"
	"io"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"unicode/utf8"

	"github.com/dsnet/compress/bzip2"
	"github.com/neardup/neardup/io/dump"
	"github.com/neardup/neardup/io/multistream"
	"github.com/neardup/neardup/testkit/corpus"
	"github.com/neardup/neardup/testkit/testshared"
	"github.com/neardup/neardup/transforms/sentence"
)

// The distinct corpus's tests train on Katrina.xml (the committed slice of
// it where ../shared is missing), which takes a fraction of a second, once.
var (
	testModelOnce sync.Once
	testModel     *Model
	testModelErr  error
)

func model(t *testing.T) *Model {
	t.Helper()
	path := testshared.Katrina(t)
	testModelOnce.Do(func() { testModel, testModelErr = Train(context.Background(), []string{path}) })
	if testModelErr != nil {
		t.Fatal(testModelErr)
	}
	return testModel
}

// generate returns a distinct corpus as plain XML, and the generator's
// counts.
func generate(t *testing.T, cfg Config) ([]byte, Stats) {
	t.Helper()
	var buf bytes.Buffer
	st, err := Write(&buf, model(t), cfg, nil)
	if err != nil {
		t.Fatal(err)
	}
	if int64(buf.Len()) != st.Bytes {
		t.Errorf("%d bytes written, %d counted", buf.Len(), st.Bytes)
	}
	return buf.Bytes(), st
}

func TestDistinctIsDeterministic(t *testing.T) {
	base := Config{Pages: 120, Seed: 1, Share: 0.05}
	want, _ := generate(t, base)
	tests := []struct {
		name  string
		cfg   Config
		procs int // GOMAXPROCS for the run, 0 as it is
		same  bool
	}{
		{"same flags", base, 0, true},
		{"one core", base, 1, true},
		{"other seed", Config{Pages: 120, Seed: 2, Share: 0.05}, 0, false},
		{"other share", Config{Pages: 120, Seed: 1, Share: 0.10}, 0, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if tt.procs > 0 {
				defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(tt.procs))
			}
			got, _ := generate(t, tt.cfg)
			if bytes.Equal(got, want) != tt.same {
				t.Errorf("corpus equal to the first: %v, want %v", !tt.same, tt.same)
			}
		})
	}
	// A smaller corpus starts like a larger one: the pages are written in
	// order, and only the clusters' copies depend on the size.
	small, _ := generate(t, Config{Pages: 10, Seed: 1, Share: 0})
	large, _ := generate(t, Config{Pages: 20, Seed: 1, Share: 0})
	_, pages, _ := multistream.Split(small)
	if n := len(small) - len(corpus.Footer); !bytes.Equal(small[:n], large[:n]) || len(pages) != 10 {
		t.Errorf("10 pages are not the start of 20 pages (%d pages)", len(pages))
	}
}

// TestDistinctStructure reads a corpus with the repository's own dump
// reader and splitter, and its multistream copy with its index.
func TestDistinctStructure(t *testing.T) {
	const pages = 150
	dir := t.TempDir()
	ms, err := corpus.NewMultistreamWriter(filepath.Join(dir, "d.xml.bz2"), filepath.Join(dir, "d-index.txt.bz2"), model(t).Header(), 7)
	if err != nil {
		t.Fatal(err)
	}
	var plain bytes.Buffer
	st, err := Write(&plain, model(t), Config{Pages: pages, Seed: 3, Share: 0.05}, ms.Add)
	if err != nil {
		t.Fatal(err)
	}
	bz2Size, err := ms.Close([]byte(corpus.Footer))
	if err != nil {
		t.Fatal(err)
	}

	r := dump.NewReader(bytes.NewReader(plain.Bytes()), "d.xml", dump.Options{FileStart: true})
	var splitter sentence.PageSplitter
	var ids []int64
	byNS := map[int]int{}
	redirects, signed, sentences := 0, 0, 0
	markup := map[string]int{}
	for {
		p, err := r.Next()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			t.Fatalf("page %d: %v", len(ids)+1, err)
		}
		ids = append(ids, p.ID)
		if p.RevID != p.ID {
			t.Errorf("page %d: revision %d", p.ID, p.RevID)
		}
		byNS[p.NS]++
		if p.Redirect != "" {
			redirects++
			continue
		}
		if p.NS != 0 {
			continue
		}
		for _, m := range []string{"\n==", "[[", "<ref", "{{", "'''", "\n*"} {
			if strings.Contains(p.Text, m) {
				markup[m]++
			}
		}
		sp, err := splitter.Split(p)
		if err != nil {
			t.Fatal(err)
		}
		if len(sp.Sentences) == 0 {
			t.Errorf("page %d %q: no sentence", p.ID, p.Title)
		}
		for _, s := range sp.Sentences {
			sentences++
			if inWindow(utf8.RuneCountInString(s.Text)) {
				signed++
			}
		}
	}
	if len(ids) != pages || !slices.IsSorted(ids) || ids[0] != 1 || ids[pages-1] != pages {
		t.Errorf("page ids %v…, want 1…%d", ids[:min(len(ids), 5)], pages)
	}
	articles := byNS[0] - redirects
	if articles != st.Articles || redirects != st.Redirects || pages-byNS[0] != st.Other {
		t.Errorf("%d articles, %d redirects, %d other pages; the generator counted %d, %d, %d",
			articles, redirects, pages-byNS[0], st.Articles, st.Redirects, st.Other)
	}
	if redirects < pages/20 || redirects > pages/5 || byNS[0] == pages {
		t.Errorf("%d redirects and %v pages by namespace of %d", redirects, byNS, pages)
	}
	for _, m := range []string{"\n==", "[[", "<ref", "{{", "'''"} {
		if markup[m] < articles/2 {
			t.Errorf("%q in %d of %d articles", m, markup[m], articles)
		}
	}
	// The generator counts sentences as the pipeline's splitter does, near
	// enough (it cannot see where the splitter joins or cuts them).
	// Real English pages have 63-69% of their sentences in the window
	// since citations are whole sentences (issue 29; 51-58% before).
	if share := float64(signed) / float64(sentences); share < 0.3 || share > 0.75 {
		t.Errorf("%d of %d sentences in the window", signed, sentences)
	}
	if d := math.Abs(float64(signed-st.InWindow)) / float64(signed); d > 0.03 {
		t.Errorf("%d in-window sentences, the generator counted %d", signed, st.InWindow)
	}

	// The multistream file holds the same bytes, and its index finds
	// every page in its stream.
	f, err := os.Open(filepath.Join(dir, "d.xml.bz2"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	zr, err := bzip2.NewReader(f, nil)
	if err != nil {
		t.Fatal(err)
	}
	whole, err := io.ReadAll(zr)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(whole, plain.Bytes()) {
		t.Fatalf("the multistream file decompresses to %d bytes, not the %d of the XML", len(whole), plain.Len())
	}
	idx, err := os.Open(filepath.Join(dir, "d-index.txt.bz2"))
	if err != nil {
		t.Fatal(err)
	}
	defer idx.Close()
	streams, err := multistream.ParseIndex(idx)
	if err != nil {
		t.Fatal(err)
	}
	if len(streams) != (pages+6)/7 {
		t.Errorf("%d streams of 7 pages for %d pages", len(streams), pages)
	}
	var next int64 = 1
	for _, rg := range multistream.Ranges(streams, bz2Size) {
		if rg.Pages == 0 {
			continue
		}
		rr := multistream.ReadRange(f, rg, "d.xml.bz2", dump.Options{})
		for {
			p, err := rr.Next()
			if err != nil {
				break
			}
			if p.ID != next {
				t.Fatalf("range at %d: page %d, want %d", rg.Start, p.ID, next)
			}
			next++
		}
	}
	if next != pages+1 {
		t.Errorf("the index's ranges hold %d pages, want %d", next-1, pages)
	}
}

// TestDistinctShare finds the near-duplicate sentences of small corpora as
// the pipeline would (its splitter, 12-character shingles, MinHash bands,
// Jaccard ≥ 0.5 verification) and checks that the share of in-window
// sentences in clusters is the one configured, above chance clusters of
// the chain's own sentences.
func TestDistinctShare(t *testing.T) {
	tests := []struct {
		share    float64
		min, max float64
	}{
		{0, 0, 0.01},
		{0.045, 0.035, 0.06},
		{0.12, 0.10, 0.14},
	}
	for _, tt := range tests {
		cfg := Config{Pages: 250, Seed: 5, Share: tt.share, MaxCluster: 30}
		xml, st := generate(t, cfg)
		texts := inWindowSentences(t, xml)
		clustered := clusteredSentences(texts)
		got := float64(clustered) / float64(len(texts))
		planned := float64(st.Members) / float64(st.InWindow)
		t.Logf("share %.3f: %d of %d in-window sentences in clusters (%.4f); the generator planned %.4f in %v clusters",
			tt.share, clustered, len(texts), got, planned, st.Clusters)
		if got < tt.min || got > tt.max {
			t.Errorf("share %v: %.4f of the in-window sentences in clusters, want %v–%v", tt.share, got, tt.min, tt.max)
		}
		if math.Abs(planned-tt.share) > 0.005 {
			t.Errorf("share %v: the generator planned %.4f", tt.share, planned)
		}
	}
}

// inWindowSentences returns the in-window sentences of the articles of a
// dump, lower-cased with white space collapsed, as the pipeline signs them.
func inWindowSentences(t *testing.T, xml []byte) []string {
	t.Helper()
	r := dump.NewReader(bytes.NewReader(xml), "d.xml", dump.Options{})
	var splitter sentence.PageSplitter
	var out []string
	for {
		p, err := r.Next()
		if errors.Is(err, io.EOF) {
			return out
		}
		if err != nil {
			t.Fatal(err)
		}
		if p.NS != 0 || p.Redirect != "" {
			continue
		}
		sp, err := splitter.Split(p)
		if err != nil {
			t.Fatal(err)
		}
		for _, s := range sp.Sentences {
			norm := strings.ToLower(strings.Join(strings.Fields(s.Text), " "))
			if inWindow(utf8.RuneCountInString(norm)) {
				out = append(out, norm)
			}
		}
	}
}

// clusteredSentences returns how many of texts have a near duplicate
// among the others, linked as the pipeline links them: candidates from 10
// MinHash bands of 4 rows over 12-character shingles, verified at Jaccard
// ≥ 0.5, and joined into clusters.
func clusteredSentences(texts []string) int {
	const bands, rows = 10, 4
	seeds := make([]uint64, bands*rows)
	rng := rand.New(rand.NewPCG(1, 2))
	for i := range seeds {
		seeds[i] = rng.Uint64() | 1
	}
	sets := make([][]uint64, len(texts))
	buckets := map[[2]uint64][]int{}
	mins := make([]uint64, len(seeds))
	for i, s := range texts {
		r := []rune(s)
		set := make([]uint64, 0, len(r))
		for k := 0; k+12 <= len(r); k++ {
			var h uint64 = 14695981039346656037
			for _, c := range r[k : k+12] {
				h = (h ^ uint64(c)) * 1099511628211
			}
			set = append(set, h)
		}
		slices.Sort(set)
		sets[i] = slices.Compact(set)
		for k := range mins {
			mins[k] = math.MaxUint64
		}
		for _, h := range sets[i] {
			for k, seed := range seeds {
				x := (h ^ seed) * 0x9e3779b97f4a7c15
				mins[k] = min(mins[k], x^x>>31)
			}
		}
		for b := range bands {
			var key uint64
			for _, m := range mins[b*rows : (b+1)*rows] {
				key = key*0x100000001b3 + m
			}
			k := [2]uint64{uint64(b), key}
			buckets[k] = append(buckets[k], i)
		}
	}
	parent := make([]int, len(texts))
	for i := range parent {
		parent[i] = i
	}
	find := func(i int) int {
		for parent[i] != i {
			parent[i] = parent[parent[i]]
			i = parent[i]
		}
		return i
	}
	linked := make([]bool, len(texts))
	for _, members := range buckets {
		for _, j := range members[1:] {
			i := members[0]
			if find(i) != find(j) && jaccard(sets[i], sets[j]) >= 0.5 {
				parent[find(i)] = find(j)
				linked[i], linked[j] = true, true
			}
		}
	}
	n := 0
	for _, l := range linked {
		if l {
			n++
		}
	}
	return n
}

// jaccard returns the Jaccard similarity of two sorted sets.
func jaccard(a, b []uint64) float64 {
	i, j, common := 0, 0, 0
	for i < len(a) && j < len(b) {
		switch {
		case a[i] == b[j]:
			common++
			i++
			j++
		case a[i] < b[j]:
			i++
		default:
			j++
		}
	}
	return float64(common) / float64(len(a)+len(b)-common)
}

// TestChainNeverCopiesRuns checks the chain's promise: no run of ngram
// words of a generated sentence (the start counting as one) is one of the
// training text's.
func TestChainNeverCopiesRuns(t *testing.T) {
	c := model(t).chain
	key := func(ws []string) string { return strings.Join(ws, "\x00") }
	training := map[string]bool{}
	for _, start := range c.starts {
		var ws []string
		for p := start; c.text[p] != eos; p++ {
			ws = append(ws, c.words[c.text[p]])
			if len(ws) >= ngram {
				training[key(ws[len(ws)-ngram:])] = true
			}
		}
	}
	rng := rand.New(rand.NewPCG(9, 9))
	copied, words := 0, 0
	for range 3000 {
		// Substitution hides runs; the test looks at the chain's own path.
		ws := append([]string{c.words[bos]}, c.appendSentence(nil, rng)...)
		words += len(ws) - 1
		for k := ngram; k <= len(ws); k++ {
			if training[key(ws[k-ngram:k])] {
				copied++
			}
		}
	}
	// Substituted words can only make a run differ from the training
	// text's, and a substitution can, rarely, rebuild a training run.
	if copied > words/1000 {
		t.Errorf("%d runs of %d words copied from the training text in %d words", copied, ngram, words)
	}
}

func TestSizeDist(t *testing.T) {
	tests := []struct {
		max                  int
		meanMin, meanMax     float64
		small, largeMembers  float64 // share of clusters ≤ 10, of members in larger ones
		smallTol, membersTol float64
	}{
		{40000, 3.5, 3.7, 0.99, 0.24, 0.003, 0.03},
		{10, 2.7, 2.9, 1, 0, 0, 0},
	}
	for _, tt := range tests {
		d := newSizeDist(tt.max)
		if d.mean < tt.meanMin || d.mean > tt.meanMax {
			t.Errorf("max %d: mean %.3f", tt.max, d.mean)
		}
		rng := rand.New(rand.NewPCG(1, 1))
		small, members, large := 0, 0, 0
		const n = 200000
		for range n {
			s := d.draw(rng)
			if s < 2 || s > max(tt.max, smallMax+1) {
				t.Fatalf("max %d: size %d", tt.max, s)
			}
			members += s
			if s <= smallMax {
				small++
			} else {
				large += s
			}
		}
		if tt.max <= smallMax {
			continue
		}
		if got := float64(small) / n; math.Abs(got-tt.small) > tt.smallTol {
			t.Errorf("max %d: %.4f of the clusters of at most 10", tt.max, got)
		}
		// The tail is heavy: a sample's share of large members is noisy.
		if got := float64(large) / float64(members); math.Abs(got-tt.largeMembers) > 0.1 {
			t.Errorf("max %d: %.3f of the members in clusters over 10", tt.max, got)
		}
	}
}

func TestChangeNumber(t *testing.T) {
	tests := []struct {
		words []string
		check func(old, new string) bool
	}{
		{[]string{"Built", "in", "1905."}, func(o, n string) bool {
			y, err := strconv.Atoi(n[:4])
			return err == nil && len(n) == 5 && n[4] == '.' && y != 1905 && y >= 1905-9 && y <= 1905+9
		}},
		{[]string{"It", "has", "4,312", "rooms"}, func(o, n string) bool {
			return len(n) == len(o) && n[1:] == ",312" && n != o && n[0] != '0'
		}},
		{[]string{"About", "40.4%", "of", "it"}, func(o, n string) bool { return len(n) == 5 && n[2:] == ".4%" && n != o }},
	}
	for _, tt := range tests {
		for seed := range uint64(30) {
			got := changeNumber(tt.words, rand.New(rand.NewPCG(seed, 0)))
			changed := 0
			for k := range got {
				if got[k] != tt.words[k] {
					changed++
					if !tt.check(tt.words[k], got[k]) {
						t.Errorf("%q → %q", tt.words[k], got[k])
					}
				}
			}
			if changed != 1 {
				t.Errorf("%v → %v: %d words changed", tt.words, got, changed)
			}
		}
	}
}

func TestCopyEdit(t *testing.T) {
	words := strings.Fields("The old mill on the Avon River, which burned in 1911, was rebuilt by the town council and opened again as a museum")
	for seed := range uint64(50) {
		got := copyEdit(words, rand.New(rand.NewPCG(seed, 0)))
		if slices.Equal(got, words) {
			t.Errorf("seed %d: no edit", seed)
		}
		if d := len(got) - len(words); d < -1 || d > 1 {
			t.Errorf("seed %d: %d words → %d", seed, len(words), len(got))
		}
		for _, keep := range []string{"Avon", "River,", "1911,", "The"} {
			if !slices.Contains(got, keep) {
				t.Errorf("seed %d: %q lost: %v", seed, keep, got)
			}
		}
	}
}

func TestSetPage(t *testing.T) {
	in := "Smith, Ann (1990), ''A title'', London: Avon Press, p. 12, ISBN 978-1-2345-6789-0"
	got := setPage(in, rand.New(rand.NewPCG(1, 1)))
	if !strings.HasPrefix(got, "Smith, Ann (1990), ''A title'', London: Avon Press, p. ") || !strings.HasSuffix(got, ", ISBN 978-1-2345-6789-0") {
		t.Errorf("setPage = %q", got)
	}
}

func TestLogicalLines(t *testing.T) {
	tests := []struct {
		name, text string
		want       []string
	}{
		{"lines", "a\nb", []string{"a", "b"}},
		{"template over lines", "{{Infobox\n| a = b\n}}\nText.", []string{"{{Infobox\n| a = b\n}}", "Text."}},
		{"table", "{|\n|-\n| x\n|}\nText.", []string{"{|\n|-\n| x\n|}", "Text."}},
		{"ref over lines", "A<ref>{{cite\n| x}}\n</ref> b.\nC.", []string{"A<ref>{{cite\n| x}}\n</ref> b.", "C."}},
		{"named empty ref", "A<ref name=x/>\nB", []string{"A<ref name=x/>", "B"}},
		{"comment", "A<!-- x\ny -->\nB", []string{"A<!-- x\ny -->", "B"}},
		{"gallery", "<gallery>\nF.jpg|x\n</gallery>\nB", []string{"<gallery>\nF.jpg|x\n</gallery>", "B"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := logicalLines(tt.text); !slices.Equal(got, tt.want) {
				t.Errorf("logicalLines = %q, want %q", got, tt.want)
			}
		})
	}
}

func TestParseSkeleton(t *testing.T) {
	text := "{{Infobox|name=X}}\n'''X''' is a town. It has a mill.\n\n== History ==\nIt was founded in 1800.<ref>A book.</ref>\n" +
		"* A list item that is a full sentence here.\n* [[Link]]\n\n== References ==\n{{Reflist}}\n* Smith, J. (1990). A book.\n[[Category:Towns]]"
	sk, sentences := parseSkeleton(text, sentence.RulesFor("en"), nil)
	var kinds []blockKind
	for _, b := range sk.blocks {
		kinds = append(kinds, b.kind)
	}
	want := []blockKind{markupBlock, proseBlock, headingBlock, proseBlock, listBlock, listBlock, headingBlock, markupBlock, listBlock, markupBlock}
	if !slices.Equal(kinds, want) {
		t.Fatalf("blocks %v, want %v", kinds, want)
	}
	var blanks []int
	for i, b := range sk.blocks {
		if b.blank {
			blanks = append(blanks, i)
		}
	}
	if !slices.Equal(blanks, []int{2, 6}) {
		t.Errorf("blank lines before blocks %v, want 2 and 6", blanks)
	}
	if sk.sections != 1 || sk.blocks[1].n != 2 || sk.blocks[4].n != 1 || sk.blocks[5].n != 0 || !sk.blocks[8].ref || sk.blocks[9].section != 2 {
		t.Errorf("skeleton %+v", sk)
	}
	if !slices.Equal(sentences, []string{"X is a town.", "It has a mill.", "It was founded in 1800."}) {
		t.Errorf("training sentences %q", sentences)
	}
}
