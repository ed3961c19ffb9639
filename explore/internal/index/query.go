package index

import (
	"slices"
	"strings"
)

// Query selects clusters. Its zero value selects every cluster, largest
// first.
type Query struct {
	Kinds      []string // any of these categories; none: any
	SizeMin    int      // 0: no bound
	SizeMax    int      // 0: no bound
	Title      string   // a substring of the title of an article of the cluster, in any case ("" : any)
	Text       string   // a substring of a listed member's text, folded as titles are ("": any)
	JaccardMin *float64 // bounds of the cohesion's least Jaccard similarity
	JaccardMax *float64
	EditMax    *float64 // bound of the cohesion's largest edit distance
	Article    *int     // only clusters with a member in this article (an Article.Index)
	ByID       bool     // sort by id (wiki, page id, revision, sentence) rather than by size, largest first
}

// Page is a page of the clusters a query selects.
type Page struct {
	Matches  int   // clusters selected
	Clusters []int // the indexes of those of the page, in the query's order
	// TextsPending reports that the query searches texts but the sentence
	// index is not built (TextState says how far it is): nothing matches.
	TextsPending bool
}

// Filter returns the clusters of q from the offset-th (from 0), at most
// limit of them, and how many q selects in all.
//
// The records are read in the order they are stored, which the memory
// reads ahead of, into a bit set of the selected clusters; the query's
// order then walks the bit set, which the cache holds.
func (r *Run) Filter(q Query, offset, limit int) Page {
	m := r.matcher(q)
	var p Page
	if t := Fold(strings.TrimSpace(q.Text)); t != "" {
		built := r.texts.built.Load()
		if built == nil {
			p.TextsPending = true
			return p
		}
		m.texts = built.matchTexts(t)
	}
	if m.none {
		return p
	}
	selected := make([]uint64, (len(r.clusters)+63)/64)
	for i := range r.clusters {
		if m.match(&r.clusters[i], r.refs) && (m.texts == nil || m.texts[i/64]&(1<<(i%64)) != 0) {
			selected[i/64] |= 1 << (i % 64)
			p.Matches++
		}
	}
	order := r.bySize
	if q.ByID {
		order = r.byID
	}
	seen := 0
	for _, i := range order {
		if seen >= offset+limit {
			break
		}
		if selected[i/64]&(1<<(i%64)) == 0 {
			continue
		}
		if seen >= offset {
			p.Clusters = append(p.Clusters, int(i))
		}
		seen++
	}
	return p
}

// matcher is a query compiled against the run.
type matcher struct {
	none       bool   // no cluster can match
	kinds      []bool // by kind index; nil: any
	sizeMin    uint32
	sizeMax    uint32
	jMin, jMax float32
	eMax       float32
	arts       []uint64 // bit set of the articles a cluster must have one of; nil: any
	texts      []uint64 // bit set of the clusters whose texts match; nil: any
}

func (r *Run) matcher(q Query) matcher {
	m := matcher{sizeMin: uint32(max(q.SizeMin, 0)), sizeMax: ^uint32(0), jMin: -1, jMax: 2, eMax: 2}
	if q.SizeMax > 0 {
		m.sizeMax = uint32(min(q.SizeMax, 1<<32-1))
	}
	if q.SizeMin > 1<<32-1 {
		m.none = true
	}
	if q.JaccardMin != nil {
		m.jMin = float32(*q.JaccardMin)
	}
	if q.JaccardMax != nil {
		m.jMax = float32(*q.JaccardMax)
	}
	if q.EditMax != nil {
		m.eMax = float32(*q.EditMax)
	}
	if len(q.Kinds) > 0 {
		m.kinds = make([]bool, len(r.kinds))
		m.none = true
		for i, k := range r.kinds {
			if slices.Contains(q.Kinds, k) {
				m.kinds[i], m.none = true, false
			}
		}
	}
	var some bool
	m.arts, some = r.articleSet(q)
	if m.arts != nil && !some {
		m.none = true
	}
	return m
}

// articleSet returns the articles a cluster of q must have one of (nil:
// any), and whether there are any.
func (r *Run) articleSet(q Query) (set []uint64, some bool) {
	title := Fold(strings.TrimSpace(q.Title))
	if title == "" && q.Article == nil {
		return nil, true
	}
	set = make([]uint64, (r.arts.len()+63)/64)
	if title != "" {
		r.arts.folded.match(title, func(i int) { set[i/64] |= 1 << (i % 64); some = true })
	}
	if a := q.Article; a != nil {
		in := *a >= 0 && *a < r.arts.len() && (title == "" || set[*a/64]&(1<<(*a%64)) != 0)
		clear(set)
		if in {
			set[*a/64] |= 1 << (*a % 64)
		}
		some = in
	}
	return set, some
}

func (m *matcher) match(c *record, refs []uint32) bool {
	if m.kinds != nil && !m.kinds[c.kind] || c.size < m.sizeMin || c.size > m.sizeMax ||
		c.minJ < m.jMin || c.minJ > m.jMax || c.maxE > m.eMax {
		return false
	}
	if m.arts == nil {
		return true
	}
	for _, a := range refs[c.refs : c.refs+c.nrefs] {
		if m.arts[a/64]&(1<<(a%64)) != 0 {
			return true
		}
	}
	return false
}
