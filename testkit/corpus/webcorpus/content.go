package webcorpus

import (
	"fmt"
	"strings"
)

// contentDrafts makes the content-reuse pages, cycling through the
// sources' languages: verbatim, edited, two-article and same-article
// pages.
func (b *builder) contentDrafts() ([]draft, error) {
	var out []draft
	turn := 0
	next := func(n int, pick func(si int) ([]*chunk, bool)) error {
		for range n {
			cs, ok := b.cycle(&turn, pick)
			if !ok {
				return fmt.Errorf("webcorpus: not enough passages without a sentence shared with another article (raise Config.Candidates)")
			}
			out = append(out, b.contentDraft(cs, len(out)))
		}
		return nil
	}
	one := func(si int) ([]*chunk, bool) {
		c, ok := b.take(si, anyChunk)
		return []*chunk{c}, ok
	}
	if err := next(b.cfg.Verbatim, one); err != nil {
		return nil, err
	}
	start := len(out)
	if err := next(b.cfg.Edited, one); err != nil {
		return nil, err
	}
	for i := start; i < len(out); i++ {
		b.edit(&out[i], i)
	}
	if err := next(b.cfg.TwoArticles, b.twoArticles); err != nil {
		return nil, err
	}
	for i := range b.cfg.SameArticle {
		cs, ok := b.cycle(&turn, b.sameArticle)
		if !ok {
			return nil, fmt.Errorf("webcorpus: no article with two passages left for same-article pair %d", i)
		}
		for _, c := range cs {
			d := b.contentDraft([]*chunk{c}, len(out))
			d.label.Page = PageSameArticle
			out = append(out, d)
		}
	}
	return out, nil
}

// cycle calls pick with the sources in turn, from *turn on, until one
// gives passages.
func (b *builder) cycle(turn *int, pick func(si int) ([]*chunk, bool)) ([]*chunk, bool) {
	for range len(b.sources) {
		si := *turn % len(b.sources)
		*turn++
		if cs, ok := pick(si); ok {
			return cs, true
		}
	}
	return nil, false
}

func (b *builder) twoArticles(si int) ([]*chunk, bool) {
	first, ok := b.take(si, anyChunk)
	if !ok {
		return nil, false
	}
	second, ok := b.take(si, func(c *chunk) bool { return c.art != first.art })
	if !ok {
		b.chunks[si] = append([]*chunk{first}, b.chunks[si]...)
		return nil, false
	}
	return []*chunk{first, second}, true
}

func (b *builder) sameArticle(si int) ([]*chunk, bool) {
	for _, c := range b.chunks[si] {
		for _, d := range b.chunks[si] {
			if d != c && d.art == c.art {
				b.take(si, func(x *chunk) bool { return x == c })
				b.take(si, func(x *chunk) bool { return x == d })
				return []*chunk{c, d}, true
			}
		}
	}
	return nil, false
}

// contentDraft is a page copying the passages verbatim, after a sentence
// of its host's own text.
func (b *builder) contentDraft(cs []*chunk, n int) draft {
	host := n % len(b.templates)
	page := PageVerbatim
	if len(cs) == 2 {
		page = PageTwoArticles
	}
	first := &b.sources[cs[0].src][cs[0].art]
	d := draft{host: host, title: first.Title, label: Label{Page: page, Lang: first.Lang, Host: b.templates[host].URL}}
	if in := b.intros[host]; in != "" {
		d.label.HostText = []string{in}
	}
	for _, c := range cs {
		a := &b.sources[c.src][c.art]
		r := Reuse{Article: refOf(a), Kind: Content}
		for o := c.first; o <= c.last; o++ {
			t := a.Sentences[o].Text
			r.Copied = append(r.Copied, Copied{Ordinal: o, Text: t, Page: t, Jaccard: 1})
		}
		d.label.Reuses = append(d.label.Reuses, r)
	}
	return d
}

// edit edits the sentences of a one-passage draft lightly, and the
// passage as a whole: a middle sentence dropped, or two swapped.
func (b *builder) edit(d *draft, n int) {
	d.label.Page = PageEdited
	r := &d.label.Reuses[0]
	a := b.article(r.Article)
	e := &editor{r: newRNG(b.cfg.Seed, fmt.Sprintf("edit:%d", n)), lang: a.Lang, vocab: vocabulary(a.Sentences)}
	for i := range r.Copied {
		c := &r.Copied[i]
		if e.r.intn(4) == 0 {
			continue
		}
		page, kind := e.edit(c.Text)
		if kind != "" {
			c.Page, c.Edits, c.Jaccard = page, []string{describe(kind, c.Text, page)}, Jaccard(c.Text, page)
		}
	}
	if len(r.Copied) < 4 {
		return
	}
	i := 1 + e.r.intn(len(r.Copied)-2)
	switch e.r.intn(3) {
	case 0:
		r.Copied[i].Page, r.Copied[i].Jaccard = "", 0
		r.PassageEdits = []string{fmt.Sprintf("%s %d", EditDropSentence, r.Copied[i].Ordinal)}
	case 1:
		r.PassageEdits = []string{fmt.Sprintf("%s %d %d", EditSwap, r.Copied[i].Ordinal, r.Copied[i+1].Ordinal)}
	}
}

// article returns the article ref names.
func (b *builder) article(ref ArticleRef) *Article {
	for si, src := range b.cfg.Sources {
		if src.File != ref.File {
			continue
		}
		for ai := range b.sources[si] {
			if b.sources[si][ai].PageID == ref.PageID {
				return &b.sources[si][ai]
			}
		}
	}
	return nil
}

// paragraphs returns the page text of a draft's reuses: one paragraph
// for each paragraph of an article the copied sentences come from, in
// page order (a swap applied), after the host's text.
func (b *builder) paragraphs(d *draft) []string {
	out := append([]string(nil), d.label.HostText...)
	for _, r := range d.label.Reuses {
		a := b.article(r.Article)
		copied := append([]Copied(nil), r.Copied...)
		var swapA, swapB int
		if len(r.PassageEdits) == 1 {
			if _, err := fmt.Sscanf(r.PassageEdits[0], EditSwap+" %d %d", &swapA, &swapB); err == nil {
				for i := range copied[:len(copied)-1] {
					if copied[i].Ordinal == swapA {
						copied[i], copied[i+1] = copied[i+1], copied[i]
						break
					}
				}
			}
		}
		var cur []string
		para := -1
		for _, c := range copied {
			if c.Page == "" {
				continue
			}
			if p := a.Sentences[c.Ordinal].Para; p != para && len(cur) > 0 {
				out = append(out, strings.Join(cur, " "))
				cur = nil
			}
			para = a.Sentences[c.Ordinal].Para
			cur = append(cur, c.Page)
		}
		if len(cur) > 0 {
			out = append(out, strings.Join(cur, " "))
		}
	}
	return out
}
