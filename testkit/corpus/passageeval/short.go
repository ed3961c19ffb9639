package passageeval

import (
	"fmt"
	"math/rand/v2"
	"regexp"
	"slices"
	"strings"

	"github.com/neardup/neardup/testkit/corpus"
)

// The short-copy evaluation (issue 33) measures what --min_coverage
// finds: a sentence or two of a real page copied into a short real
// document, as a short answer written from a Wikipedia article by cut and
// paste is, and no link between a page and a short document written
// independently on a related topic. Its documents are a text corpus (one
// JSON line each): sources (whole pages), hosts (the lead of other pages,
// cut to a few in-window sentences, that copies are planted into) and
// independents (the leads of pages that a source links to, left as they
// are).

// ShortKind is a kind of short copy.
type ShortKind int

const (
	// One is one sentence copied.
	One ShortKind = iota
	// Two is two consecutive sentences copied.
	Two
	// Three is three or four consecutive sentences copied: a passage by
	// --min_passage alone.
	Three
	// Scattered is two or three sentences copied from separate places of
	// the source (at least three sentences apart), put side by side.
	Scattered
)

// ShortKinds are the kinds of short copy, in the order reports list them.
var ShortKinds = [...]ShortKind{One, Two, Three, Scattered}

var shortKindNames = [...]string{"1 sentence", "2 sentences", "3–4 sentences", "2–3 scattered"}

func (k ShortKind) String() string {
	if k < 0 || int(k) >= len(shortKindNames) {
		return fmt.Sprintf("ShortKind(%d)", int(k))
	}
	return shortKindNames[k]
}

// ShortConfig says what the documents of a short-copy corpus are.
type ShortConfig struct {
	Window corpus.Window
	// MinHost and MaxHost bound the in-window sentences of a host or an
	// independent document before planting.
	MinHost, MaxHost int
	// MinSource is the fewest usable sentences of a source page.
	MinSource int
	// Sources, Hosts and Independents are how many of each to take.
	Sources, Hosts, Independents int
}

// DefaultShortConfig is the pipeline's window, short documents of 5 to 12
// in-window sentences (6 to 16 once planted: a short answer), sources of
// at least 15.
func DefaultShortConfig() ShortConfig {
	return ShortConfig{Window: corpus.DefaultWindow, MinHost: 5, MaxHost: 12, MinSource: 15, Sources: 30, Hosts: 72, Independents: 40}
}

// ShortDoc is one document of a short-copy corpus.
type ShortDoc struct {
	ID        string   // its id in the corpus: "source:", "host:" or "independent:" and the page's document
	Page      string   // Page.Doc of the page it comes from
	Sentences []string // its sentences, all inside the window
}

// Text is the document's text: its sentences, a paragraph each.
func (d ShortDoc) Text() string { return strings.Join(d.Sentences, "\n\n") }

// ShortPlant is one short copy planted into a host.
type ShortPlant struct {
	Kind         ShortKind
	Source, Host string   // ShortDoc.ID
	Copied       []string // the source's sentences, as planted into the host
	// HostSize is the host's in-window sentences once planted; Coverage
	// the copied sentences' share of them.
	HostSize int
}

// Coverage is the share of the host's in-window sentences the copy is.
func (p ShortPlant) Coverage() float64 { return float64(len(p.Copied)) / float64(p.HostSize) }

// ShortCorpus is a short-copy corpus.
type ShortCorpus struct {
	Sources, Hosts, Independents []ShortDoc
	// Linked is how many independents come from a page their source
	// links to (the others: from any page left).
	Linked int
	Plants []ShortPlant
}

// Docs are all the documents, sources, hosts and independents.
func (c *ShortCorpus) Docs() []ShortDoc {
	return slices.Concat(c.Sources, c.Hosts, c.Independents)
}

// usableSentences are the in-window prose sentences of a page.
func usableSentences(p Page, w corpus.Window) []string {
	var out []string
	for _, s := range p.Sentences {
		if s.Prose && w.Holds(s.Text) {
			out = append(out, s.Text)
		}
	}
	return out
}

// linkPattern finds the targets of a wikitext's links.
var linkPattern = regexp.MustCompile(`\[\[([^\]|#]+)`)

// NewShortCorpus draws the documents of a short-copy corpus from pages,
// each page serving once: sources (pages of at least MinSource usable
// sentences, whole), then for each source in turn an independent
// document from a page it links to (else, once those run out, from any
// page), then hosts from the pages left. A short document is the first
// MinHost to MaxHost usable sentences of its page.
func NewShortCorpus(pages []Page, cfg ShortConfig, rng *rand.Rand) (*ShortCorpus, error) {
	usable := make([][]string, len(pages))
	byTitle := map[string]int{}
	for i, p := range pages {
		usable[i] = usableSentences(p, cfg.Window)
		byTitle[strings.ToLower(p.Title)] = i
	}
	order := rng.Perm(len(pages))
	used := make([]bool, len(pages))
	c := &ShortCorpus{}
	for _, i := range order {
		if len(c.Sources) < cfg.Sources && len(usable[i]) >= cfg.MinSource {
			used[i] = true
			c.Sources = append(c.Sources, ShortDoc{ID: "source:" + pages[i].Doc, Page: pages[i].Doc, Sentences: usable[i]})
		}
	}
	short := func(i int, prefix string) ShortDoc {
		used[i] = true
		n := min(cfg.MinHost+rng.IntN(cfg.MaxHost-cfg.MinHost+1), len(usable[i]))
		return ShortDoc{ID: prefix + pages[i].Doc, Page: pages[i].Doc, Sentences: usable[i][:n]}
	}
	fits := func(i int) bool { return !used[i] && len(usable[i]) >= cfg.MinHost }
	byDoc := map[string]int{}
	for i, p := range pages {
		byDoc[p.Doc] = i
	}
	for _, src := range c.Sources {
		if len(c.Independents) == cfg.Independents {
			break
		}
		for _, m := range linkPattern.FindAllStringSubmatch(pages[byDoc[src.Page]].Text, -1) {
			if i, ok := byTitle[strings.ToLower(strings.TrimSpace(m[1]))]; ok && fits(i) {
				c.Independents = append(c.Independents, short(i, "independent:"))
				c.Linked++
				break
			}
		}
	}
	for _, i := range order {
		if len(c.Independents) < cfg.Independents && fits(i) {
			c.Independents = append(c.Independents, short(i, "independent:"))
		}
	}
	for _, i := range order {
		if len(c.Hosts) < cfg.Hosts && fits(i) {
			c.Hosts = append(c.Hosts, short(i, "host:"))
		}
	}
	if len(c.Sources) < cfg.Sources || len(c.Hosts) < cfg.Hosts || len(c.Independents) < cfg.Independents {
		return nil, fmt.Errorf("passageeval: %d sources, %d hosts and %d independents of %d pages; want %d, %d and %d",
			len(c.Sources), len(c.Hosts), len(c.Independents), len(pages), cfg.Sources, cfg.Hosts, cfg.Independents)
	}
	return c, nil
}

// Plant plants a short copy into each host, the kinds in turn, from a
// source drawn at random that shares nothing with it (related: the
// document pairs of a run on the corpus as it is that share a sentence),
// of sentences no other document holds (shared: their texts), at a random
// place among the host's sentences.
func (c *ShortCorpus) Plant(rng *rand.Rand, shared map[string]bool, related map[Pair]bool) error {
	for h := range c.Hosts {
		host := &c.Hosts[h]
		k := ShortKinds[h%len(ShortKinds)]
		var copied []string
		var src ShortDoc
		for range 40 {
			src = c.Sources[rng.IntN(len(c.Sources))]
			if related[PairOf(src.ID, host.ID)] {
				continue
			}
			if copied = pick(k, src.Sentences, shared, rng); copied != nil {
				break
			}
		}
		if copied == nil {
			return fmt.Errorf("passageeval: no %s copy for %s", k, host.ID)
		}
		for _, s := range copied {
			shared[s] = true // copied once
		}
		at := rng.IntN(len(host.Sentences) + 1)
		host.Sentences = slices.Concat(host.Sentences[:at], copied, host.Sentences[at:])
		c.Plants = append(c.Plants, ShortPlant{Kind: k, Source: src.ID, Host: host.ID, Copied: copied, HostSize: len(host.Sentences)})
	}
	return nil
}

// pick draws the sentences of a copy of kind k from a source's sentences,
// none of them shared; nil if none fit.
func pick(k ShortKind, ss []string, shared map[string]bool, rng *rand.Rand) []string {
	free := func(i, n int) bool {
		return i+n <= len(ss) && !slices.ContainsFunc(ss[i:i+n], func(s string) bool { return shared[s] })
	}
	switch k {
	case One, Two, Three:
		n := int(k) + 1
		if k == Three {
			n = 3 + rng.IntN(2)
		}
		for range 40 {
			if i := rng.IntN(len(ss)); free(i, n) {
				return slices.Clone(ss[i : i+n])
			}
		}
	case Scattered:
		n := 2 + rng.IntN(2)
		for range 40 {
			var at []int
			for _, i := range rng.Perm(len(ss)) {
				if free(i, 1) && !slices.ContainsFunc(at, func(j int) bool { return abs(i-j) < 3 }) {
					at = append(at, i)
				}
				if len(at) == n {
					break
				}
			}
			if len(at) == n {
				slices.Sort(at)
				var out []string
				for _, i := range at {
					out = append(out, ss[i])
				}
				return out
			}
		}
	}
	return nil
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}

// ShortFound is a passage a run found: its documents (ShortDoc.ID) and
// the texts of its matched sentences in each.
type ShortFound struct {
	A, B           string
	TextsA, TextsB []string
}

// ShortScore is the outcome of one kind of short copy, or of the plants
// of one range of coverage.
type ShortScore struct {
	Planted int // copies planted
	Found   int // passages found on their document pairs
	Correct int // passages found whose host sentences are all copied ones
	Hits    int // plants a correct passage was found of
}

// Precision is the share of the passages found that are correct; 1 if
// none was found.
func (s ShortScore) Precision() float64 { return ratio(s.Correct, s.Found) }

// Recall is the share of the plants some passage hits.
func (s ShortScore) Recall() float64 { return ratio(s.Hits, s.Planted) }

// CoverageBins are the lower bounds of the ranges of coverage the report
// gives recall by.
var CoverageBins = []float64{0, 0.1, 0.15, 0.2, 0.25, 0.34, 0.5}

// ShortReport is the evaluation of a run's passages against the short
// plants.
type ShortReport struct {
	Kinds      [len(ShortKinds)]ShortScore
	ByCoverage []ShortScore // by CoverageBins
	// Unplanted are the passages on pairs that hold no plant and shared
	// no sentence before planting: false links. Natural are those on pairs
	// that did (real reuse among the pages: an article in two dumps, a
	// paragraph two related articles share), not counted.
	Unplanted, Natural []ShortFound
	// IndependentDocs are the independent documents linked to any other,
	// and NaturalIndependentDocs those linked on pairs that shared a
	// sentence before planting.
	IndependentDocs, NaturalIndependentDocs int
}

// All is the score of every kind together, the unplanted passages counted
// as found.
func (r ShortReport) All() ShortScore {
	var s ShortScore
	for _, k := range r.Kinds {
		s.Planted, s.Found, s.Correct, s.Hits = s.Planted+k.Planted, s.Found+k.Found, s.Correct+k.Correct, s.Hits+k.Hits
	}
	s.Found += len(r.Unplanted)
	return s
}

// EvaluateShort scores passages against the plants: a passage on a
// plant's document pair is correct when the host's side of each of its
// matches is a copied sentence, and a plant is hit when a correct passage
// was found of it; a passage on any other pair is natural if the pair is
// related (it shared a sentence before planting), else unplanted.
func EvaluateShort(c *ShortCorpus, found []ShortFound, related map[Pair]bool) ShortReport {
	r := ShortReport{ByCoverage: make([]ShortScore, len(CoverageBins))}
	byPair := map[Pair]int{}
	for i, p := range c.Plants {
		byPair[PairOf(p.Source, p.Host)] = i
		r.Kinds[p.Kind].Planted++
		r.ByCoverage[bin(p.Coverage())].Planted++
	}
	hit := make([]bool, len(c.Plants))
	linked, natural := map[string]bool{}, map[string]bool{}
	for _, f := range found {
		i, ok := byPair[PairOf(f.A, f.B)]
		if !ok {
			docs := linked
			if related[PairOf(f.A, f.B)] {
				r.Natural, docs = append(r.Natural, f), natural
			} else {
				r.Unplanted = append(r.Unplanted, f)
			}
			for _, d := range []string{f.A, f.B} {
				if strings.HasPrefix(d, "independent:") {
					docs[d] = true
				}
			}
			continue
		}
		p := c.Plants[i]
		texts := f.TextsB
		if f.A == p.Host {
			texts = f.TextsA
		}
		s := &r.Kinds[p.Kind]
		b := &r.ByCoverage[bin(p.Coverage())]
		s.Found++
		b.Found++
		if len(texts) == 0 || slices.ContainsFunc(texts, func(t string) bool { return !slices.Contains(p.Copied, t) }) {
			continue
		}
		s.Correct++
		b.Correct++
		if !hit[i] {
			hit[i] = true
			s.Hits++
			b.Hits++
		}
	}
	r.IndependentDocs, r.NaturalIndependentDocs = len(linked), len(natural)
	return r
}

// naturalIndependent is how many natural passages have an independent
// document.
func (r ShortReport) naturalIndependent() int {
	n := 0
	for _, f := range r.Natural {
		if strings.HasPrefix(f.A, "independent:") || strings.HasPrefix(f.B, "independent:") {
			n++
		}
	}
	return n
}

// bin is the index of the CoverageBins range of x.
func bin(x float64) int {
	i := 0
	for i+1 < len(CoverageBins) && CoverageBins[i+1] <= x {
		i++
	}
	return i
}

// Table is r as Markdown table rows: precision and recall by kind, all
// together, and the unplanted passages.
func (r ShortReport) Table() string {
	var b strings.Builder
	b.WriteString("| copy | planted | passages | correct | copies found | precision | recall |\n|---|---|---|---|---|---|---|\n")
	row := func(name string, s ShortScore) {
		fmt.Fprintf(&b, "| %s | %d | %d | %d | %d | %.3f | %.3f |\n", name, s.Planted, s.Found, s.Correct, s.Hits, s.Precision(), s.Recall())
	}
	for _, k := range ShortKinds {
		row(k.String(), r.Kinds[k])
	}
	row(fmt.Sprintf("all (+%d unplanted)", len(r.Unplanted)), r.All())
	b.WriteString("\n| coverage of the host | planted | recall |\n|---|---|---|\n")
	for i, lo := range CoverageBins {
		hi := "1"
		if i+1 < len(CoverageBins) {
			hi = fmt.Sprint(CoverageBins[i+1])
		}
		fmt.Fprintf(&b, "| [%v, %s) | %d | %.3f |\n", lo, hi, r.ByCoverage[i].Planted, r.ByCoverage[i].Recall())
	}
	fmt.Fprintf(&b, "\nfalse links: %d passages on unplanted pairs, %d independent documents linked; not counted: %d passages on pairs that shared a sentence before planting, %d of them linking %d independent documents\n",
		len(r.Unplanted), r.IndependentDocs, len(r.Natural), r.naturalIndependent(), r.NaturalIndependentDocs)
	return b.String()
}
