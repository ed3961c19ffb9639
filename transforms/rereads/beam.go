package rereads

import (
	"context"
	"fmt"

	"github.com/neardup/neardup/transforms/minhash"

	"github.com/apache/beam/sdks/v2/go/pkg/beam"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/register"
	"github.com/neardup/neardup/internal/counters"
	"github.com/neardup/neardup/internal/shuffle"
)

func init() {
	register.DoFn4x1[context.Context, int, func(*[]byte) bool, func(counters.Counts), error](&resolveFn{})
	register.Iter1[[]byte]()
	register.Emitter1[counters.Counts]()
}

// Count groups the encoded minhash.PageInfos, keyed by shuffle.ShardOf(Doc, shards),
// and returns the partial counts that take
// the repeated copies out of the totals (see Resolve). A conflicting copy
// fails the run.
func Count(s beam.Scope, infos shuffle.PageInfos) beam.PCollection {
	s = s.Scope("Rereads")
	return beam.ParDo(s, &resolveFn{}, beam.GroupByKey(s, infos.Raw()))
}

type resolveFn struct{}

func (f *resolveFn) ProcessElement(ctx context.Context, shard int, batches func(*[]byte) bool, emit func(counters.Counts)) error {
	var infos []minhash.PageInfo
	var b []byte
	for batches(&b) {
		err := shuffle.KindPageInfos.Records(b, func(rec []byte) error {
			var i minhash.PageInfo
			if err := i.UnmarshalBinary(rec); err != nil {
				return err
			}
			infos = append(infos, i)
			return nil
		})
		if err != nil {
			return fmt.Errorf("rereads: shard %d: %w", shard, err)
		}
	}
	c, err := Resolve(infos)
	if err != nil {
		return err
	}
	counters.Emit(ctx, c, emit)
	return nil
}
