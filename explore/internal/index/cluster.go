package index

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"

	"github.com/neardup/neardup/explore/internal/store"
	"github.com/neardup/neardup/transforms/categorize"
)

// ReadLine reads cluster i's line from its clusters file, with one range
// read, without its newline; ReadCluster says what is wrong when it fails.
func (r *Run) ReadLine(ctx context.Context, i int) ([]byte, error) {
	c := &r.clusters[i]
	buf := make([]byte, c.length)
	return buf, r.Store.ReadAt(ctx, r.shards[c.shard].clusters, buf, c.offset)
}

// ReadCluster reads cluster i's line from its clusters file, with one range
// read, and decodes it. The error says what is wrong with the run's files
// when the line is not there or not the cluster the index says.
func (r *Run) ReadCluster(ctx context.Context, i int) (categorize.Cluster, error) {
	c := &r.clusters[i]
	s := r.shards[c.shard]
	id := formatID(r.wikis[c.wiki], c.page, c.revOrd)
	end := c.offset + int64(c.length)
	pastEnd := func(size string) error {
		return fmt.Errorf("the index places cluster %s at bytes %d–%d of %s, past its end (%s): the file is truncated, or not the one indexed",
			id, c.offset, end, s.clusters, size)
	}
	if s.size < 0 {
		return categorize.Cluster{}, fmt.Errorf("%s, which holds cluster %s, is missing from %s", s.clusters, id, r.Store.Dir())
	}
	if end > s.size {
		return categorize.Cluster{}, pastEnd(fmt.Sprintf("%d bytes", s.size))
	}
	buf, err := r.ReadLine(ctx, i)
	if err != nil {
		switch {
		case store.IsNotExist(err):
			return categorize.Cluster{}, fmt.Errorf("%s, which holds cluster %s, is missing from %s", s.clusters, id, r.Store.Dir())
		case errors.Is(err, io.ErrUnexpectedEOF), errors.Is(err, io.EOF):
			return categorize.Cluster{}, pastEnd("it has become shorter")
		}
		return categorize.Cluster{}, fmt.Errorf("reading cluster %s from %s at byte %d: %w", id, s.clusters, c.offset, err)
	}
	var k categorize.Cluster
	if err := json.Unmarshal(buf, &k); err != nil {
		return categorize.Cluster{}, fmt.Errorf("the line at byte %d of %s, where the index places cluster %s, is not a cluster's JSON (%v): the file is damaged, or not the one indexed",
			c.offset, s.clusters, id, err)
	}
	if k.ID != id {
		return categorize.Cluster{}, fmt.Errorf("the line at byte %d of %s is cluster %s, not %s as the index says: the index does not match the file",
			c.offset, s.clusters, k.ID, id)
	}
	return k, nil
}
