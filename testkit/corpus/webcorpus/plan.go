package webcorpus

import (
	"context"
	"fmt"
	"path/filepath"
	"slices"

	"github.com/neardup/neardup/transforms/sentence"
)

// chunk is a passage of an article: sentences first…last.
type chunk struct {
	src, art    int
	first, last int
	bad         bool // a sentence matches another article
}

// draft is a page before it is rendered.
type draft struct {
	label Label
	title string
	paras []string
	host  int    // index in builder.templates
	raw   []byte // a real page's body, kept as it is
	// matched says a sentence of a negative matches an article.
	matched bool
	// finish completes the label once the articles are scanned.
	finish func()
}

// builder holds what Build has read and drawn.
type builder struct {
	cfg       Config
	sources   [][]Article
	templates []hostPage
	intros    []string // a sentence of each template's own text, "" if none fits
	reals     []hostPage
	chunks    [][]*chunk // good passages by source, in draw order
	ix        *index
	onMatch   []func(src, art int, j float64)
}

func newBuilder(cfg Config) (*builder, error) {
	b := &builder{cfg: cfg, ix: newIndex()}
	seen := map[string]bool{}
	for _, src := range cfg.Sources {
		arts, err := readSource(context.Background(), cfg.DataDir, src)
		if err != nil {
			return nil, err
		}
		for _, a := range arts {
			key := fmt.Sprintf("%s:%d", a.Wiki, a.PageID)
			if seen[key] {
				return nil, fmt.Errorf("webcorpus: two articles are %s (a page id of %s is also in another source of wiki %s)", key, src.File, a.Wiki)
			}
			seen[key] = true
		}
		b.sources = append(b.sources, arts)
	}
	return b, b.readHosts()
}

// readHosts reads the host pages, drops repeated URLs and splits them into
// untouched negatives and templates.
func (b *builder) readHosts() error {
	var pages []hostPage
	seen := map[string]bool{}
	for _, f := range b.cfg.Hosts {
		ps, err := readHosts(filepath.Join(b.cfg.DataDir, filepath.FromSlash(f)))
		if err != nil {
			return err
		}
		for _, p := range ps {
			if !seen[p.URL] {
				seen[p.URL] = true
				pages = append(pages, p)
			}
		}
	}
	newRNG(b.cfg.Seed, "hosts").shuffle(len(pages), func(i, j int) { pages[i], pages[j] = pages[j], pages[i] })
	n := min(b.cfg.Real, len(pages)/2)
	b.reals, b.templates = pages[:n], pages[n:]
	if len(b.templates) == 0 {
		return fmt.Errorf("webcorpus: no HTML page in %v", b.cfg.Hosts)
	}
	for _, t := range b.templates {
		b.intros = append(b.intros, intro(t))
	}
	return nil
}

// intro returns the first sentence of the host's own text of 40 to 300
// bytes, or "".
func intro(p hostPage) string {
	for _, para := range hostParagraphs(p.Body) {
		for _, sp := range sentence.Split(para) {
			if s := para[sp.Start:sp.End]; 40 <= len(s) && len(s) <= 300 {
				return s
			}
		}
	}
	return ""
}

// query adds text to the sentences checked against every article, with
// what to do on each match.
func (b *builder) query(text string, f func(src, art int, j float64)) {
	b.ix.add(text)
	b.onMatch = append(b.onMatch, f)
}

// scan checks every query against every sentence of every article.
func (b *builder) scan() {
	for si, arts := range b.sources {
		for ai := range arts {
			for _, s := range arts[ai].Sentences {
				b.ix.scan(s.Text, NearDuplicate, func(q int, j float64) { b.onMatch[q](si, ai, j) })
			}
		}
	}
}

// drawChunks draws up to Config.Candidates passages of each source, each
// of MinPassage to MaxPassage consecutive in-window prose sentences, and
// queries their sentences: a passage with a sentence that matches another
// article is bad.
func (b *builder) drawChunks() {
	b.chunks = make([][]*chunk, len(b.sources))
	for si, arts := range b.sources {
		r := newRNG(b.cfg.Seed, "chunks:"+b.cfg.Sources[si].File)
		var all []*chunk
		for ai := range arts {
			all = b.appendChunks(all, r, si, ai)
		}
		r.shuffle(len(all), func(i, j int) { all[i], all[j] = all[j], all[i] })
		all = all[:min(len(all), b.cfg.Candidates)]
		for _, c := range all {
			for o := c.first; o <= c.last; o++ {
				b.query(arts[c.art].Sentences[o].Text, func(src, art int, _ float64) {
					if src != c.src || art != c.art {
						c.bad = true
					}
				})
			}
		}
		b.chunks[si] = all
	}
}

// appendChunks cuts the runs of in-window prose sentences of an article
// into passages.
func (b *builder) appendChunks(dst []*chunk, r *rng, si, ai int) []*chunk {
	ss := b.sources[si][ai].Sentences
	for i := 0; i < len(ss); {
		if !ss[i].Prose || !b.cfg.Window.Holds(ss[i].Text) {
			i++
			continue
		}
		end := i
		for end < len(ss) && ss[end].Prose && b.cfg.Window.Holds(ss[end].Text) {
			end++
		}
		for i+b.cfg.MinPassage <= end {
			n := min(r.between(b.cfg.MinPassage, b.cfg.MaxPassage), end-i)
			dst = append(dst, &chunk{src: si, art: ai, first: i, last: i + n - 1})
			i += n
		}
		i = end
	}
	return dst
}

// goodChunks drops the bad passages once scanned.
func (b *builder) goodChunks() {
	for si := range b.chunks {
		b.chunks[si] = slices.DeleteFunc(b.chunks[si], func(c *chunk) bool { return c.bad })
	}
}

// take removes and returns the first passage of source si that ok
// accepts.
func (b *builder) take(si int, ok func(*chunk) bool) (*chunk, bool) {
	for i, c := range b.chunks[si] {
		if ok(c) {
			b.chunks[si] = slices.Delete(b.chunks[si], i, i+1)
			return c, true
		}
	}
	return nil, false
}

func anyChunk(*chunk) bool { return true }
