package index

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"runtime"
	"strings"
	"sync/atomic"

	"golang.org/x/sync/errgroup"

	"github.com/neardup/neardup/explore/internal/store"
	"github.com/neardup/neardup/transforms/categorize"
)

// chunkBytes is the default Options.ChunkBytes.
const chunkBytes = 8 << 20

// job is a chunk of a file to read: the lines that start in [start, end).
type job struct {
	shard      int
	name       string
	scan       bool // name is a clusters file, decoded line by line
	start, end int64
}

// loader is what the workers share.
type loader struct {
	st           store.Store
	arts         *articleSet
	wikis, kinds *interner
}

// defaultWorkers is the default Options.Workers.
func defaultWorkers(dir string) int {
	if strings.HasPrefix(dir, "gs://") {
		return max(16, runtime.GOMAXPROCS(0))
	}
	return runtime.GOMAXPROCS(0)
}

// load reads every shard's index (or clusters file) into r.
func (r *Run) load(ctx context.Context, opts Options) error {
	workers, chunk := opts.Workers, opts.ChunkBytes
	if workers <= 0 {
		workers = defaultWorkers(r.Store.Dir())
	}
	if chunk <= 0 {
		chunk = chunkBytes
	}
	jobs, err := r.plan(ctx, workers, chunk)
	if err != nil {
		return err
	}
	l := &loader{st: r.Store, arts: &articleSet{}, wikis: newInterner(1<<16 - 1), kinds: newInterner(255)}
	m, err := l.runAll(ctx, jobs, workers)
	if err != nil {
		return err
	}
	if err := r.finish(m, l); err != nil {
		return err
	}
	r.checkOffsets()
	r.kindCounts = r.countKinds()
	r.arts.folded = foldTitles(&r.arts, max(1, runtime.GOMAXPROCS(0)))
	r.sortOrders()
	return nil
}

// runAll runs the jobs on workers goroutines, each taking the next job
// in order, and merges what they read.
func (l *loader) runAll(ctx context.Context, jobs []job, workers int) (*merger, error) {
	m := newMerger(jobs)
	var next atomic.Int64
	g, gctx := errgroup.WithContext(ctx)
	for range min(workers, len(jobs)) {
		g.Go(func() error {
			w := &worker{arts: l.arts, wikis: l.wikis, kinds: l.kinds,
				wikiIDs: map[string]uint16{}, kindIDs: map[string]uint8{}}
			for i := int(next.Add(1) - 1); i < len(jobs); i = int(next.Add(1) - 1) {
				p := m.part()
				if err := l.run(gctx, jobs[i], w, p); err != nil {
					return err
				}
				if err := m.add(i, p); err != nil {
					return err
				}
			}
			return nil
		})
	}
	return m, g.Wait()
}

// run reads the lines of one chunk into p.
func (l *loader) run(ctx context.Context, j job, w *worker, p *part) error {
	rc, err := l.st.OpenAt(ctx, j.name, max(j.start-1, 0))
	if err != nil {
		return fmt.Errorf("reading %s/%s: %w", l.st.Dir(), j.name, err)
	}
	defer rc.Close()
	err = readLines(rc, j.start, j.end, func(line []byte, at int64, complete bool) error {
		if !complete {
			p.badRow(at, errors.New("the last line ends without a newline: the file is truncated"))
			return nil
		}
		var err error
		if j.scan {
			err = w.scanLine(line, at)
		} else {
			err = parseIndexRow(line, &w.row)
		}
		if err == nil {
			err = w.add(p, j.shard)
		}
		if fatal, ok := err.(errFatal); ok {
			return fatal.error
		}
		if err != nil {
			p.badRow(at, err)
		}
		return nil
	})
	if err != nil {
		return fmt.Errorf("reading %s/%s: %w", l.st.Dir(), j.name, err)
	}
	return nil
}

// scanLine reads a line of a clusters file into w.row.
func (w *worker) scanLine(line []byte, at int64) error {
	var c categorize.Cluster
	if err := json.Unmarshal(line, &c); err != nil {
		return fmt.Errorf("not a cluster's JSON: %w", err)
	}
	if err := w.row.setDigest(c.Digest()); err != nil {
		return err
	}
	w.row.offset, w.row.length = at, int64(len(line))
	if w.row.length == 0 || w.row.length > maxLine {
		return fmt.Errorf("a line of %d bytes", w.row.length)
	}
	return nil
}

// finish joins the article table, turns the merged references into
// indexes into it, and says what rows could not be read.
func (r *Run) finish(m *merger, l *loader) error {
	arts, resolve, err := l.arts.join()
	if err != nil {
		return err
	}
	for i, ref := range m.refs {
		m.refs[i] = resolve(ref)
	}
	r.clusters, r.refs = m.clusters, m.refs
	r.arts, r.wikis, r.kinds = arts, l.wikis.names, l.kinds.names
	r.warnBadRows(m.jobs, m.bad)
	return nil
}

// warnBadRows says, for each file, how many rows could not be read.
func (r *Run) warnBadRows(jobs []job, parts []badRows) {
	for i := 0; i < len(jobs); {
		bad, first := 0, ""
		j := i
		for ; j < len(jobs) && jobs[j].name == jobs[i].name; j++ {
			if bad == 0 {
				first = parts[j].firstBad
			}
			bad += parts[j].bad
		}
		if bad > 0 {
			r.warnf("%s: %s cannot be read (the first %s): those clusters are not listed",
				jobs[i].name, plural(bad, "line"), first)
		}
		i = j
	}
}

// checkOffsets says which indexes point past the end of their clusters
// file.
func (r *Run) checkOffsets() {
	past := make([]int, len(r.shards))
	for i := range r.clusters {
		c := &r.clusters[i]
		if s := r.shards[c.shard]; s.size >= 0 && c.offset+int64(c.length) > s.size {
			past[c.shard]++
		}
	}
	for i, n := range past {
		if n > 0 {
			s := r.shards[i]
			r.warnf("%s: %s past the end of %s (%d bytes): that file is truncated, or not the one indexed; those clusters cannot be opened",
				s.index, plural(n, "row points", "rows point"), s.clusters, s.size)
		}
	}
}

// plural gives "1 line" or "3 lines"; with two forms, "1 row points" or
// "3 rows point".
func plural(n int, forms ...string) string {
	if n == 1 {
		return "1 " + forms[0]
	}
	if len(forms) > 1 {
		return fmt.Sprintf("%d %s", n, forms[1])
	}
	return fmt.Sprintf("%d %ss", n, forms[0])
}
