package index

import (
	"context"
	"fmt"

	"golang.org/x/sync/errgroup"
)

// fileSize is a file's size, or why it cannot be had.
type fileSize struct {
	size int64
	err  error
}

// plan finds the sizes of the run's files and cuts the files to read into
// jobs: each shard's index, or, where there is none, its clusters file,
// decoded line by line. It says in r.Warnings what is missing.
func (r *Run) plan(ctx context.Context, workers int, chunk int64) ([]job, error) {
	clusters, indexes := make([]fileSize, len(r.shards)), make([]fileSize, len(r.shards))
	g, gctx := errgroup.WithContext(ctx)
	g.SetLimit(workers)
	for i, s := range r.shards {
		g.Go(func() error {
			clusters[i].size, clusters[i].err = r.Store.Size(gctx, s.clusters)
			if s.index != "" {
				indexes[i].size, indexes[i].err = r.Store.Size(gctx, s.index)
			}
			return nil
		})
	}
	g.Wait()
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	var jobs []job
	unindexed := 0
	for i := range r.shards {
		s := &r.shards[i]
		s.size = clusters[i].size
		if err := clusters[i].err; err != nil {
			s.size = -1
		}
		switch {
		case s.index != "" && indexes[i].err == nil:
			if err := clusters[i].err; err != nil {
				r.warnf("%s cannot be read (%v): the clusters its index lists cannot be opened", s.clusters, err)
			}
			jobs = appendJobs(jobs, chunk, job{shard: i, name: s.index}, indexes[i].size)
		case clusters[i].err != nil:
			r.warnf("%s cannot be read (%v), nor its index: its clusters are not listed", s.clusters, clusters[i].err)
		case s.index != "":
			r.warnf("%s is listed in manifest.json but cannot be read (%v): reading %s instead, which is slower",
				s.index, indexes[i].err, s.clusters)
			r.Scanned = true
			jobs = appendJobs(jobs, chunk, job{shard: i, name: s.clusters, scan: true}, s.size)
		default:
			unindexed++
			r.Scanned = true
			jobs = appendJobs(jobs, chunk, job{shard: i, name: s.clusters, scan: true}, s.size)
		}
	}
	if unindexed > 0 {
		r.Warnings = append([]string{fmt.Sprintf(
			"this run was written by version %s, before cluster indexes: its clusters files were read whole instead, which is slower; rerun with a newer neardup for a fast start",
			r.Manifest.Version)}, r.Warnings...)
	}
	return jobs, nil
}

// appendJobs appends the chunks of a file of size bytes to jobs.
func appendJobs(jobs []job, chunk int64, j job, size int64) []job {
	for start := int64(0); start < size; start += chunk {
		j.start, j.end = start, min(start+chunk, size)
		jobs = append(jobs, j)
	}
	return jobs
}
