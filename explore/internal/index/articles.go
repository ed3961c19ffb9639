package index

import (
	"fmt"
	"sync"
)

// articles is the table of distinct articles (wiki and page id) of a run's
// clusters, in columns: a cluster refers to its articles by their index.
type articles struct {
	wikis    []uint16 // index into Run.wikis
	pages    []int64
	titleEnd []uint32 // article i's title is titles[titleEnd[i-1]:titleEnd[i]]
	titles   []byte
	folded   foldedTitles
}

func (a *articles) len() int { return len(a.pages) }

func (a *articles) title(i int) string { return string(a.titleBytes(i)) }

func (a *articles) titleBytes(i int) []byte {
	start := uint32(0)
	if i > 0 {
		start = a.titleEnd[i-1]
	}
	return a.titles[start:a.titleEnd[i]]
}

// add appends an article.
func (a *articles) add(wiki uint16, page int64, title []byte) {
	a.wikis = append(a.wikis, wiki)
	a.pages = append(a.pages, page)
	a.titles = append(a.titles, title...)
	a.titleEnd = append(a.titleEnd, uint32(len(a.titles)))
}

// The articles are collected by many goroutines at once into stripes, each
// with its own lock, chosen by a hash of the article; a reference made
// while loading is the stripe's number and the article's index in it, and
// becomes an index into the whole table when the stripes are joined.
const (
	stripeBits = 6
	localBits  = 32 - stripeBits
)

// maxPage bounds the page ids the explorer takes (MediaWiki's are 32-bit),
// so that a wiki and a page id make one 64-bit key.
const maxPage = 1<<48 - 1

type stripe struct {
	mu   sync.Mutex
	ids  map[uint64]uint32 // by wiki << 48 | page id
	arts articles
}

// articleSet is the article table being collected.
type articleSet struct {
	stripes [1 << stripeBits]stripe
}

// ref returns the loading reference of an article, adding it if it is new.
// An article keeps the title it was first added with.
func (s *articleSet) ref(wiki uint16, page int64, title []byte) (uint32, error) {
	k := uint64(wiki)<<48 | uint64(page)
	h := (k * 0x9e3779b97f4a7c15) >> (64 - stripeBits)
	st := &s.stripes[h]
	st.mu.Lock()
	defer st.mu.Unlock()
	if id, ok := st.ids[k]; ok {
		return uint32(h)<<localBits | id, nil
	}
	id := uint32(st.arts.len())
	if id >= 1<<localBits || len(st.arts.titles)+len(title) >= 1<<32 {
		return 0, fmt.Errorf("more than %d articles", 1<<32)
	}
	if st.ids == nil {
		st.ids = map[uint64]uint32{}
	}
	st.ids[k] = id
	st.arts.add(wiki, page, title)
	return uint32(h)<<localBits | id, nil
}

// join returns the whole table and the function that turns a loading
// reference into an index into it.
func (s *articleSet) join() (articles, func(uint32) uint32, error) {
	var all articles
	var base [1 << stripeBits]uint32
	n, bytes := 0, 0
	for i := range s.stripes {
		s.stripes[i].ids = nil // no article is added any more: let the garbage collector have the maps
		base[i] = uint32(n)
		n += s.stripes[i].arts.len()
		bytes += len(s.stripes[i].arts.titles)
	}
	if n >= 1<<32 || bytes >= 1<<32 {
		return articles{}, nil, fmt.Errorf("%d articles with %d bytes of titles: too many", n, bytes)
	}
	all.wikis = make([]uint16, 0, n)
	all.pages = make([]int64, 0, n)
	all.titleEnd = make([]uint32, 0, n)
	all.titles = make([]byte, 0, bytes)
	for i := range s.stripes {
		st := &s.stripes[i].arts
		off := uint32(len(all.titles))
		all.wikis = append(all.wikis, st.wikis...)
		all.pages = append(all.pages, st.pages...)
		for _, e := range st.titleEnd {
			all.titleEnd = append(all.titleEnd, off+e)
		}
		all.titles = append(all.titles, st.titles...)
		s.stripes[i] = stripe{}
	}
	resolve := func(ref uint32) uint32 { return base[ref>>localBits] + ref&(1<<localBits-1) }
	return all, resolve, nil
}
