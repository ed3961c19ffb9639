package index

import (
	"fmt"
	"slices"
	"sync"
)

// merger appends the parts of the jobs to one table of records in job
// order as they come, so that at most a few parts are held besides it.
type merger struct {
	jobs []job
	size int64 // the bytes of all jobs

	mu       sync.Mutex
	pending  []*part // by job, done but not merged
	next     int     // the next job to merge
	done     int64   // the bytes of the merged jobs
	clusters []record
	refs     []uint32 // loading references (articleSet.ref)
	bad      []badRows
	free     []*part // merged parts, for workers to fill again
}

// badRows counts the rows of a job that could not be read.
type badRows struct {
	bad      int
	firstBad string
}

func newMerger(jobs []job) *merger {
	m := &merger{jobs: jobs, pending: make([]*part, len(jobs)), bad: make([]badRows, len(jobs))}
	for _, j := range jobs {
		m.size += j.end - j.start
	}
	return m
}

// part returns an empty part to fill, reusing a merged one's memory.
func (m *merger) part() *part {
	m.mu.Lock()
	defer m.mu.Unlock()
	if n := len(m.free); n > 0 {
		p := m.free[n-1]
		m.free = m.free[:n-1]
		return p
	}
	return &part{}
}

// add merges the part of job i, and any that waited for it.
func (m *merger) add(i int, p *part) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.pending[i] = p
	for m.next < len(m.jobs) && m.pending[m.next] != nil {
		p, j := m.pending[m.next], m.jobs[m.next]
		m.pending[m.next] = nil
		m.bad[m.next] = badRows{p.bad, p.firstBad}
		m.next++
		m.done += j.end - j.start
		if len(m.refs)+len(p.refs) >= 1<<32 {
			return fmt.Errorf("more than %d article references", 1<<32)
		}
		m.clusters = grow(m.clusters, len(p.recs), m.done, m.size)
		m.refs = grow(m.refs, len(p.refs), m.done, m.size)
		base := uint32(len(m.refs))
		for _, rec := range p.recs {
			rec.refs += base
			m.clusters = append(m.clusters, rec)
		}
		m.refs = append(m.refs, p.refs...)
		*p = part{recs: p.recs[:0], refs: p.refs[:0]}
		m.free = append(m.free, p)
	}
	return nil
}

// grow makes room for n more elements in s, which holds those of done of
// size bytes, guessing the whole from the share read so far (and a
// little more), so that the table is not copied at every doubling.
func grow[T any](s []T, n int, done, size int64) []T {
	need := len(s) + n
	if need <= cap(s) {
		return s
	}
	guess := int(float64(need) * float64(size) / float64(done) * 1.1)
	return slices.Grow(s, max(guess, need+need/4, 1024)-len(s))
}
