package categorize

import (
	"context"
	"fmt"

	"github.com/apache/beam/sdks/v2/go/pkg/beam"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/register"
	"github.com/neardup/neardup/internal/counters"
	"github.com/neardup/neardup/internal/orderedpool"
	"github.com/neardup/neardup/internal/shuffle"
	"github.com/neardup/neardup/io/result"
	"github.com/neardup/neardup/transforms/cluster"
	"github.com/neardup/neardup/transforms/sectionkind"
	"github.com/neardup/neardup/transforms/sentence"
)

func init() {
	register.DoFn6x1[context.Context, cluster.Cluster, []byte, []byte, func(int, []byte), func(counters.Counts), error](&classifyFn{})
	register.Emitter2[int, []byte]()
	register.Emitter1[counters.Counts]()
	// Beam transforms take IsCitation as a function (sectionkind.Learn).
	register.Function1x1(IsCitation)
}

// Cluster is a categorised cluster: a line of clusters-*.jsonl.
type Cluster struct {
	ID       string           `json:"id"`    // wiki:page_id:rev_id:sentence of its first member
	Size     int              `json:"size"`  // number of members
	Pages    int              `json:"pages"` // number of distinct pages
	Category string           `json:"category"`
	Evidence Evidence         `json:"evidence"`
	Cohesion cluster.Cohesion `json:"cohesion"`
	Members  []sentence.View  `json:"members"`
	// MembersOmitted is how many members are not in Members: a cluster of
	// more than cluster.Config.MaxMembers keeps a sample.
	MembersOmitted int `json:"members_omitted,omitempty"`
}

// Categorize classifies c on its members (Classify).
func Categorize(c cluster.Cluster) Cluster { return CategorizeWith(c, Knowledge{}) }

// CategorizeWith classifies c on its members with what the run learned
// (ClassifyWith).
func CategorizeWith(c cluster.Cluster, know Knowledge) Cluster {
	members := make([]Member, len(c.Members))
	for i, v := range c.Members {
		members[i] = Member{Wiki: v.Wiki, Title: v.Title, Section: v.Section, Context: v.Context, Text: v.Text}
	}
	r := ClassifyWith(members, know)
	return Cluster{ID: c.ID, Size: c.Size, Pages: c.Pages, Category: r.Category, Evidence: r.Evidence,
		Cohesion: c.Cohesion, Members: c.Members, MembersOmitted: c.MembersOmitted}
}

// MarshalLine encodes the cluster as one JSON line (without the newline).
func (c Cluster) MarshalLine() ([]byte, error) { return result.JSONLine(c) }

// Config says how Clusters runs and where it sends the lines.
type Config struct {
	OutputShards int // shards of the output lines
	Workers      int // goroutines of the DoFn's pool (0: GOMAXPROCS)
	// Corpora are the input's text corpora and web crawls, whose titles
	// name no subject (Knowledge.Corpora).
	Corpora []string
}

// Learned are what the run learned from its dumps, as the side inputs of
// Clusters: each a PCollection of exactly one element, or the zero
// PCollection for nothing learned.
type Learned struct {
	// Sections is the encoded table of the section headings learned to
	// hold citations: a []byte, as sectionkind.Learn returns it.
	Sections beam.PCollection
	// Entities is the encoded table of the names that name one article:
	// a []byte, as alias.Build returns it.
	Entities beam.PCollection
}

// Clusters categorises each cluster of PCollection<cluster.Cluster> with
// what the run learned (ClassifyWith) and returns their JSON lines, each
// followed by result.IndexSep and the cluster's Digest row, keyed by output
// shard and sorted by the cluster's root, ready for result.WriteIndexed,
// with partial counts by category. Clusters are classified on cfg.Workers
// goroutines, a batch at a time, and packed in input order.
func Clusters(s beam.Scope, clusters beam.PCollection, learned Learned, cfg Config) (shuffle.Lines, beam.PCollection) {
	s = s.Scope("Categories")
	sections := learned.Sections
	if !sections.IsValid() {
		empty, _ := (&sectionkind.Table{}).MarshalBinary()
		sections = beam.Create(s, empty)
	}
	entities := learned.Entities
	if !entities.IsValid() {
		entities = beam.Create(s, []byte{})
	}
	lines, counts := beam.ParDo2(s, &classifyFn{Cfg: cfg}, clusters, beam.SideInput{Input: sections}, beam.SideInput{Input: entities})
	return shuffle.MakeLines(lines), counts
}

type classifyFn struct {
	Cfg Config

	orderedpool.Owner[[]cluster.Cluster, []classified]
	batch  orderedpool.Batch[cluster.Cluster]
	packer *shuffle.Packer
	counts counters.Counts
	// know is what the run learned, decoded from the side inputs by the
	// first element; the pool's workers read it.
	know *Knowledge
}

// classified is a cluster's line and what the counts need.
type classified struct {
	root     uint64
	line     []byte
	size     int
	category string
}

func (f *classifyFn) Setup() {
	f.know = nil
	f.Start(f.Cfg.Workers, 4, func() func([]cluster.Cluster) ([]classified, error) {
		return func(cs []cluster.Cluster) ([]classified, error) { return classifyAll(cs, *f.know) }
	})
}

func (f *classifyFn) StartBundle(_ context.Context, _, _ []byte, _ func(int, []byte), _ func(counters.Counts)) {
	f.batch.Take()
	f.packer = shuffle.NewPacker(shuffle.KindLines, f.Cfg.OutputShards)
	f.counts = counters.Counts{}
}

func (f *classifyFn) ProcessElement(_ context.Context, c cluster.Cluster, sections, entities []byte, emit func(int, []byte), _ func(counters.Counts)) error {
	if f.know == nil {
		// The side inputs are the same for every element: decoded once.
		table := new(sectionkind.Table)
		if err := table.UnmarshalBinary(sections); err != nil {
			return err
		}
		f.know = &Knowledge{}
		for _, c := range f.Cfg.Corpora {
			if f.know.Corpora == nil {
				f.know.Corpora = map[string]bool{}
			}
			f.know.Corpora[c] = true
		}
		if table.Len() > 0 {
			f.know.Sections = table
		}
		names, err := UnmarshalEntities(entities)
		if err != nil {
			return err
		}
		f.know.Entities = names
	}
	if full := f.batch.Add(c, 0); full != nil {
		return f.Pool().Submit(full, f.deliver(emit))
	}
	return nil
}

func (f *classifyFn) FinishBundle(ctx context.Context, _, _ []byte, emit func(int, []byte), emitCounts func(counters.Counts)) error {
	if rest := f.batch.Take(); rest != nil {
		if err := f.Pool().Submit(rest, f.deliver(emit)); err != nil {
			return err
		}
	}
	if err := f.Pool().Flush(f.deliver(emit)); err != nil {
		return err
	}
	f.packer.Flush(emit)
	counters.Emit(ctx, f.counts, emitCounts)
	return nil
}

// classifyAll categorises a batch of clusters and encodes their lines.
func classifyAll(cs []cluster.Cluster, know Knowledge) ([]classified, error) {
	out := make([]classified, len(cs))
	for i, c := range cs {
		k := CategorizeWith(c, know)
		line, err := k.MarshalLine()
		if err != nil {
			return nil, fmt.Errorf("cluster %s: %w", c.ID, err)
		}
		line = AppendDigest(append(line, result.IndexSep), k.Digest())
		out[i] = classified{root: c.Root, line: line, size: c.Size, category: k.Category}
	}
	return out, nil
}

// deliver returns the function that packs classified clusters' lines and
// counts them.
func (f *classifyFn) deliver(emit func(int, []byte)) func([]classified) error {
	return func(cs []classified) error {
		for _, c := range cs {
			f.packer.AddRecord(shuffle.ShardOf(c.root, f.Cfg.OutputShards), result.Record(c.root, c.line), emit)
			f.counts.AddCategory(c.category, 1, int64(c.size))
		}
		return nil
	}
}
