package distinct

import (
	"bytes"
	"container/heap"
	"context"
	"errors"
	"fmt"
	"io"
	"math"
	"math/rand/v2"
	"strconv"
	"strings"

	"github.com/neardup/neardup/io/dump"
	"github.com/neardup/neardup/testkit/corpus"
	"github.com/neardup/neardup/transforms/sentence"
)

// Model is what the generator learns from the real pages.
type Model struct {
	header    []byte
	chain     *chain
	skeletons []skeleton
	sentences int // training sentences (distinct)
}

// Header is the XML header of the first dump trained on: the corpus's.
func (m *Model) Header() []byte { return m.header }

// Size is what the model learnt: its distinct training sentences, their
// words and the article layouts.
func (m *Model) Size() (sentences, words, layouts int) {
	return m.sentences, len(m.chain.text) - 2*m.sentences, len(m.skeletons)
}

// Train reads the real pages of the dumps: the header of the first, and
// of every article (namespace 0, not a redirect) its layout and its prose
// sentences, which train the chain.
func Train(ctx context.Context, paths []string) (*Model, error) {
	header, pages, err := corpus.ReadPages(ctx, paths)
	if err != nil {
		return nil, err
	}
	return newModel(header, pages)
}

func newModel(header []byte, pages [][]byte) (*Model, error) {
	m := &Model{header: header}
	rules := sentence.RulesFor("en")
	var sentences []string
	for _, raw := range pages {
		p, err := dump.NewReader(bytes.NewReader(raw), "train", dump.Options{}).Next()
		if err != nil {
			return nil, fmt.Errorf("training page: %w", err)
		}
		if p.NS != 0 || p.Redirect != "" {
			continue
		}
		var sk skeleton
		sk, sentences = parseSkeleton(p.Text, rules, sentences)
		for i, b := range sk.blocks {
			if b.kind == markupBlock || b.kind == headingBlock {
				sk.blocks[i].raw = string(corpus.AppendEscaped(nil, b.raw)) // written as it is
			}
		}
		for _, b := range sk.blocks {
			if b.kind == proseBlock {
				m.skeletons = append(m.skeletons, sk)
				break
			}
		}
	}
	sentences = dedupe(sentences)
	if len(m.skeletons) == 0 || len(sentences) < 100 {
		return nil, fmt.Errorf("%d articles with prose and %d sentences: too little to learn from", len(m.skeletons), len(sentences))
	}
	m.sentences = len(sentences)
	m.chain = newChain(sentences)
	kept := m.chain.names[:0]
	for _, n := range m.chain.names {
		if !notNames[n] {
			kept = append(kept, n)
		}
	}
	m.chain.names = kept
	return m, nil
}

// Config says what corpus to generate.
type Config struct {
	Pages int
	Seed  uint64
	// Share is the share of the in-window sentences (as the generator
	// counts them) to put in near-duplicate clusters.
	Share float64
	// MaxCluster bounds a cluster's size; 0 means min(40000, max(20,
	// Pages/2)).
	MaxCluster int
}

// The shares of the pages that are not articles.
const (
	redirectShare = 0.10
	categoryShare = 0.015
	templateShare = 0.010
	projectShare  = 0.005
)

// Clusters by kind. The kinds of the small clusters (2–10 members) are in
// the proportions of Ayhan et al.'s Table 1 (identical 455, copy edit 214,
// factual drift 65, template 52, reference 23 of 824 clusters; its "other"
// and "not similar" are left to chance); the large ones are identical
// boilerplate, templates (the largest clusters of both papers) or shared
// citations.
type clusterKind uint8

const (
	identicalKind clusterKind = iota
	copyEditKind
	driftKind
	templateKind
	referenceKind
	nKinds
)

var KindNames = [nKinds]string{"identical", "copy_edit", "factual_drift", "template", "reference"}

var (
	smallKindWeights = birthWeights([nKinds]float64{455, 214, 65, 52, 23})
	largeKindWeights = birthWeights([nKinds]float64{40, 0, 0, 50, 10})
)

// birthWeights turns the proportions of clusters by kind into those of
// births: a birth of identical or copy-edited sentences makes a passage of
// meanPassage clusters on average, of the other kinds one.
func birthWeights(clusters [nKinds]float64) [nKinds]float64 {
	w := clusters
	w[identicalKind] /= meanPassage
	w[copyEditKind] /= meanPassage
	return w
}

// Cluster sizes: s = 2…10 with probability 0.99, P(s) ∝ s^-3, and
// s = 11…MaxCluster with probability 0.01, P(s) ∝ s^-2: mean 3.6 for
// MaxCluster 40000, 99% of clusters of at most 10 members and 24% of the
// members in larger ones, as Weissman et al. report (mean 3.0, about 99%
// and about a quarter, sizes 2 to over 40,000).
const (
	smallMax      = 10
	largeShare    = 0.01
	smallExponent = 3
	largeExponent = 2
)

// sizeDist draws cluster sizes.
type sizeDist struct {
	cdf  []float64 // cdf[i] = P(size ≤ i+2)
	mean float64
	// meanSmall and meanLarge are the mean sizes of each part.
	meanSmall, meanLarge float64
}

func newSizeDist(maxSize int) sizeDist {
	maxSize = max(maxSize, smallMax+1)
	pmf := make([]float64, maxSize-1)
	var z1, z2 float64
	for s := 2; s <= maxSize; s++ {
		if s <= smallMax {
			z1 += math.Pow(float64(s), -smallExponent)
		} else {
			z2 += math.Pow(float64(s), -largeExponent)
		}
	}
	var d sizeDist
	for s := 2; s <= maxSize; s++ {
		if s <= smallMax {
			pmf[s-2] = (1 - largeShare) * math.Pow(float64(s), -smallExponent) / z1
			d.meanSmall += float64(s) * pmf[s-2] / (1 - largeShare)
		} else {
			pmf[s-2] = largeShare * math.Pow(float64(s), -largeExponent) / z2
			d.meanLarge += float64(s) * pmf[s-2] / largeShare
		}
	}
	d.cdf = make([]float64, len(pmf))
	var sum float64
	for i, p := range pmf {
		sum += p
		d.cdf[i] = sum
		d.mean += float64(i+2) * p
	}
	return d
}

func (d sizeDist) draw(rng *rand.Rand) int {
	u := rng.Float64() * d.cdf[len(d.cdf)-1]
	lo, hi := 0, len(d.cdf)-1
	for lo < hi {
		mid := (lo + hi) / 2
		if d.cdf[mid] < u {
			lo = mid + 1
		} else {
			hi = mid
		}
	}
	return lo + 2
}

// Copies of identical and copy-edited sentences come in runs: a passage
// of 2–4 consecutive sentences with probability passageShare, else one
// sentence.
const (
	passageShare = 0.25
	meanPassage  = 1 + passageShare*2 // 1 sentence, or 2, 3 or 4 alike
	// minWindow is the smallest span of pages over which a cluster's
	// copies are spread; a cluster of s members spreads over 2s pages if
	// that is more.
	minWindow = 1000
	// refRate is the share of sentences followed by a reference, and
	// plainRefShare the share of those written as text rather than as a
	// {{cite}} template.
	refRate       = 0.15
	plainRefShare = 0.3
)

// group is a cluster, or a passage of clusters of one kind that are
// copied together: its members are the same in every copy but for the
// edits its kind makes.
type group struct {
	kind  clusterKind
	size  int
	bases [][]string // the sentences, as words
	// variants are a drift cluster's versions of its base, each with one
	// number changed; members after the first take them in turn.
	variants [][]string
	// subject is the number of leading words of a template's base that
	// each member replaces with a name of its own.
	subject int
	// citation is a reference cluster's text, and varyPage whether its
	// members cite different pages.
	citation string
	varyPage bool
}

// copyEntry is a member of a group waiting for its page.
type copyEntry struct {
	page   int
	seq    int64 // ties broken by creation order, for determinism
	g      *group
	member int
}

type copyHeap []copyEntry

func (h copyHeap) Len() int { return len(h) }
func (h copyHeap) Less(i, j int) bool {
	return h[i].page < h[j].page || h[i].page == h[j].page && h[i].seq < h[j].seq
}
func (h copyHeap) Swap(i, j int) { h[i], h[j] = h[j], h[i] }
func (h *copyHeap) Push(x any)   { *h = append(*h, x.(copyEntry)) }
func (h *copyHeap) Pop() any {
	old := *h
	x := old[len(old)-1]
	*h = old[:len(old)-1]
	return x
}

// Stats is what the generator wrote, as it counts it.
type Stats struct {
	Pages, Articles, Redirects, Other int
	Sentences                         int // sentences of prose, lists and plain references
	InWindow                          int // of them with 75 < characters − 11 < 600
	Members                           int // in-window sentences that are members of an injected cluster
	Clusters                          [nKinds]int
	Largest                           int
	Bytes                             int64
}

// generator writes the pages of a distinct corpus one by one.
type generator struct {
	m      *Model
	cfg    Config
	rng    *rand.Rand
	src    *source
	sizes  sizeDist
	pBirth float64
	// scheduled counts the members of the clusters born so far, those
	// still to be written included, and unclustered the in-window
	// sentences written that are no members: births keep
	// scheduled / (scheduled + unclustered) at the target share.
	scheduled, unclustered int
	pending                copyHeap
	seq                    int64
	page                   int
	stats                  Stats

	due      []copyEntry // this page's copies of sentences
	dueRefs  []copyEntry // this page's copies of citations
	words    []string    // scratch
	sentence []string    // scratch
	text     []byte      // the page's wikitext, escaped
	named    int         // named references of the page
}

func newGenerator(m *Model, cfg Config) *generator {
	if cfg.MaxCluster <= 0 {
		cfg.MaxCluster = min(40000, max(20, cfg.Pages/2))
	}
	g := &generator{m: m, cfg: cfg, rng: corpus.NewRand(cfg.Seed, "distinct"), sizes: newSizeDist(cfg.MaxCluster),
		src: newSource(m.chain, cfg.Seed)}
	// Members per birth: the mean size times the mean sentences of a group
	// of each part's kinds (weights by birth).
	perGroup := func(w [nKinds]float64) float64 {
		var sum, total float64
		for k, x := range w {
			n := 1.0
			if clusterKind(k) == identicalKind || clusterKind(k) == copyEditKind {
				n = meanPassage
			}
			sum += x * n
			total += x
		}
		return sum / total
	}
	e := (1-largeShare)*g.sizes.meanSmall*perGroup(smallKindWeights) + largeShare*g.sizes.meanLarge*perGroup(largeKindWeights)
	if cfg.MaxCluster <= smallMax {
		e = g.sizes.mean * perGroup(smallKindWeights)
	}
	// Births happen on fresh in-window sentences: B births among F+B such
	// sentences give B·e members, and the share is B·e / (B·e + F).
	t := cfg.Share
	g.pBirth = t / (t + e*(1-t))
	return g
}

// born reports whether a cluster is born at a fresh in-window sentence:
// with twice the rate that gives the target share on average while the
// members scheduled so far are short of the target, never while they
// reach it. The heavy tail of the sizes would otherwise make the share of
// a corpus of a few thousand pages fall well short of the target or
// overshoot it, as one large cluster is drawn or not; so it is met within
// about a cluster's size at any size of corpus.
func (g *generator) born() bool {
	t := g.cfg.Share
	if t <= 0 || float64(g.scheduled) >= t/(1-t)*float64(g.unclustered) {
		return false
	}
	return g.rng.Float64() < 2*g.pBirth
}

// inWindow reports whether a sentence of n characters is signed by the
// pipeline at its defaults: 75 < n − 11 < 600 shingles of 12 characters.
func inWindow(n int) bool { return corpus.DefaultWindow.HoldsRunes(n) }

// pageXML appends the next page, as a <page> element, to dst.
func (g *generator) pageXML(dst []byte) []byte {
	rng := g.rng
	id := int64(g.page + 1)
	ns, redirect := 0, ""
	var title string
	switch r := rng.Float64(); {
	case r < redirectShare:
		title, redirect = g.title(rng), g.title(rng)
		g.text = append(g.text[:0], "#REDIRECT [["...)
		g.text = corpus.AppendEscaped(g.text, redirect)
		g.text = append(g.text, "]]"...)
		if rng.IntN(3) == 0 {
			g.text = append(g.text, "\n\n{{R from alternative name}}"...)
		}
		g.stats.Redirects++
	case r < redirectShare+categoryShare+templateShare+projectShare:
		ns, title = g.otherPage(r - redirectShare)
		g.stats.Other++
	default:
		title = g.article()
		g.stats.Articles++
	}
	g.stats.Pages++
	dst = append(dst, "  <page>\n    <title>"...)
	dst = corpus.AppendEscaped(dst, title)
	dst = append(dst, "</title>\n    <ns>"...)
	dst = strconv.AppendInt(dst, int64(ns), 10)
	dst = append(dst, "</ns>\n    <id>"...)
	dst = strconv.AppendInt(dst, id, 10)
	dst = append(dst, "</id>\n"...)
	if redirect != "" {
		dst = append(dst, "    <redirect title=\""...)
		dst = corpus.AppendEscaped(dst, redirect)
		dst = append(dst, "\" />\n"...)
	}
	dst = append(dst, "    <revision>\n      <id>"...)
	dst = strconv.AppendInt(dst, id, 10)
	dst = append(dst, "</id>\n      <timestamp>"...)
	dst = fmt.Appendf(dst, "20%02d-%02d-%02dT%02d:%02d:%02dZ", 5+rng.IntN(9), 1+rng.IntN(12), 1+rng.IntN(28), rng.IntN(24), rng.IntN(60), rng.IntN(60))
	dst = append(dst, "</timestamp>\n      <contributor>\n        <username>"...)
	dst = corpus.AppendEscaped(dst, g.m.chain.name(rng))
	dst = append(dst, "</username>\n        <id>"...)
	dst = strconv.AppendInt(dst, int64(1+rng.IntN(20000000)), 10)
	dst = append(dst, "</id>\n      </contributor>\n      <text xml:space=\"preserve\">"...)
	dst = append(dst, g.text...)
	dst = append(dst, "</text>\n      <model>wikitext</model>\n      <format>text/x-wiki</format>\n    </revision>\n  </page>\n"...)
	g.page++
	return dst
}

// otherPage writes a page of another namespace (u < the shares of those
// pages: a category, a template or a project page) and returns its
// namespace and title.
func (g *generator) otherPage(u float64) (int, string) {
	rng, c := g.rng, g.m.chain
	name := g.title(rng)
	g.text = g.text[:0]
	switch {
	case u < categoryShare:
		_, text, _ := g.src.next()
		g.text = append(g.text, text...)
		g.text = append(g.text, "\n\n[[Category:"...)
		g.text = corpus.AppendEscaped(g.text, c.name(rng))
		g.text = append(g.text, "]]"...)
		return 14, "Category:" + name
	case u < categoryShare+templateShare:
		g.text = append(g.text, "{{Navbox\n| name = "...)
		g.text = corpus.AppendEscaped(g.text, name)
		g.text = append(g.text, "\n| title = [["...)
		g.text = corpus.AppendEscaped(g.text, name)
		g.text = append(g.text, "]]\n| list1 = "...)
		for i := range 3 + rng.IntN(8) {
			if i > 0 {
				g.text = append(g.text, " · "...)
			}
			g.text = append(g.text, "[["...)
			g.text = corpus.AppendEscaped(g.text, g.title(rng))
			g.text = append(g.text, "]]"...)
		}
		g.text = append(g.text, "\n}}&lt;noinclude&gt;\n[[Category:"...)
		g.text = corpus.AppendEscaped(g.text, c.name(rng))
		g.text = append(g.text, " templates]]\n&lt;/noinclude&gt;"...)
		return 10, "Template:" + name
	}
	for i := range 2 + rng.IntN(4) {
		if i > 0 {
			g.text = append(g.text, ' ')
		}
		_, text, _ := g.src.next()
		g.text = append(g.text, text...)
	}
	return 4, "Wikipedia:WikiProject " + name
}

// takeDue moves the copies due on this page (or earlier, if earlier pages
// had no room) from the heap to g.due and g.dueRefs.
func (g *generator) takeDue() {
	g.due, g.dueRefs = g.due[:0], g.dueRefs[:0]
	for len(g.pending) > 0 && g.pending[0].page <= g.page {
		e := heap.Pop(&g.pending).(copyEntry)
		if e.g.kind == referenceKind {
			g.dueRefs = append(g.dueRefs, e)
		} else {
			g.due = append(g.due, e)
		}
	}
}

// requeue puts back the copies this page had no room for: they go to the
// next article.
func (g *generator) requeue(entries []copyEntry) {
	for _, e := range entries {
		e.page = g.page + 1
		heap.Push(&g.pending, e)
	}
}

// article writes an article's wikitext to g.text and returns its title.
// Its layout is a real article's (a random one, cut to its lead and a
// random number of its first sections, and its reference sections): the
// markup, headings and blank lines as they are, each paragraph of prose as
// as many new sentences, each list item as new sentences, a fragment or a
// citation.
// Copies due on the page take the places of new sentences, spread over the
// page; one template copy, if any, becomes the lead and names the page.
func (g *generator) article() string {
	rng := g.rng
	g.takeDue()
	sk := &g.m.skeletons[rng.IntN(len(g.m.skeletons))]
	keep := rng.IntN(sk.sections + 1)
	kept := func(b *block) bool { return b.section <= keep || b.section > sk.sections }
	slots := 0
	for i := range sk.blocks {
		if b := &sk.blocks[i]; kept(b) && b.kind == proseBlock {
			slots += b.n
		}
	}
	// A template copy leads the page if one is due.
	for i, e := range g.due {
		if e.g.kind == templateKind {
			copy(g.due[1:i+1], g.due[:i])
			g.due[0] = e
			break
		}
	}
	g.text, g.named = g.text[:0], 0
	var title string
	due, dueRefs := g.due, g.dueRefs
	lead := true
	for i := range sk.blocks {
		b := &sk.blocks[i]
		if !kept(b) {
			continue
		}
		if b.blank {
			g.text = append(g.text, '\n')
		}
		switch b.kind {
		case markupBlock, headingBlock:
			g.text = append(g.text, b.raw...)
		case listBlock:
			g.text = append(g.text, b.raw...)
			g.text = append(g.text, ' ')
			g.listItem(b)
		case proseBlock:
			for s := 0; s < b.n; s++ {
				if s > 0 {
					g.text = append(g.text, ' ')
				}
				switch {
				case lead:
					lead = false
					if len(due) > 0 && due[0].g.kind == templateKind {
						title = g.emitMember(due[0], true)
						due = due[1:]
					} else {
						title = g.title(rng)
						g.leadSentence(title)
					}
				case len(due) > 0 && (slots <= len(due) || rng.IntN(slots) < len(due)):
					g.emitMember(due[0], false)
					due = due[1:]
				default:
					g.fresh()
				}
				slots--
				dueRefs = g.refAfter(dueRefs)
			}
		}
		g.text = append(g.text, '\n')
	}
	if title == "" { // a layout without prose before its lists
		title = g.title(rng)
	}
	g.requeue(due)
	g.requeue(dueRefs)
	return title
}

// leadSentence writes the lead's first sentence: the title in bold, then
// the chain from after the opening names of a real sentence that goes on
// with "is", "was", "are" or "were".
func (g *generator) leadSentence(title string) {
	rng, c := g.rng, g.m.chain
	p := c.leads[rng.IntN(len(c.leads))]
	g.sentence = append(g.sentence[:0], c.words[c.text[p]])
	g.sentence = c.appendFrom(g.sentence, rng, p)
	g.text = append(g.text, "'''"...)
	g.text = corpus.AppendEscaped(g.text, title)
	g.text = append(g.text, "''' "...)
	g.text = appendWiki(g.text, g.sentence, rng)
	g.count(runes(g.sentence)+1+len([]rune(title)), false)
}

// count records a sentence of n characters written to an article.
func (g *generator) count(n int, member bool) {
	g.stats.Sentences++
	if inWindow(n) {
		g.stats.InWindow++
		if member {
			g.stats.Members++
		} else {
			g.unclustered++
		}
	}
}

// fresh writes a new sentence, which may become the first member of a new
// cluster.
func (g *generator) fresh() {
	words, text, n := g.src.next()
	if inWindow(n) && g.page+1 < g.cfg.Pages && g.born() {
		grp := g.birth(words)
		if grp.kind != referenceKind {
			g.emitMember(copyEntry{g: grp}, false)
			return
		}
		g.text = append(g.text, text...)
		g.count(n, false)
		g.writeRef(grp.citation, true)
		return
	}
	g.text = append(g.text, text...)
	g.count(n, false)
}

// freshInWindow returns a copy of the next sentence of the chain that is
// in the window, or of the last of 20.
func (g *generator) freshInWindow() []string {
	var w []string
	for range 20 {
		var n int
		w, _, n = g.src.next()
		if inWindow(n) {
			break
		}
	}
	return append([]string(nil), w...)
}

// run appends n words of the chain's next sentences to dst, without the
// last one's trailing punctuation: a title, a list item.
func (g *generator) run(dst []string, n int) []string {
	n0 := len(dst)
	for len(dst)-n0 < n {
		w, _, _ := g.src.next()
		dst = append(dst, w...)
	}
	dst = dst[:n0+n]
	last := strings.TrimRight(dst[len(dst)-1], ".,;:!?")
	if last == "" {
		return dst[:len(dst)-1]
	}
	dst[len(dst)-1] = last
	return dst
}

// birth makes a cluster (or a passage of clusters) whose first member is
// written now, in place of the new sentence words, and schedules its
// other members on later pages.
func (g *generator) birth(words []string) *group {
	rng, c := g.rng, g.m.chain
	size := g.sizes.draw(rng)
	weights := &smallKindWeights
	if size > smallMax {
		weights = &largeKindWeights
	}
	var total float64
	for _, w := range weights {
		total += w
	}
	u := rng.Float64() * total
	kind := clusterKind(0)
	for kind < nKinds-1 && u >= weights[kind] {
		u -= weights[kind]
		kind++
	}
	grp := &group{kind: kind, size: size}
	base := append([]string(nil), words...)
	switch kind {
	case identicalKind, copyEditKind:
		grp.bases = [][]string{base}
		if rng.Float64() < passageShare {
			for extra := 1 + rng.IntN(3); extra > 0; extra-- {
				grp.bases = append(grp.bases, g.freshInWindow())
			}
		}
	case driftKind:
		for try := 0; !hasNumber(base) && try < 30; try++ {
			base = g.freshInWindow()
		}
		grp.bases = [][]string{base}
		if !hasNumber(base) {
			grp.kind = identicalKind
			break
		}
		// Up to three other versions, so that drift stays drift: more
		// versions of one number would be a template's fillings.
		for v := 0; v < min(size-1, 3); v++ {
			var w []string
			for range 8 {
				w = changeNumber(base, rng)
				if distinctFrom(w, base, grp.variants) {
					break
				}
			}
			grp.variants = append(grp.variants, w)
		}
	case templateKind:
		subject := g.subject(rng)
		var rest []string
		for range 10 {
			if rng.IntN(2) == 0 {
				rest = strings.Fields(g.fillFrame(rng))[1:]
			} else {
				p := c.leads[rng.IntN(len(c.leads))]
				rest = c.appendFrom([]string{c.words[c.text[p]]}, rng, p)
			}
			if inWindow(runes(subject) + 1 + runes(rest)) {
				break
			}
		}
		grp.bases = [][]string{append(subject, rest...)}
		grp.subject = len(subject)
	case referenceKind:
		grp.citation = g.longCitation()
		grp.varyPage = rng.IntN(5) < 2
	}
	n := max(len(grp.bases), 1)
	g.stats.Clusters[grp.kind] += n
	g.scheduled += n * size
	g.stats.Largest = max(g.stats.Largest, size)
	remaining := g.cfg.Pages - 1 - g.page
	window := min(max(minWindow, 2*size), remaining)
	for j := 1; j < size; j++ {
		heap.Push(&g.pending, copyEntry{page: g.page + 1 + rng.IntN(window), seq: g.seq, g: grp, member: j})
		g.seq++
	}
	return grp
}

func distinctFrom(w, base []string, others [][]string) bool {
	if strings.Join(w, " ") == strings.Join(base, " ") {
		return false
	}
	for _, o := range others {
		if strings.Join(w, " ") == strings.Join(o, " ") {
			return false
		}
	}
	return true
}

// emitMember writes member e.member of its group: its sentences, with the
// edits of its kind. As a lead (a template's member), the subject is bold
// and named the page, whose title emitMember returns.
func (g *generator) emitMember(e copyEntry, asLead bool) string {
	rng := g.rng
	grp := e.g
	var title string
	for i, base := range grp.bases {
		if i > 0 {
			g.text = append(g.text, ' ')
		}
		words := base
		subject := grp.subject
		switch {
		case e.member == 0:
		case grp.kind == copyEditKind:
			words = copyEdit(base, rng)
		case grp.kind == driftKind:
			words = grp.variants[(e.member-1)%len(grp.variants)]
		case grp.kind == templateKind:
			s := g.subject(rng)
			words = append(s, base[grp.subject:]...)
			subject = len(s)
		}
		if asLead && grp.kind == templateKind {
			title = strings.Join(words[:subject], " ")
			g.text = append(g.text, "'''"...)
			g.text = corpus.AppendEscaped(g.text, title)
			g.text = append(g.text, "''' "...)
			g.text = appendWiki(g.text, words[subject:], rng)
		} else {
			g.text = appendWiki(g.text, words, rng)
		}
		g.count(runes(words), true)
	}
	return title
}

// refAfter writes a reference after a sentence: a due copy of a citation
// if there is one (it returns the others), else, now and then, a new one.
func (g *generator) refAfter(dueRefs []copyEntry) []copyEntry {
	rng := g.rng
	if len(dueRefs) > 0 {
		e := dueRefs[0]
		text := e.g.citation
		if e.g.varyPage && e.member > 0 {
			text = setPage(text, rng)
		}
		g.writeRef(text, true)
		return dueRefs[1:]
	}
	if rng.Float64() >= refRate {
		return dueRefs
	}
	switch {
	case g.named > 0 && rng.IntN(6) == 0:
		g.text = append(g.text, "&lt;ref name=&quot;r"...)
		g.text = strconv.AppendInt(g.text, int64(1+rng.IntN(g.named)), 10)
		g.text = append(g.text, "&quot; /&gt;"...)
	case rng.Float64() < plainRefShare:
		g.writeRef(g.citation(rng), false)
	default:
		g.writeRef(g.citeTemplate(rng), false)
	}
	return dueRefs
}

// writeRef writes <ref>text</ref> (text unescaped), sometimes named. A
// plain citation is counted: as one sentence if it is a member, else as
// the pieces that its periods cut it into.
func (g *generator) writeRef(text string, member bool) {
	if g.rng.IntN(4) == 0 {
		g.named++
		g.text = append(g.text, "&lt;ref name=&quot;r"...)
		g.text = strconv.AppendInt(g.text, int64(g.named), 10)
		g.text = append(g.text, "&quot;&gt;"...)
	} else {
		g.text = append(g.text, "&lt;ref&gt;"...)
	}
	g.text = corpus.AppendEscaped(g.text, text)
	g.text = append(g.text, "&lt;/ref&gt;"...)
	switch {
	case strings.HasPrefix(text, "{{"):
	case member:
		g.count(len([]rune(strings.ReplaceAll(text, "''", ""))), true)
	default:
		// A citation is one sentence: the splitter cuts a reference
		// paragraph only between two sentences of prose.
		g.count(len([]rune(strings.ReplaceAll(text, "''", ""))), false)
	}
}

// longCitation returns a citation in the comma-separated style of
// {{citation}} (one sentence), long enough to be signed: the text of a
// reference cluster.
func (g *generator) longCitation() string {
	rng, c := g.rng, g.m.chain
	for {
		g.words = g.run(g.words[:0], 8+rng.IntN(8))
		title := strings.Join(g.words, " ")
		s := c.name(rng) + ", " + c.name(rng) + "; " + c.name(rng) + ", " + c.name(rng) + " (" + strconv.Itoa(1950+rng.IntN(70)) +
			"), ''" + title + "'', " + c.name(rng) + ": " + publisher(c, rng) + ", p. " + strconv.Itoa(1+rng.IntN(600)) +
			", ISBN 978-" + digits(rng, 1) + "-" + digits(rng, 4) + "-" + digits(rng, 4) + "-" + digits(rng, 1)
		if n := len([]rune(strings.ReplaceAll(s, "''", ""))); inWindow(n) {
			return s
		}
	}
}

// setPage returns a citation with its page number ("p. N") replaced.
func setPage(text string, rng *rand.Rand) string {
	i := strings.LastIndex(text, ", p. ")
	if i < 0 {
		return text
	}
	j := i + len(", p. ")
	k := j
	for k < len(text) && text[k] >= '0' && text[k] <= '9' {
		k++
	}
	return text[:j] + strconv.Itoa(1+rng.IntN(600)) + text[k:]
}

// listItem writes a list item: a citation in a reference section, the
// item's number of sentences, or a fragment of as many words as the real
// item, often a link.
func (g *generator) listItem(b *block) {
	rng, c := g.rng, g.m.chain
	switch {
	case b.ref:
		if rng.IntN(2) == 0 {
			g.text = append(g.text, '[')
			g.text = append(g.text, "http://www."...)
			g.text = corpus.AppendEscaped(g.text, strings.ToLower(c.name(rng)))
			g.text = append(g.text, ".org/ "...)
			g.words = g.run(g.words[:0], 2+rng.IntN(5))
			g.text = corpus.AppendEscaped(g.text, strings.Join(g.words, " "))
			g.text = append(g.text, ']')
			g.count(runes(g.words), false)
			return
		}
		text := g.citation(rng)
		g.text = corpus.AppendEscaped(g.text, text)
		g.count(len([]rune(strings.ReplaceAll(text, "''", ""))), false)
	case b.n > 0:
		for s := 0; s < b.n; s++ {
			if s > 0 {
				g.text = append(g.text, ' ')
			}
			_, text, n := g.src.next()
			g.text = append(g.text, text...)
			g.count(n, false)
		}
	default:
		g.words = g.run(g.words[:0], max(1, b.words))
		if len(g.words) <= 4 && rng.IntN(2) == 0 {
			g.text = append(g.text, "[["...)
			g.text = corpus.AppendEscaped(g.text, strings.Join(g.words, " "))
			g.text = append(g.text, "]]"...)
		} else {
			g.text = appendWiki(g.text, g.words, rng)
		}
		g.count(runes(g.words), false)
	}
}

// errNoPages is returned for a corpus of no pages.
var errNoPages = errors.New("a distinct corpus needs at least one page")

// Write writes cfg.Pages generated pages between the model's header and
// the footer to w, and hands each page, if each is not nil, to each (a
// copy it may keep: a corpus.MultistreamWriter's Add).
func Write(w io.Writer, m *Model, cfg Config, each func(page []byte)) (Stats, error) {
	if cfg.Pages < 1 {
		return Stats{}, errNoPages
	}
	g := newGenerator(m, cfg)
	defer g.src.close()
	if _, err := w.Write(m.header); err != nil {
		return g.stats, err
	}
	g.stats.Bytes = int64(len(m.header) + len(corpus.Footer))
	var buf []byte
	for range cfg.Pages {
		buf = g.pageXML(buf[:0])
		if _, err := w.Write(buf); err != nil {
			return g.stats, err
		}
		g.stats.Bytes += int64(len(buf))
		if each != nil {
			each(bytes.Clone(buf))
		}
	}
	_, err := io.WriteString(w, corpus.Footer)
	return g.stats, err
}
