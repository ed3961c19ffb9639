package web

import (
	"github.com/neardup/neardup/explore/internal/index"
)

// Run is an indexed run.
type Run = index.Run

// header is the run's summary shown at the top of every page.
type header struct {
	RunID, Version, Commit, Dir string
	Finished                    string
	Clusters                    int
	Kinds                       []index.KindCount
	Report                      bool
	Passages                    bool // the run wrote passages files
	Pairs                       int
	Warnings                    []string
}

func (s *Server) header() *header {
	r := s.run
	m := r.Manifest
	h := &header{RunID: m.RunID, Version: m.Version, Commit: m.Commit, Dir: r.Store.Dir(), Clusters: r.Len(),
		Report: r.Report, Warnings: r.Warnings,
		Passages: r.HasPassages(), Pairs: r.PairCount()}
	if !m.Finished.IsZero() {
		h.Finished = m.Finished.UTC().Format("2006-01-02 15:04 UTC")
	}
	if r.Summary == nil {
		h.Kinds = r.Kinds()
		return h
	}
	for k, c := range r.Summary.Counts.Categories {
		h.Kinds = append(h.Kinds, index.KindCount{Kind: k, Clusters: c.Clusters, Sentences: c.Sentences})
	}
	index.SortKinds(h.Kinds)
	return h
}
