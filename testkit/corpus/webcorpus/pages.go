package webcorpus

import (
	"cmp"
	"fmt"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/neardup/neardup/transforms/sentence"
)

// maxTemplate bounds the template sentences of a structure page.
const maxTemplate = 6

// structureDrafts makes the structure-reuse pages: for each, an article
// with at least two template sentences (families) is filled with a
// made-up entity's names and numbers. The family of the label is
// extended by the scan to every article a page sentence matches.
func (b *builder) structureDrafts(first int) []*draft {
	type base struct {
		src, art int
		ords     []int
		fams     map[string]*family
	}
	var bases []base
	for si, arts := range b.sources {
		fams := families(arts)
		for ai := range arts {
			if ords := templated(&arts[ai], ai, fams); len(ords) >= 2 {
				bases = append(bases, base{si, ai, ords, fams})
			}
		}
	}
	r := newRNG(b.cfg.Seed, "structure")
	r.shuffle(len(bases), func(i, j int) { bases[i], bases[j] = bases[j], bases[i] })
	slices.SortStableFunc(bases, func(x, y base) int { return cmp.Compare(len(y.ords), len(x.ords)) })
	// Round-robin over the sources, so that every language with
	// families gets pages.
	var out []*draft
	for round := 0; len(out) < b.cfg.Structure && round < len(bases); round++ {
		for si := range b.sources {
			k := 0
			for _, bs := range bases {
				if bs.src != si {
					continue
				}
				if k == round && len(out) < b.cfg.Structure {
					out = append(out, b.structureDraft(bs.src, bs.art, bs.ords, bs.fams, first+len(out)))
				}
				k++
			}
		}
	}
	return out
}

func (b *builder) structureDraft(si, ai int, ords []int, fams map[string]*family, n int) *draft {
	a := &b.sources[si][ai]
	nm := newNamer(newRNG(b.cfg.Seed, fmt.Sprintf("structure:%d", n)))
	host := n % len(b.templates)
	title, _ := nm.fill(a.Title, allSlots(a.Title))
	d := &draft{host: host, title: title, label: Label{Page: PageStructure, Lang: a.Lang, Host: b.templates[host].URL}}
	if in := b.intros[host]; in != "" {
		d.label.HostText = []string{in}
	}
	d.paras = append(d.paras, d.label.HostText...)
	ru := Reuse{Article: refOf(a), Kind: Structure}
	entities := map[string]bool{}
	for _, w := range token.FindAllString(a.Title, -1) {
		entities[w] = true
	}
	var body []string
	for _, o := range ords[:min(len(ords), maxTemplate)] {
		text := a.Sentences[o].Text
		slot := slots(text, fams[templateKey(text)], a.Title)
		filled, edits := nm.fill(text, slot)
		for i, w := range token.FindAllString(text, -1) {
			if slot[i] && !isNumber(w) {
				entities[w] = true
			}
		}
		ru.Copied = append(ru.Copied, Copied{Ordinal: o, Text: text, Page: filled, Edits: edits, Jaccard: Jaccard(text, filled)})
		body = append(body, filled)
	}
	d.paras = append(d.paras, strings.Join(body, " "))
	for w := range entities {
		if !isNumber(w) {
			ru.Entities = append(ru.Entities, w)
		}
	}
	slices.Sort(ru.Entities)
	family := map[[2]int]bool{{si, ai}: true}
	for _, c := range ru.Copied {
		b.query(c.Page, func(src, art int, _ float64) { family[[2]int{src, art}] = true })
	}
	d.label.Reuses = []Reuse{ru}
	d.finish = func() {
		keys := make([][2]int, 0, len(family))
		for k := range family {
			keys = append(keys, k)
		}
		slices.SortFunc(keys, func(x, y [2]int) int { return cmp.Or(cmp.Compare(x[0], y[0]), cmp.Compare(x[1], y[1])) })
		for _, k := range keys {
			d.label.Reuses[0].Family = append(d.label.Reuses[0].Family, refOf(&b.sources[k[0]][k[1]]))
		}
	}
	return d
}

// allSlots marks every token of text a slot.
func allSlots(text string) []bool {
	out := make([]bool, len(token.FindAllStringIndex(text, -1)))
	for i := range out {
		out[i] = true
	}
	return out
}

// shuffledDrafts makes the negatives with boilerplate: paragraphs of an
// article's words in random order. Build fails if one of their sentences
// matches an article (it never should).
func (b *builder) shuffledDrafts(first int) []*draft {
	var out []*draft
	for i := range b.cfg.Shuffled {
		si := i % len(b.sources)
		r := newRNG(b.cfg.Seed, fmt.Sprintf("shuffled:%d", i))
		a := &b.sources[si][r.intn(len(b.sources[si]))]
		vocab := vocabulary(a.Sentences)
		if len(vocab) < 20 {
			continue
		}
		host := (first + i) % len(b.templates)
		ref := refOf(a)
		d := &draft{host: host, label: Label{Page: PageShuffled, Lang: a.Lang, Host: b.templates[host].URL, Vocabulary: &ref}}
		for range 3 {
			var ss []string
			for range 3 {
				s := salad(r, vocab)
				ss = append(ss, s)
				b.query(s, func(src, art int, j float64) { d.matched = true })
			}
			d.paras = append(d.paras, strings.Join(ss, " "))
		}
		d.title = strings.TrimSuffix(salad(r, vocab[:20]), ".")
		out = append(out, d)
	}
	return out
}

// salad is a sentence of 12 to 20 words of vocab in random order.
func salad(r *rng, vocab []string) string {
	n := r.between(12, 20)
	ws := make([]string, n)
	for i := range ws {
		ws[i] = vocab[r.intn(len(vocab))]
	}
	s := strings.Join(ws, " ") + "."
	r0, n0 := utf8.DecodeRuneInString(s)
	return string(unicode.ToUpper(r0)) + s[n0:]
}

// minChecked is the length, in characters, from which a real page's
// sentences are checked against the articles: shorter ones are far below
// the pipeline's window.
const minChecked = 40

// realDrafts are the untouched real pages; a real page whose text matches
// an article is left out.
func (b *builder) realDrafts() []*draft {
	var out []*draft
	for _, p := range b.reals {
		d := &draft{raw: p.Body, label: Label{URL: p.URL, Page: PageReal, Host: p.URL}}
		for _, para := range hostParagraphs(p.Body) {
			for _, sp := range sentence.Split(para) {
				if s := para[sp.Start:sp.End]; utf8.RuneCountInString(s) >= minChecked {
					b.query(s, func(int, int, float64) { d.matched = true })
				}
			}
		}
		out = append(out, d)
	}
	return out
}
