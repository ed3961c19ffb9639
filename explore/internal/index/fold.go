package index

import (
	"strings"
	"sync"
	"unicode"
	"unicode/utf8"

	"golang.org/x/text/unicode/norm"
)

// Fold maps s to the form titles are searched in: each letter to one
// representative of its case (A, a → a; Σ, σ, ς → σ) without its accents
// (é → e, ί → ι, が → か: the combining marks of Unicode's Inherited script
// that canonical decomposition splits off, or that s holds already
// decomposed; a script's own marks, such as Bengali's vowel signs, stay),
// underscores, which stand for spaces in page names, to spaces, and NUL
// bytes, which separate titles in the search text, dropped. A search is
// thus case- and accent-insensitive, as a collation at primary strength is.
func Fold(s string) string {
	return string(appendFold(nil, []byte(s)))
}

func appendFold(dst, s []byte) []byte {
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			switch {
			case 'A' <= c && c <= 'Z':
				c += 'a' - 'A'
			case c == '_':
				c = ' '
			case c == 0:
				i++
				continue
			}
			dst = append(dst, c)
			i++
			continue
		}
		p := norm.NFD.Properties(s[i:])
		size := max(p.Size(), 1)
		if d := p.Decomposition(); d != nil {
			dst = appendFoldRunes(dst, d)
		} else {
			dst = appendFoldRunes(dst, s[i:i+size])
		}
		i += size
	}
	return dst
}

// appendFoldRunes appends the runes of s, each folded to one case, less the
// accents.
func appendFoldRunes(dst, s []byte) []byte {
	for len(s) > 0 {
		r, size := utf8.DecodeRune(s)
		s = s[size:]
		if unicode.Is(unicode.Mn, r) && unicode.Is(unicode.Inherited, r) {
			continue
		}
		dst = utf8.AppendRune(dst, unicode.ToLower(unicode.ToUpper(r)))
	}
	return dst
}

// foldedTitles is every article's title folded, each followed by a NUL,
// in article order, so that one substring search finds every title that
// holds a query.
type foldedTitles struct {
	text  string
	start []uint32 // article i's title starts at text[start[i]]; start[n] = len(text)
}

// foldTitles folds the titles of a on workers goroutines.
func foldTitles(a *articles, workers int) foldedTitles {
	n := a.len()
	parts := make([][]byte, workers)
	starts := make([][]uint32, workers)
	var wg sync.WaitGroup
	for w := range workers {
		lo, hi := n*w/workers, n*(w+1)/workers
		wg.Go(func() {
			var buf []byte
			st := make([]uint32, 0, hi-lo)
			for i := lo; i < hi; i++ {
				st = append(st, uint32(len(buf)))
				buf = appendFold(buf, a.titleBytes(i))
				buf = append(buf, 0)
			}
			parts[w], starts[w] = buf, st
		})
	}
	wg.Wait()
	var sb strings.Builder
	total := 0
	for _, p := range parts {
		total += len(p)
	}
	sb.Grow(total)
	f := foldedTitles{start: make([]uint32, 0, n+1)}
	for w, p := range parts {
		off := uint32(sb.Len())
		for _, s := range starts[w] {
			f.start = append(f.start, off+s)
		}
		sb.Write(p)
	}
	f.start = append(f.start, uint32(sb.Len()))
	f.text = sb.String()
	return f
}

// match calls found with the index of every article whose folded title
// holds q (folded), in order.
func (f *foldedTitles) match(q string, found func(int)) {
	if q == "" {
		return
	}
	for pos := 0; pos < len(f.text); {
		j := strings.Index(f.text[pos:], q)
		if j < 0 {
			return
		}
		i := f.article(pos + j)
		found(i)
		pos = int(f.start[i+1])
	}
}

// article returns the article whose title holds text[pos].
func (f *foldedTitles) article(pos int) int {
	lo, hi := 0, len(f.start)-1 // start[lo] <= pos < start[hi]
	for hi-lo > 1 {
		m := int(uint(lo+hi) >> 1)
		if int(f.start[m]) <= pos {
			lo = m
		} else {
			hi = m
		}
	}
	return lo
}
