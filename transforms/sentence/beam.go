package sentence

import (
	"encoding/binary"
	"fmt"

	"github.com/apache/beam/sdks/v2/go/pkg/beam"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/register"
	"github.com/neardup/neardup/internal/orderedpool"
	"github.com/neardup/neardup/internal/shuffle"
	"github.com/neardup/neardup/io/result"
	"github.com/neardup/neardup/transforms/clean"
)

func init() {
	register.DoFn4x1[int, func(*[]byte) bool, func(*[]byte) bool, func(int, []byte), error](&linesFn{})
	register.Iter1[[]byte]()
	register.Emitter2[int, []byte]()
	register.DoFn2x1[clean.Page, func(Page), error](&splitFn{})
	register.Emitter1[Page]()
}

// Pages splits each page of PCollection<clean.Page> into its sentences and
// returns PCollection<Page>, in the order of the input within each bundle.
// It needs what cleaning does: each page is split by the rules of its
// wiki's language (cfg.Sites), and its sentence ids carry the wiki's index.
// Pages are split on cfg.Workers goroutines, a batch at a time.
func Pages(s beam.Scope, pages beam.PCollection, cfg clean.Config) beam.PCollection {
	return beam.ParDo(s.Scope("Split"), &splitFn{Cfg: cfg}, pages)
}

type splitFn struct {
	Cfg clean.Config

	orderedpool.Mapper[clean.Page, Page]
}

func (f *splitFn) Setup() error {
	wikis, err := NewWikis(f.Cfg.Sites)
	if err != nil {
		return err
	}
	f.StartEach(f.Cfg.Workers, func() func(clean.Page) (Page, error) {
		s := &Splitter{Wikis: wikis}
		return s.Split
	})
	return nil
}

func (f *splitFn) ProcessElement(p clean.Page, emit func(Page)) error {
	size := 0
	for _, para := range p.Paragraphs {
		size += len(para.Text)
	}
	return f.Process(p, size, emit)
}

func (f *splitFn) FinishBundle(emit func(Page)) error { return f.Finish(emit) }

// Lines turns encoded sentences (as minhash.Sign returns them) into JSON
// lines of their Row: the View and the ID of the sentence's cluster, from
// memberships (cluster.Assemble's: lines of a cluster ID keyed by sentence
// id, in batches keyed by the same shards as records). The lines are keyed
// by output shard and sorted by sentence id, for result.WriteUnique.
func Lines(s beam.Scope, records shuffle.Sentences, memberships shuffle.Lines, outShards int) shuffle.Lines {
	s = s.Scope("SentenceLines")
	joined := beam.CoGroupByKey(s, records.Raw(), memberships.Raw())
	return shuffle.MakeLines(beam.ParDo(s, &linesFn{OutShards: outShards}, joined))
}

// Row is a line of sentences-*.jsonl: the sentence and its cluster's ID,
// "" when it is in no cluster.
type Row struct {
	View
	ClusterID string `json:"cluster_id"`
}

type linesFn struct{ OutShards int }

func (f *linesFn) ProcessElement(shard int, records, memberships func(*[]byte) bool, emit func(int, []byte)) error {
	clusters, err := ClusterIDs(shuffle.Collect(memberships))
	if err != nil {
		return fmt.Errorf("sentence: memberships of shard %d: %w", shard, err)
	}
	p := shuffle.NewPacker(shuffle.KindLines, f.OutShards)
	defer p.Flush(emit)
	for _, b := range shuffle.Collect(records) {
		err := shuffle.KindSentences.Records(b, func(rec []byte) error {
			var s Sentence
			if err := s.UnmarshalBinary(rec); err != nil {
				return err
			}
			line, err := result.JSONLine(Row{View: s.View(), ClusterID: clusters[s.ID]})
			if err != nil {
				return err
			}
			p.AddRecord(s.ID.Shard(f.OutShards), result.Record(uint64(s.ID), line), emit)
			return nil
		})
		if err != nil {
			return err
		}
	}
	return nil
}

// ClusterIDs decodes membership batches (cluster.Assemble's): each record
// is a sentence id as 8 big-endian bytes, then its cluster's ID.
func ClusterIDs(batches [][]byte) (map[ID]string, error) {
	ids := map[ID]string{}
	for _, b := range batches {
		err := shuffle.KindLines.Records(b, func(rec []byte) error {
			if len(rec) < 8 {
				return shuffle.ErrCorrupt
			}
			ids[ID(binary.BigEndian.Uint64(rec))] = string(rec[8:])
			return nil
		})
		if err != nil {
			return nil, err
		}
	}
	return ids, nil
}
