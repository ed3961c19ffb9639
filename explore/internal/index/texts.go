package index

import (
	"bytes"
	"cmp"
	"context"
	"encoding/json"
	"fmt"
	"runtime"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"
	"unicode/utf8"

	"golang.org/x/sync/errgroup"
)

// The sentence index: after Load, a goroutine reads the clusters files
// once, in chunks on every core, and keeps of each cluster its first
// member's text (cut to shownBytes, for the lists) and the folded texts
// of its distinct listed members (cut to foldedBytes a cluster), NUL
// after each, in one string in cluster order. A search folds the query
// and runs strings.Index over that string, in as many pieces as there are
// cores: memory and time are linear in the indexed text, bounded by
// Options.TextBytes.
const (
	shownBytes  = 320
	foldedBytes = 4096
)

// texts is a built sentence index: the parts the chunks of the clusters
// files gave, as they were read (no copy joins them), and where each
// cluster is in them.
type texts struct {
	parts []textPart
	at    []textPlace // by cluster
	// left is how many clusters' texts were left out of the folded
	// texts, over the budget (their first text is still shown).
	left  int
	bytes int64
}

// textPlace is where a cluster is in the parts: part, and its number in
// the part, from 1 (0: the cluster's line was not read).
type textPlace struct {
	part, k uint32
}

// TextState says how far the sentence index has come.
type TextState struct {
	Ready    bool
	Err      error // why it could not be built
	Read     int64 // bytes of the clusters files read
	Of       int64 // bytes to read
	Left     int   // clusters whose texts are over the budget, not searched
	Bytes    int64 // of folded text indexed
	Disabled bool  // Options.TextBytes was negative
	Took     time.Duration
}

// textIndex is the state of the build, shared by the goroutine that
// builds it and the readers.
type textIndex struct {
	done     chan struct{}
	built    atomic.Pointer[texts]
	read, of atomic.Int64
	err      error // set before done closes
	took     time.Duration
	disabled bool
}

// defaultTextBytes is the default budget of the folded texts.
const defaultTextBytes = 1 << 30

// buildTexts starts building r's sentence index in the background, within
// budget bytes of folded text (0: defaultTextBytes; negative: none).
func (r *Run) buildTexts(ctx context.Context, workers int, chunk int64, budget int64) {
	ti := &textIndex{done: make(chan struct{})}
	r.texts = ti
	if budget < 0 {
		ti.disabled = true
		close(ti.done)
		return
	}
	if budget == 0 {
		budget = defaultTextBytes
	}
	go func() {
		defer close(ti.done)
		start := time.Now()
		t, err := r.readTexts(ctx, ti, workers, chunk, budget)
		ti.took = time.Since(start)
		if err != nil {
			ti.err = err
			return
		}
		ti.built.Store(t)
	}()
}

// TextState returns the state of the sentence index.
func (r *Run) TextState() TextState {
	ti := r.texts
	s := TextState{Read: ti.read.Load(), Of: ti.of.Load(), Disabled: ti.disabled}
	select {
	case <-ti.done:
		s.Err, s.Took = ti.err, ti.took
	default:
	}
	if t := ti.built.Load(); t != nil {
		s.Ready, s.Left, s.Bytes = true, t.left, t.bytes
	}
	return s
}

// WaitTexts waits until the sentence index is built or cannot be, or ctx
// ends.
func (r *Run) WaitTexts(ctx context.Context) TextState {
	select {
	case <-r.texts.done:
	case <-ctx.Done():
	}
	return r.TextState()
}

// Shown returns cluster i's first member's text, cut to a few hundred
// bytes, and whether the sentence index is built.
func (r *Run) Shown(i int) (string, bool) {
	t := r.texts.built.Load()
	if t == nil {
		return "", false
	}
	pl := t.at[i]
	if pl.k == 0 {
		return "", true
	}
	p := &t.parts[pl.part]
	k := int(pl.k - 1)
	return p.shown[p.shownEnd[k]-int32(p.shownLen[k]) : p.shownEnd[k]], true
}

// textPart is what one chunk of a clusters file gives: for each of its
// clusters, its first text and its folded texts, each in one string.
type textPart struct {
	clusters []int32 // the clusters of its lines, in order
	shown    string
	shownBuf []byte
	shownEnd []int32 // cluster k's first text ends at shown[shownEnd[k]], and is shownLen[k] long
	shownLen []int16
	folded   string
	buf      []byte
	ends     []int64 // cluster k's folded texts end at folded[ends[k]]
	left     int
}

// readTexts reads every clusters file in chunks and joins what they give.
func (r *Run) readTexts(ctx context.Context, ti *textIndex, workers int, chunk int64, budget int64) (*texts, error) {
	byPlace := r.clustersByPlace()
	var jobs []job
	for i, s := range r.shards {
		if s.size > 0 {
			jobs = appendJobs(jobs, chunk, job{shard: i, name: s.clusters}, s.size)
			ti.of.Add(s.size)
		}
	}
	parts := make([]textPart, len(jobs))
	var used atomic.Int64
	g, gctx := errgroup.WithContext(ctx)
	g.SetLimit(max(1, workers))
	for k, j := range jobs {
		g.Go(func() error {
			return r.readTextChunk(gctx, j, byPlace[j.shard], &parts[k], &used, budget, ti)
		})
	}
	if err := g.Wait(); err != nil {
		return nil, err
	}
	t := &texts{parts: parts, at: make([]textPlace, len(r.clusters))}
	for pi, p := range parts {
		t.left += p.left
		t.bytes += int64(len(p.folded))
		for k, c := range p.clusters {
			t.at[c] = textPlace{uint32(pi), uint32(k + 1)}
		}
	}
	return t, nil
}

// clustersByPlace returns, for each shard, its clusters sorted by the
// offset of their lines.
func (r *Run) clustersByPlace() [][]int32 {
	out := make([][]int32, len(r.shards))
	for i := range r.clusters {
		s := r.clusters[i].shard
		out[s] = append(out[s], int32(i))
	}
	for _, cs := range out {
		slices.SortFunc(cs, func(a, b int32) int { return cmp.Compare(r.clusters[a].offset, r.clusters[b].offset) })
	}
	return out
}

// readTextChunk reads the lines of one chunk that the index lists.
func (r *Run) readTextChunk(ctx context.Context, j job, places []int32, p *textPart, used *atomic.Int64, budget int64, ti *textIndex) error {
	rc, err := r.Store.OpenAt(ctx, j.name, max(j.start-1, 0))
	if err != nil {
		return fmt.Errorf("reading %s/%s: %w", r.Store.Dir(), j.name, err)
	}
	defer rc.Close()
	last := j.start
	var seen [][]byte
	err = readLines(rc, j.start, j.end, func(line []byte, at int64, complete bool) error {
		ti.read.Add(at - last)
		last = at
		k, ok := slices.BinarySearchFunc(places, at, func(c int32, at int64) int { return cmp.Compare(r.clusters[c].offset, at) })
		if !ok || !complete {
			return nil // a line the index does not list: not shown anyway
		}
		seen = seen[:0]
		before := len(p.buf)
		for text := range memberTexts(line) {
			if len(seen) == 0 {
				shown := cut(string(text), shownBytes)
				p.shownBuf = append(p.shownBuf, shown...)
				p.shownEnd = append(p.shownEnd, int32(len(p.shownBuf)))
				p.shownLen = append(p.shownLen, int16(len(shown)))
				p.clusters = append(p.clusters, places[k])
			}
			if len(p.buf)-before >= foldedBytes {
				break
			}
			if slices.ContainsFunc(seen, func(s []byte) bool { return string(s) == string(text) }) {
				continue
			}
			seen = append(seen, text)
			p.buf = appendFold(p.buf, text[:cutAt(text, foldedBytes)])
			p.buf = append(p.buf, 0)
		}
		if len(seen) == 0 {
			return nil // no member: its page says what is wrong with it
		}
		if used.Add(int64(len(p.buf)-before)) > budget {
			p.buf = p.buf[:before]
			p.left++
		}
		p.ends = append(p.ends, int64(len(p.buf)))
		return nil
	})
	ti.read.Add(j.end - last)
	if err != nil {
		return fmt.Errorf("reading %s/%s: %w", r.Store.Dir(), j.name, err)
	}
	p.shown, p.folded = string(p.shownBuf), string(p.buf)
	p.shownBuf, p.buf = nil, nil
	return nil
}

// memberTexts yields the texts of the members of a cluster's line, in
// order, each decoded from its JSON string. The line's only "text" keys
// are its members' (categorize.Cluster), and the bytes "text":" can
// stand nowhere else in a JSON line: a quote inside a string is escaped.
func memberTexts(line []byte) func(yield func([]byte) bool) {
	return func(yield func([]byte) bool) {
		i := bytes.Index(line, []byte(`"members":[`))
		if i < 0 {
			return
		}
		rest := line[i:]
		key := []byte(`"text":"`)
		var buf []byte
		for {
			j := bytes.Index(rest, key)
			if j < 0 {
				return
			}
			rest = rest[j+len(key)-1:] // at the string's opening quote
			end := stringEnd(rest)
			if end < 0 {
				return
			}
			raw := rest[1:end]
			if bytes.IndexByte(raw, '\\') >= 0 {
				var s string
				if json.Unmarshal(rest[:end+1], &s) != nil {
					return
				}
				buf = append(buf[:0], s...)
				raw = buf
			}
			if !yield(raw) {
				return
			}
			rest = rest[end+1:]
		}
	}
}

// stringEnd returns the index of the quote that closes the JSON string
// that s starts with, or -1.
func stringEnd(s []byte) int {
	for i := 1; i < len(s); i++ {
		switch s[i] {
		case '\\':
			i++
		case '"':
			return i
		}
	}
	return -1
}

// cutAt returns where to cut s to at most n bytes, at a rune's start.
func cutAt(s []byte, n int) int {
	if len(s) <= n {
		return len(s)
	}
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return n
}

// cut cuts s to at most n bytes, at a rune's start, with an ellipsis if
// it was longer.
func cut(s string, n int) string {
	if len(s) <= n {
		return s
	}
	i := n - len("…")
	for i > 0 && !utf8.RuneStart(s[i]) {
		i--
	}
	return s[:i] + "…"
}

// matchTexts returns the bit set of the clusters one of whose folded
// texts holds q (folded), searching the parts on the cores.
func (t *texts) matchTexts(q string) []uint64 {
	set := make([]uint64, (len(t.at)+63)/64)
	if q == "" {
		return set
	}
	var mu sync.Mutex
	var g errgroup.Group
	g.SetLimit(runtime.GOMAXPROCS(0))
	for pi := range t.parts {
		p := &t.parts[pi]
		g.Go(func() error {
			var found []int32
			for pos := 0; pos < len(p.folded); {
				j := strings.Index(p.folded[pos:], q)
				if j < 0 {
					break
				}
				k, _ := slices.BinarySearch(p.ends, int64(pos+j+1))
				found = append(found, p.clusters[k])
				pos = int(p.ends[k])
			}
			mu.Lock()
			for _, c := range found {
				set[c/64] |= 1 << (c % 64)
			}
			mu.Unlock()
			return nil
		})
	}
	g.Wait()
	return set
}
