// Package sectionkind learns, for each wiki of a run, which section
// headings hold citations: the bibliographies, lists of sources and further
// reading that the cleaner's list of reference headings does not name
// ("Աղբյուրներ", "Джерела та література", "Thư mục"...). Nothing here
// knows a language: a heading is learned from the lines under it, when
// enough of them, on enough pages, pass a citation predicate
// (categorize.IsCitation in the pipeline; MinShare, MinCitations,
// MinPages).
//
//   - The learned table does not depend on the order the pages come in,
//     and holds at most MaxHeadingsPerWiki headings a wiki.
//
// In full: docs/categories.md, "Reference sections learned from each wiki".
package sectionkind

import (
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/neardup/neardup/transforms/clean"
	"github.com/neardup/neardup/transforms/wikitext"
)

// Thresholds of the learning, chosen on the non-English sample dumps in
// ../shared/data (see docs/categories.md). The entries of the
// bibliographies found there are 98% under 300 runes (Japanese 71 at most,
// Greek 423) while half the prose paragraphs with two citation cues are
// longer. The learned headings have 52% to 94% of citation lines; below
// them come the Japanese "画集" (a list of art books, 49%), the Ukrainian
// "Література" (a bibliography on three pages, the account of a country's
// writers on seven, 48%) and the prose of the Japanese "サッカー" (37%).
const (
	// MinShare is the share of a heading's lines that must be citations.
	MinShare = 0.5
	// MinCitations is the fewest citation lines under a heading, all pages
	// together.
	MinCitations = 4
	// MinPages is the fewest different pages with a citation line under
	// the heading: one page's bibliography says nothing of its heading.
	MinPages = 2
	// MaxEntryRunes is the longest line counted as a citation.
	MaxEntryRunes = 300
	// MaxLinesPerSection is the most lines of one heading counted on one
	// page, so that no page's long list outweighs the other pages: lists
	// of births or events run to hundreds of lines, a bibliography to
	// dozens.
	MaxLinesPerSection = 32
	// MaxHeadingRunes is the longest heading counted: longer ones are
	// sentences made headings, never a wiki's bibliography.
	MaxHeadingRunes = 80
	// MaxPages is the most page ids kept per heading (the smallest): enough
	// to tell MinPages.
	MaxPages = 8
	// MaxHeadingsPerWiki bounds the learned headings of one wiki: those
	// with most citation lines are kept.
	MaxHeadingsPerWiki = 256
)

// Fold is the form of a heading that the table is keyed by: lower case,
// without surrounding space or a trailing colon or period.
func Fold(heading string) string {
	return strings.ToLower(strings.TrimRight(strings.TrimSpace(heading), ":."))
}

// Stats are the counts of one heading of one wiki.
type Stats struct {
	// Lines are the prose and list lines under the heading.
	Lines int64
	// Citations are those of Lines shaped like citations.
	Citations int64
	// Pages are the ids of the pages with a citation line under the
	// heading, sorted, the smallest MaxPages.
	Pages []int64
}

// Merge adds o to s.
func (s *Stats) Merge(o Stats) {
	s.Lines += o.Lines
	s.Citations += o.Citations
	if len(o.Pages) == 0 {
		return
	}
	pages := append(slices.Clone(s.Pages), o.Pages...)
	slices.Sort(pages)
	pages = slices.Compact(pages)
	s.Pages = pages[:min(len(pages), MaxPages)]
}

// Learned reports whether the heading holds citations: MinShare of its
// lines, MinCitations in all, on MinPages pages.
func (s Stats) Learned() bool {
	return s.Citations >= MinCitations && float64(s.Citations) >= MinShare*float64(s.Lines) && len(s.Pages) >= MinPages
}

// Entry is the counts of one heading of one page.
type Entry struct {
	Wiki    string
	Heading string // folded
	Stats   Stats
}

// Key is the entry's key in a Counter and in the Beam transform's shuffle:
// the wiki and the folded heading.
func (e Entry) Key() string { return key(e.Wiki, e.Heading) }

func key(wiki, heading string) string { return wiki + "\x00" + heading }

// splitKey returns the wiki and heading of a key.
func splitKey(k string) (wiki, heading string) {
	wiki, heading, _ = strings.Cut(k, "\x00")
	return wiki, heading
}

// Summarize counts the lines of one page per heading, testing each with
// citation: the lead, the reference context (already references),
// headings longer than MaxHeadingRunes and the lines of a heading past its
// first MaxLinesPerSection on the page are left out. The entries come in
// the order their headings first appear.
func Summarize(p clean.Page, citation func(string) bool) []Entry {
	var out []Entry
	last, at := "", -1 // the previous paragraph's section and its entry
	for _, para := range p.Paragraphs {
		if para.Section == "" || para.Context == wikitext.Reference {
			continue
		}
		if at < 0 || para.Section != last {
			last, at = para.Section, -1
			if utf8.RuneCountInString(para.Section) > MaxHeadingRunes {
				continue
			}
			h := Fold(para.Section)
			at = slices.IndexFunc(out, func(e Entry) bool { return e.Heading == h })
			if at < 0 {
				out = append(out, Entry{Wiki: p.Wiki, Heading: h})
				at = len(out) - 1
			}
		}
		if at < 0 {
			continue
		}
		s := &out[at].Stats
		if s.Lines == MaxLinesPerSection {
			continue
		}
		s.Lines++
		if isEntryLength(para.Text) && citation(para.Text) {
			s.Citations++
			if len(s.Pages) == 0 {
				s.Pages = []int64{p.ID}
			}
		}
	}
	return out
}

// isEntryLength reports whether line has at most MaxEntryRunes runes,
// counting them only when its length in bytes does not tell.
func isEntryLength(line string) bool {
	switch {
	case len(line) <= MaxEntryRunes:
		return true
	case len(line) > utf8.UTFMax*MaxEntryRunes:
		return false
	}
	return utf8.RuneCountInString(line) <= MaxEntryRunes
}

// Counter sums the entries of many pages by wiki and heading.
type Counter struct {
	stats map[string]*Stats
}

// Add adds an entry.
func (c *Counter) Add(e Entry) {
	if c.stats == nil {
		c.stats = map[string]*Stats{}
	}
	k := e.Key()
	if s := c.stats[k]; s != nil {
		s.Merge(e.Stats)
		return
	}
	s := e.Stats
	c.stats[k] = &s
}

// Len is the number of headings counted.
func (c *Counter) Len() int { return len(c.stats) }

// Take returns the entries counted, sorted by key, and empties c.
func (c *Counter) Take() []Entry {
	keys := make([]string, 0, len(c.stats))
	for k := range c.stats {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	out := make([]Entry, len(keys))
	for i, k := range keys {
		wiki, heading := splitKey(k)
		out[i] = Entry{Wiki: wiki, Heading: heading, Stats: *c.stats[k]}
	}
	clear(c.stats)
	return out
}
