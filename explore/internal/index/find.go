package index

import (
	"context"
	"encoding/json"
	"slices"
	"strings"
	"time"

	"github.com/neardup/neardup/explore/internal/store"
	"github.com/neardup/neardup/transforms/summary"
)

// RunIn is a finished run found inside a directory that is not one: an
// output directory (--output) holds one run directory per run id.
type RunIn struct {
	Name     string    // the run directory's name, its run id
	Finished time.Time // when its manifest was written
}

// RunsIn lists the finished runs directly inside st's directory (those
// whose manifest.json reads), the latest to finish first, ties by name.
func RunsIn(ctx context.Context, st store.Store) ([]RunIn, error) {
	names, err := store.Subdirs(ctx, st)
	if err != nil {
		return nil, err
	}
	var runs []RunIn
	for _, name := range names {
		sub, err := store.Open(ctx, st.Dir()+"/"+name)
		if err != nil {
			return nil, err
		}
		b, err := sub.ReadFile(ctx, "manifest.json")
		sub.Close()
		var m summary.Manifest
		if err != nil || json.Unmarshal(b, &m) != nil {
			continue // not a run, or one that did not finish
		}
		runs = append(runs, RunIn{Name: name, Finished: m.Finished})
	}
	slices.SortStableFunc(runs, func(a, b RunIn) int {
		if c := b.Finished.Compare(a.Finished); c != 0 {
			return c
		}
		return strings.Compare(a.Name, b.Name)
	})
	return runs, nil
}
