package index

import (
	"bufio"
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"slices"
	"strings"

	"golang.org/x/sync/errgroup"

	"github.com/neardup/neardup/explore/internal/store"
	"github.com/neardup/neardup/transforms/passage"
)

// passagesPrefix names the run's passages files (pipelines/sentences
// writes passages-SSSSS-of-NNNNN.jsonl).
const passagesPrefix = "passages"

// Passage is a line of passages-*.jsonl as the explorer keeps it: its
// documented fields but the matched pairs, which ReadMatches reads from
// the line when a page asks for them.
type Passage struct {
	A, B        passage.Document
	Matched     int
	MeanJaccard float64
	// HasText reports that the line lists its matched pairs with their
	// texts (the run had --passage_text).
	HasText bool

	file   string // the passages file and the line's place in it
	offset int64
	length int
}

// DocPair is two documents that share passages, with what the explorer
// lists of them.
type DocPair struct {
	Index int // in the run's pairs, for Pair
	// A and B are the two documents, as the pair's first passage gives
	// them (First, Last, Sentences and Share are that passage's).
	A, B     passage.Document
	Passages []int // indexes into the run's passages, by ordinal in a
	Matched  int   // matched sentence pairs of all its passages
	// ShareA and ShareB are the sum of its passages' shares of each
	// document (the in-window sentences they span over the document's),
	// at most 1.
	ShareA, ShareB float64
	// MeanJaccard is the mean Jaccard similarity of all its matched pairs.
	MeanJaccard float64
	// Share is the larger of ShareA and ShareB: how much of one of the
	// documents the other copies.
	Share float64
}

// passageSet is what a run holds of its passages.
type passageSet struct {
	files    []string // the passages files the manifest lists
	passages []Passage
	pairs    []DocPair
	folded   foldedTitles // each pair's titles, "a\x00b\x00"-joined as one entry
}

// HasPassages reports whether the run wrote passages files (it found
// passages or not).
func (r *Run) HasPassages() bool { return len(r.ps.files) > 0 }

// PassageCount returns the number of passages.
func (r *Run) PassageCount() int { return len(r.ps.passages) }

// PairCount returns the number of document pairs that share a passage.
func (r *Run) PairCount() int { return len(r.ps.pairs) }

// Passage returns passage i.
func (r *Run) Passage(i int) Passage { return r.ps.passages[i] }

// Pair returns document pair i.
func (r *Run) Pair(i int) DocPair { return r.ps.pairs[i] }

// FindPair returns the index of the pair of documents a and b (their ids,
// wiki:page_id:rev_id, in either order).
func (r *Run) FindPair(a, b string) (int, bool) {
	if cmp.Compare(a, b) > 0 {
		a, b = b, a
	}
	i, ok := slices.BinarySearchFunc(r.ps.pairs, [2]string{a, b}, func(p DocPair, k [2]string) int {
		return cmp.Or(cmp.Compare(pairKey(p)[0], k[0]), cmp.Compare(pairKey(p)[1], k[1]))
	})
	return i, ok
}

// pairKey is the pair's ids, the lesser first: the order of the pairs.
func pairKey(p DocPair) [2]string {
	if cmp.Compare(p.A.ID, p.B.ID) > 0 {
		return [2]string{p.B.ID, p.A.ID}
	}
	return [2]string{p.A.ID, p.B.ID}
}

// passageFiles lists the passages files of a manifest, in shard order.
func passageFiles(outputs []string) []string {
	var files []string
	for _, name := range outputs {
		if _, _, ok := shardNumber(name, passagesPrefix, ".jsonl"); ok && !slices.Contains(files, name) {
			files = append(files, name)
		}
	}
	slices.Sort(files)
	return files
}

// passageHead is a passages line decoded without its texts.
type passageHead struct {
	A           passage.Document `json:"a"`
	B           passage.Document `json:"b"`
	Matched     int              `json:"matched"`
	MeanJaccard float64          `json:"mean_jaccard"`
	Matches     []struct{}       `json:"matches"`
}

// loadPassages reads the passages files the manifest lists, on workers
// goroutines, one file each, and groups the passages by document pair. A
// line it cannot read is a warning, as a missing file is.
func (r *Run) loadPassages(ctx context.Context, workers int) error {
	r.ps.files = passageFiles(r.Manifest.Outputs)
	perFile := make([][]Passage, len(r.ps.files))
	warnings := make([]string, len(r.ps.files))
	g, gctx := errgroup.WithContext(ctx)
	g.SetLimit(max(1, workers))
	for i, name := range r.ps.files {
		g.Go(func() error {
			ps, warn, err := readPassages(gctx, r.Store, name)
			perFile[i], warnings[i] = ps, warn
			return err
		})
	}
	if err := g.Wait(); err != nil {
		return err
	}
	for i := range r.ps.files {
		r.ps.passages = append(r.ps.passages, perFile[i]...)
		if warnings[i] != "" {
			r.warnf("%s", warnings[i])
		}
	}
	r.ps.pairs = groupPairs(r.ps.passages)
	titles := make([]string, len(r.ps.pairs))
	for i, p := range r.ps.pairs {
		titles[i] = p.A.Title + "\x00" + p.B.Title
	}
	r.ps.folded = foldStrings(titles)
	return nil
}

// readPassages reads one passages file. warn says what in it could not be
// read; err is a failure to read the file at all but its absence.
func readPassages(ctx context.Context, st store.Store, name string) (ps []Passage, warn string, err error) {
	rc, err := st.OpenAt(ctx, name, 0)
	if store.IsNotExist(err) {
		return nil, fmt.Sprintf("%s, which manifest.json lists, is missing: its passages are not listed", name), nil
	}
	if err != nil {
		return nil, "", fmt.Errorf("reading %s/%s: %w", st.Dir(), name, err)
	}
	defer rc.Close()
	br := bufio.NewReaderSize(rc, 1<<16)
	var at int64
	bad, firstBad := 0, ""
	for n := 1; ; n++ {
		line, err := br.ReadSlice('\n')
		for errors.Is(err, bufio.ErrBufferFull) { // a long line (its texts)
			var more []byte
			more, err = br.ReadSlice('\n')
			line = append(slices.Clip(line), more...)
		}
		if len(line) > 0 {
			if perr := parsePassage(line, name, at, &ps); perr != nil {
				if bad++; bad == 1 {
					firstBad = fmt.Sprintf("line %d: %v", n, perr)
				}
			}
			at += int64(len(line))
		}
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, "", fmt.Errorf("reading %s/%s at byte %d: %w", st.Dir(), name, at, err)
		}
	}
	if bad > 0 {
		warn = fmt.Sprintf("%s: %s cannot be read (the first, %s): those passages are not listed", name, plural(bad, "line"), firstBad)
	}
	return ps, warn, nil
}

// parsePassage decodes a line that starts at byte at of file and appends
// its passage.
func parsePassage(line []byte, file string, at int64, ps *[]Passage) error {
	if line[len(line)-1] != '\n' {
		return errors.New("it ends without a newline: the file is truncated")
	}
	var h passageHead
	if err := json.Unmarshal(line, &h); err != nil {
		return fmt.Errorf("not a passage's JSON: %w", err)
	}
	if h.A.ID == "" || h.B.ID == "" || h.A.ID == h.B.ID || h.Matched <= 0 {
		return fmt.Errorf("not a passage of two documents: a %q, b %q, %d matched", h.A.ID, h.B.ID, h.Matched)
	}
	*ps = append(*ps, Passage{A: h.A, B: h.B, Matched: h.Matched, MeanJaccard: h.MeanJaccard, HasText: len(h.Matches) > 0,
		file: file, offset: at, length: len(line) - 1})
	return nil
}

// groupPairs groups passages by document pair, in the order of the
// pairs' ids, each pair's passages by their first sentence in a.
func groupPairs(ps []Passage) []DocPair {
	order := make([]int, len(ps))
	for i := range order {
		order[i] = i
	}
	key := func(p *Passage) [2]string { return pairKey(DocPair{A: p.A, B: p.B}) }
	slices.SortStableFunc(order, func(i, j int) int {
		ki, kj := key(&ps[i]), key(&ps[j])
		return cmp.Or(cmp.Compare(ki[0], kj[0]), cmp.Compare(ki[1], kj[1]), cmp.Compare(ps[i].A.First, ps[j].A.First),
			cmp.Compare(ps[i].B.First, ps[j].B.First))
	})
	var pairs []DocPair
	for k := 0; k < len(order); {
		first := &ps[order[k]]
		p := DocPair{Index: len(pairs), A: first.A, B: first.B}
		var jSum float64
		for ; k < len(order) && key(&ps[order[k]]) == key(first); k++ {
			q := &ps[order[k]]
			p.Passages = append(p.Passages, order[k])
			p.Matched += q.Matched
			jSum += q.MeanJaccard * float64(q.Matched)
			if q.A.ID == p.A.ID {
				p.ShareA, p.ShareB = p.ShareA+q.A.Share, p.ShareB+q.B.Share
			} else {
				p.ShareA, p.ShareB = p.ShareA+q.B.Share, p.ShareB+q.A.Share
			}
		}
		p.ShareA, p.ShareB = round4(min(p.ShareA, 1)), round4(min(p.ShareB, 1))
		p.Share = max(p.ShareA, p.ShareB)
		p.MeanJaccard = round4(jSum / float64(p.Matched))
		pairs = append(pairs, p)
	}
	return pairs
}

func round4(x float64) float64 { return math.Round(x*1e4) / 1e4 }

// ReadMatches reads passage i's line and returns its matched pairs with
// their texts (none if the run had no --passage_text).
func (r *Run) ReadMatches(ctx context.Context, i int) ([]passage.Match, error) {
	p := &r.ps.passages[i]
	if !p.HasText {
		return nil, nil
	}
	buf := make([]byte, p.length)
	if err := r.Store.ReadAt(ctx, p.file, buf, p.offset); err != nil {
		return nil, fmt.Errorf("reading the passage at byte %d of %s: %w", p.offset, p.file, err)
	}
	var l passage.Line
	if err := json.Unmarshal(buf, &l); err != nil || l.A.ID != p.A.ID || l.B.ID != p.B.ID || l.A.First != p.A.First {
		return nil, fmt.Errorf("the line at byte %d of %s is not the passage read at start (%v): the file has changed", p.offset, p.file, err)
	}
	return l.Matches, nil
}

// PairQuery selects document pairs. Its zero value selects every pair,
// the largest share first.
type PairQuery struct {
	Title      string  // a substring of either document's title, folded as titles are ("": any)
	Wiki       string  // either document of this wiki ("": any)
	ShareMin   float64 // Share at least this
	MatchedMin int     // Matched at least this
	Sort       string  // "share" (default), "matched", "jaccard" (each largest first) or "id"
}

// PairSorts are the orders of PairQuery.Sort.
var PairSorts = []string{"share", "matched", "jaccard", "id"}

// FilterPairs returns the pairs of q from the offset-th (from 0), at most
// limit of them, and how many q selects in all.
func (r *Run) FilterPairs(q PairQuery, offset, limit int) Page {
	var sel []int
	var titled []bool
	if t := Fold(strings.TrimSpace(q.Title)); t != "" {
		titled = make([]bool, len(r.ps.pairs))
		r.ps.folded.match(t, func(i int) { titled[i] = true })
	}
	for i := range r.ps.pairs {
		p := &r.ps.pairs[i]
		if (titled == nil || titled[i]) && (q.Wiki == "" || p.A.Wiki == q.Wiki || p.B.Wiki == q.Wiki) &&
			p.Share >= q.ShareMin && p.Matched >= q.MatchedMin {
			sel = append(sel, i)
		}
	}
	by := func(i, j int) int {
		a, b := &r.ps.pairs[i], &r.ps.pairs[j]
		switch q.Sort {
		case "matched":
			return cmp.Or(cmp.Compare(b.Matched, a.Matched), cmp.Compare(b.Share, a.Share))
		case "jaccard":
			return cmp.Or(cmp.Compare(b.MeanJaccard, a.MeanJaccard), cmp.Compare(b.Share, a.Share))
		case "id":
			return 0
		}
		return cmp.Or(cmp.Compare(b.Share, a.Share), cmp.Compare(b.Matched, a.Matched))
	}
	slices.SortStableFunc(sel, by) // ties: by id, the pairs' own order
	p := Page{Matches: len(sel)}
	if offset < len(sel) {
		p.Clusters = sel[offset:min(len(sel), offset+limit)]
	}
	return p
}

// foldStrings folds strings into one searchable text, each string an
// entry.
func foldStrings(ss []string) foldedTitles {
	f := foldedTitles{start: make([]uint32, 0, len(ss)+1)}
	var buf []byte
	for _, s := range ss {
		f.start = append(f.start, uint32(len(buf)))
		for part := range strings.SplitSeq(s, "\x00") {
			buf = appendFold(buf, []byte(part))
			buf = append(buf, 0)
		}
	}
	f.start = append(f.start, uint32(len(buf)))
	f.text = string(buf)
	return f
}
