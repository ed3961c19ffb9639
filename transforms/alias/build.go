package alias

import (
	"cmp"
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/neardup/neardup/internal/counters"
	"github.com/neardup/neardup/internal/varint"
	"github.com/neardup/neardup/io/document"
	"github.com/neardup/neardup/io/dump"
	"github.com/neardup/neardup/transforms/clean"
	"github.com/neardup/neardup/transforms/wikitext"
)

// Kind says what makes a name name an article.
type Kind uint8

// Kinds of claims, the strongest first.
const (
	KindTitle    Kind = iota // the name is the article's title
	KindRedirect             // the name is a redirect to the article
	KindLink                 // a link to the article shows the name
)

// Claim says that a name, written in a wiki's text, names an article.
type Claim struct {
	Wiki    string
	Key     string // the name's Key
	Name    string // the name's Title, for a redirect: links to it are resolved through it
	Article string // the Title of the article named
	Kind    Kind
	// Doc is the page revision that holds a link, so that a page read twice
	// counts once; 0 for titles and redirects.
	Doc uint64
}

// Bounds of the names and titles that make claims.
const (
	// MaxNameRunes bounds the runes of a name: longer link texts are
	// phrases, not names.
	MaxNameRunes = 64
	// MaxRedirectHops is the most redirects followed from a link's target
	// to the article: a double redirect is resolved, a loop is not
	// followed round.
	MaxRedirectHops = 4
)

// Namespaces are the names of a wiki's namespaces other than the main one
// (document.Site.Names), which link targets and redirects to other pages than
// articles start with ("Help:Contents").
type Namespaces map[string]bool

// NewNamespaces indexes names by namespace key, the main namespace (0)
// excepted.
func NewNamespaces(names map[int][]string) Namespaces {
	ns := Namespaces{}
	for key, list := range names {
		if key == 0 {
			continue
		}
		for _, n := range list {
			ns[Key(n)] = true
		}
	}
	return ns
}

// isArticle reports whether title (a Title) is not namespace-prefixed.
func (ns Namespaces) isArticle(title string) bool {
	colon := strings.IndexByte(title, ':')
	return colon < 0 || !ns[Key(title[:colon])]
}

// Page is what a page gives the table: its wiki, revision, title and links.
type Page struct {
	Wiki  string
	ID    int64
	RevID int64
	Title string
	Links []wikitext.Link
}

// doc identifies a page's revision within its wiki.
func (p Page) doc() uint64 {
	if p.RevID > 0 {
		return uint64(p.RevID) << 1
	}
	return uint64(p.ID)<<1 | 1
}

// AppendPageClaims appends to dst the claims of a page: its title names
// it, and each link's text names the link's target. A link to a section
// of a page ([[Abidjan#Religion|the cathedral]]) names the section, not the
// page, and makes no claim, nor does a link to a page of another namespace
// or a link text without a letter or longer than MaxNameRunes. A link
// repeated on the page claims once.
func AppendPageClaims(dst []Claim, p Page, ns Namespaces) []Claim {
	start := len(dst)
	if t := Title(p.Title); t != "" && ns.isArticle(t) {
		if k := Key(t); k != "" {
			dst = append(dst, Claim{Wiki: p.Wiki, Key: k, Article: t, Kind: KindTitle})
		}
	}
	doc := p.doc()
	for _, l := range p.Links {
		if strings.IndexByte(l.Target, '#') >= 0 || !isName(l.Anchor) {
			continue
		}
		t := Title(l.Target)
		if t == "" || !ns.isArticle(t) {
			continue
		}
		if k := Key(l.Anchor); k != "" {
			dst = append(dst, Claim{Wiki: p.Wiki, Key: k, Article: t, Kind: KindLink, Doc: doc})
		}
	}
	page := dst[start:]
	slices.SortFunc(page, compareClaims)
	return dst[:start+len(slices.CompactFunc(page, func(a, b Claim) bool { return compareClaims(a, b) == 0 }))]
}

// AppendRedirectClaims appends to dst the claims of a redirect page: its
// title names its target, and the target names itself. A redirect to a
// section of the target (its text's link has a fragment: "Hệ quản trị cơ
// sở dữ liệu" → [[Cơ sở dữ liệu#Hệ thống quản lý…]]) names a part of it and
// claims nothing, nor does a redirect to another namespace.
func AppendRedirectClaims(dst []Claim, wiki, title, target, text string, ns Namespaces) []Claim {
	from, to := Title(title), Title(target)
	if from == "" || to == "" || !ns.isArticle(to) || toSection(text) {
		return dst
	}
	kf, kt := Key(from), Key(to)
	if kf == "" || kt == "" {
		return dst
	}
	dst = append(dst, Claim{Wiki: wiki, Key: kf, Name: from, Article: to, Kind: KindRedirect})
	return append(dst, Claim{Wiki: wiki, Key: kt, Article: to, Kind: KindTitle})
}

// toSection reports whether a redirect page's text links to a section: its
// first link's target holds a '#'.
func toSection(text string) bool {
	i := strings.Index(text, "[[")
	if i < 0 {
		return false
	}
	j := strings.Index(text[i:], "]]")
	if j < 0 {
		return false
	}
	return strings.IndexByte(text[i:i+j], '#') >= 0
}

// isName reports whether a link text may be a name: it holds a letter and
// at most MaxNameRunes runes.
func isName(s string) bool {
	return utf8.RuneCountInString(s) <= MaxNameRunes && strings.IndexFunc(s, unicode.IsLetter) >= 0
}

func compareClaims(a, b Claim) int {
	return cmp.Or(cmp.Compare(a.Wiki, b.Wiki), cmp.Compare(a.Key, b.Key), cmp.Compare(a.Kind, b.Kind),
		cmp.Compare(a.Article, b.Article), cmp.Compare(a.Name, b.Name), cmp.Compare(a.Doc, b.Doc))
}

// AppendBinary appends c, all but its wiki, to b: the end of a
// shuffle.KindClaims record, whose wiki index precedes it.
func (c Claim) AppendBinary(b []byte) []byte {
	b = append(b, byte(c.Kind))
	b = varint.AppendString(b, c.Key)
	b = varint.AppendString(b, c.Name)
	b = varint.AppendString(b, c.Article)
	return binary.AppendUvarint(b, c.Doc)
}

// UnmarshalBinary decodes what AppendBinary wrote into c, all but the
// wiki, which it leaves as it was.
func (c *Claim) UnmarshalBinary(b []byte) error {
	if len(b) == 0 {
		return fmt.Errorf("alias: claim: %w", varint.ErrShort)
	}
	if Kind(b[0]) > KindLink {
		return fmt.Errorf("alias: claim of kind %d", b[0])
	}
	d := varint.NewDecoder(b[1:])
	c.Kind = Kind(b[0])
	c.Key, c.Name, c.Article = d.Text(), d.Text(), d.Text()
	c.Doc = d.Uvarint()
	if err := d.Done(); err != nil {
		return fmt.Errorf("alias: claim: %w", err)
	}
	return nil
}

// Sense is an article a name names by its links, and on how many pages.
type Sense struct {
	Article string
	Pages   int
}

// Redirect is a redirect page's title and its target, both Titles.
type Redirect struct{ From, To string }

// Candidate is what the claims about one name (one key of a wiki) say,
// before the table keeps it or not.
type Candidate struct {
	Key string
	// Weight is how much the name is used: the pages that link with it,
	// plus one for each article it is the title of or redirects to. The
	// table keeps the heaviest names.
	Weight    int
	Titles    []string   // the articles the name is the title of, sorted
	Redirects []Redirect // the redirects spelt with the name, sorted
	// Links are the articles the name's links target, the most pages
	// first (ties by title), at most 2×MaxSenses: room for the senses that
	// resolving the redirects merges.
	Links []Sense
}

// Candidates gathers claims (all of one wiki) by key, in key order; each
// distinct page counts once for a link. It sorts claims and counts the
// distinct redirect and link claims, and the link senses beyond
// 2×MaxSenses it dropped.
func Candidates(claims []Claim) (out []Candidate, counts counters.Aliases) {
	slices.SortFunc(claims, compareClaims)
	claims = slices.CompactFunc(claims, func(a, b Claim) bool { return compareClaims(a, b) == 0 })
	for _, c := range claims {
		switch c.Kind {
		case KindRedirect:
			counts.RedirectClaims++
		case KindLink:
			counts.LinkClaims++
		}
	}
	for i := 0; i < len(claims); {
		j := i + 1
		for j < len(claims) && claims[j].Key == claims[i].Key {
			j++
		}
		c, d := candidate(claims[i:j])
		out = append(out, c)
		counts.ArticlesDropped += int64(d)
		i = j
	}
	return out, counts
}

// candidate gathers the sorted claims of one key.
func candidate(claims []Claim) (Candidate, int) {
	c := Candidate{Key: claims[0].Key}
	for _, cl := range claims {
		switch cl.Kind {
		case KindTitle:
			if n := len(c.Titles); n == 0 || c.Titles[n-1] != cl.Article {
				c.Titles = append(c.Titles, cl.Article)
			}
		case KindRedirect:
			r := Redirect{From: cl.Name, To: cl.Article}
			if n := len(c.Redirects); n == 0 || c.Redirects[n-1] != r {
				c.Redirects = append(c.Redirects, r)
			}
		case KindLink:
			if n := len(c.Links); n > 0 && c.Links[n-1].Article == cl.Article {
				c.Links[n-1].Pages++
			} else {
				c.Links = append(c.Links, Sense{Article: cl.Article, Pages: 1})
			}
		}
	}
	c.Weight = len(c.Titles) + len(c.Redirects)
	for _, s := range c.Links {
		c.Weight += s.Pages
	}
	slices.SortFunc(c.Links, compareSenses)
	dropped := max(0, len(c.Links)-2*MaxSenses)
	c.Links = c.Links[:len(c.Links)-dropped]
	return c, dropped
}

func compareSenses(a, b Sense) int {
	return cmp.Or(cmp.Compare(b.Pages, a.Pages), cmp.Compare(a.Article, b.Article))
}

// compareCandidates orders the heaviest names first, ties by key.
func compareCandidates(a, b Candidate) int {
	return cmp.Or(cmp.Compare(b.Weight, a.Weight), cmp.Compare(a.Key, b.Key))
}

// Top keeps the n heaviest candidates (ties by key), which must have
// distinct keys, and returns them sorted so with how many it dropped.
func Top(cs []Candidate, n int) ([]Candidate, int) {
	slices.SortFunc(cs, compareCandidates)
	if len(cs) <= n {
		return cs, 0
	}
	return cs[:n], len(cs) - n
}

// Resolve turns the candidates of one wiki into the entries of its table:
// each name's articles, every title resolved through the redirects among
// the candidates (at most MaxRedirectHops of them, never round a loop),
// those it names directly first (by title), then those its links target on
// the most pages (ties by title), at most MaxSenses. It returns the
// entries in key order, and how many articles beyond MaxSenses it dropped.
func Resolve(cs []Candidate) ([]Entry, int) {
	redirects := map[string]string{}
	for _, c := range cs {
		for _, r := range c.Redirects {
			if to, ok := redirects[r.From]; !ok || r.To < to {
				redirects[r.From] = r.To // two dumps may disagree: the first target by title
			}
		}
	}
	out := make([]Entry, 0, len(cs))
	dropped := 0
	for _, c := range cs {
		type sense struct {
			article string
			direct  bool
			pages   int
		}
		var ss []sense
		add := func(title string, direct bool, pages int) {
			a := resolve(title, redirects)
			for i := range ss {
				if ss[i].article == a {
					ss[i].direct = ss[i].direct || direct
					ss[i].pages += pages
					return
				}
			}
			ss = append(ss, sense{a, direct, pages})
		}
		for _, t := range c.Titles {
			add(t, true, 0)
		}
		for _, r := range c.Redirects {
			add(r.To, true, 0)
		}
		for _, l := range c.Links {
			add(l.Article, false, l.Pages)
		}
		slices.SortFunc(ss, func(a, b sense) int {
			if a.direct != b.direct {
				if a.direct {
					return -1
				}
				return 1
			}
			return cmp.Or(cmp.Compare(b.pages, a.pages), cmp.Compare(a.article, b.article))
		})
		if len(ss) > MaxSenses {
			dropped += len(ss) - MaxSenses
			ss = ss[:MaxSenses]
		}
		e := Entry{Key: c.Key, Articles: make([]string, len(ss))}
		for i, s := range ss {
			e.Articles[i] = s.article
		}
		out = append(out, e)
	}
	slices.SortFunc(out, func(a, b Entry) int { return cmp.Compare(a.Key, b.Key) })
	return out, dropped
}

// resolve follows the redirects from title, at most MaxRedirectHops of
// them, and stops before going round a loop.
func resolve(title string, redirects map[string]string) string {
	var seen [MaxRedirectHops + 1]string
	seen[0] = title
	for hop := 1; hop <= MaxRedirectHops; hop++ {
		to, ok := redirects[title]
		if !ok || slices.Contains(seen[:hop], to) {
			break
		}
		title, seen[hop] = to, to
	}
	return title
}

// AppendBinary appends the encoding of c to b.
func (c Candidate) AppendBinary(b []byte) []byte {
	b = varint.AppendString(b, c.Key)
	b = binary.AppendUvarint(b, uint64(c.Weight))
	b = binary.AppendUvarint(b, uint64(len(c.Titles)))
	for _, t := range c.Titles {
		b = varint.AppendString(b, t)
	}
	b = binary.AppendUvarint(b, uint64(len(c.Redirects)))
	for _, r := range c.Redirects {
		b = varint.AppendString(varint.AppendString(b, r.From), r.To)
	}
	b = binary.AppendUvarint(b, uint64(len(c.Links)))
	for _, s := range c.Links {
		b = binary.AppendUvarint(varint.AppendString(b, s.Article), uint64(s.Pages))
	}
	return b
}

// UnmarshalCandidates decodes candidates that Candidate.AppendBinary wrote
// one after the other, and appends them to dst.
func UnmarshalCandidates(dst []Candidate, b []byte) ([]Candidate, error) {
	d := varint.NewDecoder(b)
	str := d.Text
	for d.Len() > 0 && d.Err() == nil {
		c := Candidate{Key: str(), Weight: int(d.Uvarint())}
		for range d.Count(1) {
			c.Titles = append(c.Titles, str())
		}
		for range d.Count(1) {
			c.Redirects = append(c.Redirects, Redirect{From: str(), To: str()})
		}
		for range d.Count(1) {
			c.Links = append(c.Links, Sense{Article: str(), Pages: int(d.Uvarint())})
		}
		dst = append(dst, c)
	}
	if d.Err() != nil {
		return dst, fmt.Errorf("alias: candidates: %w", d.Err())
	}
	return dst, nil
}

// BuildWiki makes the encoded table of one wiki from all its claims at
// once, keeping at most maxNames names (0: DefaultMaxNames): what Build
// does in a pipeline, shard by shard, and byte for byte the same.
func BuildWiki(wiki string, claims []Claim, maxNames int) ([]byte, counters.Aliases) {
	if maxNames <= 0 {
		maxNames = DefaultMaxNames
	}
	cs, counts := Candidates(claims)
	cs, dropped := Top(cs, maxNames)
	entries, articles := Resolve(cs)
	counts.Names = int64(len(entries))
	counts.NamesDropped += int64(dropped)
	counts.ArticlesDropped += int64(articles)
	return AppendWiki(nil, wiki, entries), counts
}

// BuildDump reads the dump file (opened with dump.Open: compressed files
// are decompressed) of one wiki, and builds the encoded table of its main
// namespace with BuildWiki, as a run over that file alone would, keeping
// at most maxNames names (0: DefaultMaxNames). It returns the wiki's name
// too. Bad pages are skipped and a truncated file read up to its cut, as
// the pipeline does. For tools and tests that read one dump.
func BuildDump(ctx context.Context, file string, maxNames int) (wiki string, table []byte, counts counters.Aliases, err error) {
	site, err := dump.ReadSite(ctx, file)
	if err != nil {
		return "", nil, counts, err
	}
	rc, err := dump.Open(ctx, file)
	if err != nil {
		return "", nil, counts, err
	}
	defer rc.Close()
	cleaner := &clean.Cleaner{Sites: clean.NewSites([]document.Site{site}), Links: true}
	ns := NewNamespaces(site.Names())
	var claims []Claim
	r := dump.NewReader(rc, file, dump.Options{})
	for {
		p, err := r.Next()
		var pageErr *dump.PageError
		switch {
		case errors.Is(err, io.EOF) || errors.Is(err, dump.ErrTruncated):
			table, counts = BuildWiki(site.Wiki, claims, maxNames)
			return site.Wiki, table, counts, nil
		case errors.As(err, &pageErr):
			continue // a dead letter of the run
		case err != nil:
			return "", nil, counts, fmt.Errorf("alias: reading %s: %w", file, err)
		case p.NS != 0:
			continue
		}
		p.Wiki = site.Wiki
		if p.Redirect != "" {
			claims = AppendRedirectClaims(claims, p.Wiki, p.Title, p.Redirect, p.Text, ns)
			continue
		}
		c, err := cleaner.Clean(p)
		if err != nil {
			return "", nil, counts, err
		}
		claims = AppendPageClaims(claims, Page{Wiki: c.Wiki, ID: c.ID, RevID: c.RevID, Title: c.Title, Links: c.Links}, ns)
	}
}
