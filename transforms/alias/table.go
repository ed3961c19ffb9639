package alias

import (
	"cmp"
	"encoding/binary"
	"fmt"
	"slices"

	"github.com/neardup/neardup/internal/varint"
)

// MaxSenses is the most articles a Table keeps for one name: those it
// names directly (the name is their title or redirects to them) first,
// then those its links target on the most pages.
const MaxSenses = 4

// Table tells, for each wiki, which articles the names written in its text
// name. The zero Table knows no name. A Table is read-only once decoded
// and safe for concurrent use. It implements categorize.Entities.
type Table struct {
	wikis map[string]*names
}

// names is one wiki's part of a Table.
type names struct {
	articles []string        // the titles of the articles named, sorted
	senses   map[string]span // by key: the articles' indices in senses
	index    []uint32        // indices into articles, best first per name
}

// span locates a name's articles in names.index.
type span struct{ off, n uint32 }

// Articles returns the articles that name names in wiki, best first: those
// it is the title of or redirects to, then those its links target on the
// most pages. It returns nil for a name the table does not know.
func (t *Table) Articles(wiki, name string) []string {
	w := t.wikis[wiki]
	if w == nil {
		return nil
	}
	sp, ok := w.senses[Key(name)]
	if !ok {
		return nil
	}
	out := make([]string, sp.n)
	for i, a := range w.index[sp.off : sp.off+sp.n] {
		out[i] = w.articles[a]
	}
	return out
}

// SameEntity reports whether names a and b, as written in wiki's text, name
// one article, and which: of the articles both name, the one best placed
// in the two lists (the sum of its ranks; ties by title). Names the table
// does not know name nothing.
func (t *Table) SameEntity(wiki, a, b string) (string, bool) {
	w := t.wikis[wiki]
	if w == nil {
		return "", false
	}
	sa, okA := w.senses[Key(a)]
	sb, okB := w.senses[Key(b)]
	if !okA || !okB {
		return "", false
	}
	ia, ib := w.index[sa.off:sa.off+sa.n], w.index[sb.off:sb.off+sb.n]
	best, bestRank := -1, 0
	for i, x := range ia {
		j := slices.Index(ib, x)
		if j < 0 {
			continue
		}
		rank := i + j
		if best < 0 || rank < bestRank || rank == bestRank && w.articles[x] < w.articles[best] {
			best, bestRank = int(x), rank
		}
	}
	if best < 0 {
		return "", false
	}
	return w.articles[best], true
}

// Wikis returns the wikis the table knows, sorted.
func (t *Table) Wikis() []string {
	out := make([]string, 0, len(t.wikis))
	for w := range t.wikis {
		out = append(out, w)
	}
	slices.Sort(out)
	return out
}

// Len returns how many names, and how many articles, the table knows of
// wiki.
func (t *Table) Len(wiki string) (names, articles int) {
	if w := t.wikis[wiki]; w != nil {
		return len(w.senses), len(w.articles)
	}
	return 0, 0
}

// Entries returns the names the table knows of wiki, in key order, with
// their articles.
func (t *Table) Entries(wiki string) []Entry {
	w := t.wikis[wiki]
	if w == nil {
		return nil
	}
	out := make([]Entry, 0, len(w.senses))
	for key, sp := range w.senses {
		e := Entry{Key: key, Articles: make([]string, sp.n)}
		for i, a := range w.index[sp.off : sp.off+sp.n] {
			e.Articles[i] = w.articles[a]
		}
		out = append(out, e)
	}
	slices.SortFunc(out, func(a, b Entry) int { return cmp.Compare(a.Key, b.Key) })
	return out
}

// Entry is a name and the articles it names, best first: what a Table holds
// for one key.
type Entry struct {
	Key      string
	Articles []string
}

// newNames indexes a wiki's entries, which must have distinct keys.
func newNames(entries []Entry) *names {
	w := &names{senses: make(map[string]span, len(entries))}
	seen := map[string]bool{}
	for _, e := range entries {
		for _, a := range e.Articles {
			if !seen[a] {
				seen[a] = true
				w.articles = append(w.articles, a)
			}
		}
	}
	slices.Sort(w.articles)
	for _, e := range entries {
		sp := span{off: uint32(len(w.index)), n: uint32(len(e.Articles))}
		for _, a := range e.Articles {
			i, _ := slices.BinarySearch(w.articles, a)
			w.index = append(w.index, uint32(i))
		}
		w.senses[e.Key] = sp
	}
	return w
}

// tableVersion is the first byte of an encoded Table.
const tableVersion = 1

// AppendWiki appends the encoding of a Table holding only wiki, whose names
// are entries (distinct keys), to b: byte for byte the same for the same
// entries in any order. MergeEncoded joins such encodings.
func AppendWiki(b []byte, wiki string, entries []Entry) []byte {
	entries = slices.Clone(entries)
	slices.SortFunc(entries, func(x, y Entry) int { return cmp.Compare(x.Key, y.Key) })
	w := newNames(entries)
	var body []byte
	body = binary.AppendUvarint(body, uint64(len(w.articles)))
	for _, a := range w.articles {
		body = varint.AppendString(body, a)
	}
	body = binary.AppendUvarint(body, uint64(len(entries)))
	for _, e := range entries {
		body = varint.AppendString(body, e.Key)
		sp := w.senses[e.Key]
		body = binary.AppendUvarint(body, uint64(sp.n))
		for _, i := range w.index[sp.off : sp.off+sp.n] {
			body = binary.AppendUvarint(body, uint64(i))
		}
	}
	if len(b) == 0 {
		b = append(b, tableVersion)
	}
	b = varint.AppendString(b, wiki)
	b = binary.AppendUvarint(b, uint64(len(body)))
	return append(b, body...)
}

// section is one wiki's part of an encoded Table.
type section struct {
	wiki string
	body []byte
}

// sections splits an encoded Table into its wikis' parts, in order.
func sections(b []byte) ([]section, error) {
	if len(b) == 0 {
		return nil, nil
	}
	if b[0] != tableVersion {
		return nil, fmt.Errorf("alias: table of version %d, want %d", b[0], tableVersion)
	}
	d := varint.NewDecoder(b[1:])
	var out []section
	for d.Len() > 0 && d.Err() == nil {
		s := section{wiki: string(d.Bytes())}
		s.body = d.Bytes()
		out = append(out, s)
	}
	return out, d.Err()
}

// MergeEncoded joins two encoded Tables of different wikis into one, its
// wikis sorted by name, so that the result does not depend on the order of
// the merges. A wiki in both is an error.
func MergeEncoded(a, b []byte) ([]byte, error) {
	sa, err := sections(a)
	if err != nil {
		return nil, err
	}
	sb, err := sections(b)
	if err != nil {
		return nil, err
	}
	all := append(sa, sb...)
	slices.SortFunc(all, func(x, y section) int { return cmp.Compare(x.wiki, y.wiki) })
	if len(all) == 0 {
		return nil, nil
	}
	out := []byte{tableVersion}
	for i, s := range all {
		if i > 0 && all[i-1].wiki == s.wiki {
			return nil, fmt.Errorf("alias: two tables of wiki %q", s.wiki)
		}
		out = varint.AppendString(out, s.wiki)
		out = binary.AppendUvarint(out, uint64(len(s.body)))
		out = append(out, s.body...)
	}
	return out, nil
}

// UnmarshalBinary decodes an encoded Table (AppendWiki, MergeEncoded). Its
// strings share one allocation.
func (t *Table) UnmarshalBinary(b []byte) error {
	secs, err := sections(b)
	if err != nil {
		return err
	}
	t.wikis = make(map[string]*names, len(secs))
	for _, s := range secs {
		w, err := decodeNames(s.body)
		if err != nil {
			return fmt.Errorf("alias: table of wiki %q: %w", s.wiki, err)
		}
		t.wikis[s.wiki] = w
	}
	return nil
}

// decodeNames decodes one wiki's part of a Table.
func decodeNames(body []byte) (*names, error) {
	text := string(body) // every string of the wiki slices this one
	d := varint.NewDecoder(body)
	off := func(p []byte) int { return len(body) - d.Len() - len(p) }
	str := func() string {
		p := d.Bytes()
		if d.Err() != nil {
			return ""
		}
		o := off(p)
		return text[o : o+len(p)]
	}
	w := &names{}
	n := d.Count(1)
	w.articles = make([]string, 0, n)
	for range n {
		w.articles = append(w.articles, str())
	}
	m := d.Count(1)
	w.senses = make(map[string]span, m)
	for range m {
		key := str()
		k := d.Count(1)
		sp := span{off: uint32(len(w.index)), n: uint32(k)}
		for range k {
			i := d.Uvarint()
			if i >= uint64(len(w.articles)) {
				return nil, fmt.Errorf("name %q: article %d of %d", key, i, len(w.articles))
			}
			w.index = append(w.index, uint32(i))
		}
		w.senses[key] = sp
	}
	return w, d.Done()
}
