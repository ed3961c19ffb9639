package alias

import (
	"context"
	"encoding/binary"
	"fmt"
	"hash/fnv"
	"slices"

	"github.com/apache/beam/sdks/v2/go/pkg/beam"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/register"
	"github.com/neardup/neardup/internal/counters"
	"github.com/neardup/neardup/internal/shuffle"
	"github.com/neardup/neardup/io/document"
	"github.com/neardup/neardup/transforms/clean"
)

func init() {
	register.DoFn4x1[context.Context, clean.Page, func(int, []byte), func(counters.Counts), error](&pageClaimsFn{})
	register.DoFn4x1[context.Context, document.Page, func(int, []byte), func(counters.Counts), error](&redirectClaimsFn{})
	register.DoFn5x1[context.Context, int, func(*[]byte) bool, func(string, []byte), func(counters.Counts), error](&namesFn{})
	register.DoFn5x1[context.Context, string, func(*[]byte) bool, func([]byte), func(counters.Counts), error](&tableFn{})
	register.Function2x0(emptyTable)
	register.Function2x2(MergeEncoded)
	register.Emitter1[[]byte]()
	register.Emitter2[int, []byte]()
	register.Emitter2[string, []byte]()
	register.Emitter1[counters.Counts]()
	register.Iter1[[]byte]()
}

// DefaultMaxNames is the default of Config.MaxNames: a table of that many
// names of one wiki takes some tens of megabytes on each worker.
const DefaultMaxNames = 250_000

// Config says how Build runs; it is serialised with the DoFns.
type Config struct {
	Sites []document.Site // the run's wikis, one per wiki (document.MergeSites)
	// MaxNames bounds the names the table keeps of each wiki, the most
	// used (0: DefaultMaxNames).
	MaxNames int
	Shards   int // shards of the claims' shuffle
}

func (c Config) maxNames() int {
	if c.MaxNames <= 0 {
		return DefaultMaxNames
	}
	return c.MaxNames
}

// wikis returns the names of the run's wikis, sorted: a claim's record
// names its wiki by its index there.
func (c Config) wikis() []string {
	out := make([]string, len(c.Sites))
	for i, s := range c.Sites {
		out[i] = s.Wiki
	}
	slices.Sort(out)
	return out
}

// Build makes the alias table of the run from its redirect pages
// (PCollection<document.Page>, dump.SplitRedirects) and its cleaned pages with
// their links (PCollection<clean.Page>, clean.Config.Links). It returns a
// PCollection of exactly one []byte, the encoded Table of every wiki (empty
// when there is no page), to be read as a side input with ReadTable, and
// partial counts (counters.Aliases).
//
// Each page's claims travel to the shard of their name, batched
// (shuffle.KindClaims); each shard gathers the claims of its names, counts
// a page read twice once, and keeps the heaviest MaxNames names of each
// wiki; the shards' names of a wiki then meet, the heaviest MaxNames are
// kept, links are resolved through the kept redirects, and the wikis'
// tables are joined in the order of their names.
func Build(s beam.Scope, redirects, pages beam.PCollection, cfg Config) (table, counts beam.PCollection) {
	s = s.Scope("Aliases")
	links, linkCounts := beam.ParDo2(s.Scope("LinkClaims"), &pageClaimsFn{claimPacker{Cfg: cfg}}, pages)
	reds, redirectCounts := beam.ParDo2(s.Scope("RedirectClaims"), &redirectClaimsFn{claimPacker{Cfg: cfg}}, redirects)
	claims := beam.GroupByKey(s, beam.Flatten(s, links, reds))
	parts, nameCounts := beam.ParDo2(s.Scope("Names"), &namesFn{Cfg: cfg}, claims)
	wikis, tableCounts := beam.ParDo2(s.Scope("Tables"), &tableFn{Cfg: cfg}, beam.GroupByKey(s, parts))
	// A global combine of nothing is nothing: the empty table makes it one.
	empty := beam.ParDo(s, emptyTable, beam.Impulse(s))
	table = beam.Combine(s.Scope("JoinTables"), MergeEncoded, beam.Flatten(s, wikis, empty))
	return table, beam.Flatten(s, linkCounts, redirectCounts, nameCounts, tableCounts)
}

func emptyTable(_ []byte, emit func([]byte)) { emit([]byte{}) }

// ReadTable decodes the table that Build made, read as a side input of
// type func(*[]byte) bool. A DoFn calls it once (in its first bundle) and
// keeps the table: the side input is the same in every bundle.
func ReadTable(side func(*[]byte) bool) (*Table, error) {
	var b, next []byte
	n := 0
	for side(&next) {
		b, n = next, n+1
	}
	if n != 1 {
		return nil, fmt.Errorf("alias: %d tables in the side input, want 1", n)
	}
	t := &Table{}
	if err := t.UnmarshalBinary(b); err != nil {
		return nil, err
	}
	return t, nil
}

// claimPacker packs claims into batches by the shard of their name.
type claimPacker struct {
	Cfg Config

	wikis      []string
	namespaces map[string]Namespaces
	packer     *shuffle.Packer
	claims     []Claim
	rec        []byte
}

func (p *claimPacker) Setup() {
	p.wikis = p.Cfg.wikis()
	p.namespaces = make(map[string]Namespaces, len(p.Cfg.Sites))
	for _, s := range p.Cfg.Sites {
		p.namespaces[s.Wiki] = NewNamespaces(s.Names())
	}
}

func (p *claimPacker) StartBundle(context.Context, func(int, []byte), func(counters.Counts)) {
	p.packer = shuffle.NewPacker(shuffle.KindClaims, p.Cfg.Shards)
}

// pack packs the claims gathered, all of one wiki.
func (p *claimPacker) pack(wiki string, emit func(int, []byte)) error {
	w, ok := slices.BinarySearch(p.wikis, wiki)
	if !ok {
		return fmt.Errorf("alias: a page of wiki %q, not one of the run's", wiki)
	}
	for _, c := range p.claims {
		p.rec = c.AppendBinary(binary.AppendUvarint(p.rec[:0], uint64(w)))
		p.packer.AddRecord(claimShard(w, c.Key, p.Cfg.Shards), p.rec, emit)
	}
	return nil
}

func (p *claimPacker) FinishBundle(_ context.Context, emit func(int, []byte), _ func(counters.Counts)) error {
	p.packer.Flush(emit)
	return nil
}

// claimShard is the shard of the claims about the name of key in the wiki
// of index w.
func claimShard(w int, key string, shards int) int {
	h := fnv.New64a()
	h.Write(binary.AppendUvarint(nil, uint64(w)))
	h.Write([]byte(key))
	return shuffle.ShardOf(h.Sum64(), shards)
}

// pageClaimsFn packs the claims of each page's title and links.
type pageClaimsFn struct{ claimPacker }

func (f *pageClaimsFn) ProcessElement(_ context.Context, p clean.Page, emit func(int, []byte), _ func(counters.Counts)) error {
	pg := Page{Wiki: p.Wiki, ID: p.ID, RevID: p.RevID, Title: p.Title, Links: p.Links}
	f.claims = AppendPageClaims(f.claims[:0], pg, f.namespaces[p.Wiki])
	return f.pack(p.Wiki, emit)
}

// redirectClaimsFn packs the claims of each redirect page.
type redirectClaimsFn struct{ claimPacker }

func (f *redirectClaimsFn) ProcessElement(_ context.Context, p document.Page, emit func(int, []byte), _ func(counters.Counts)) error {
	f.claims = AppendRedirectClaims(f.claims[:0], p.Wiki, p.Title, p.Redirect, p.Text, f.namespaces[p.Wiki])
	return f.pack(p.Wiki, emit)
}

// namesFn gathers the claims of one shard's names into the candidates of
// each wiki, the heaviest MaxNames of each.
type namesFn struct {
	Cfg Config

	wikis  []string
	counts counters.Counts
}

func (f *namesFn) Setup() { f.wikis = f.Cfg.wikis() }

func (f *namesFn) StartBundle(context.Context, func(string, []byte), func(counters.Counts)) {
	f.counts = counters.Counts{}
}

func (f *namesFn) ProcessElement(_ context.Context, shard int, batches func(*[]byte) bool, emit func(string, []byte), _ func(counters.Counts)) error {
	byWiki := map[int][]Claim{}
	var b []byte
	for batches(&b) {
		err := shuffle.KindClaims.Records(b, func(rec []byte) error {
			w, n := binary.Uvarint(rec)
			if n <= 0 || w >= uint64(len(f.wikis)) {
				return fmt.Errorf("alias: a claim of no wiki of the run")
			}
			c := Claim{Wiki: f.wikis[w]}
			err := c.UnmarshalBinary(rec[n:])
			byWiki[int(w)] = append(byWiki[int(w)], c)
			return err
		})
		if err != nil {
			return fmt.Errorf("alias: claims of shard %d: %w", shard, err)
		}
	}
	for w := range f.wikis {
		claims, ok := byWiki[w]
		if !ok {
			continue
		}
		cs, counts := Candidates(claims)
		cs, dropped := Top(cs, f.Cfg.maxNames())
		counts.NamesDropped += int64(dropped)
		f.counts.Aliases = addAliases(f.counts.Aliases, counts)
		var out []byte
		for _, c := range cs {
			out = c.AppendBinary(out)
		}
		emit(f.wikis[w], out)
	}
	return nil
}

func (f *namesFn) FinishBundle(ctx context.Context, _ func(string, []byte), emit func(counters.Counts)) {
	counters.Emit(ctx, f.counts, emit)
}

// tableFn makes the table of one wiki from its shards' candidates.
type tableFn struct {
	Cfg Config

	counts counters.Counts
}

func (f *tableFn) StartBundle(context.Context, func([]byte), func(counters.Counts)) {
	f.counts = counters.Counts{}
}

func (f *tableFn) ProcessElement(_ context.Context, wiki string, parts func(*[]byte) bool, emit func([]byte), _ func(counters.Counts)) error {
	limit := f.Cfg.maxNames()
	var cs []Candidate
	var b []byte
	for parts(&b) {
		var err error
		if cs, err = UnmarshalCandidates(cs, b); err != nil {
			return fmt.Errorf("alias: wiki %s: %w", wiki, err)
		}
		if len(cs) > 2*limit {
			// The shards' names are distinct: the heaviest of all are
			// among the heaviest of what came so far.
			var dropped int
			cs, dropped = Top(cs, limit)
			f.counts.Aliases.NamesDropped += int64(dropped)
		}
	}
	cs, dropped := Top(cs, limit)
	entries, articles := Resolve(cs)
	f.counts.Aliases = addAliases(f.counts.Aliases, counters.Aliases{
		Names: int64(len(entries)), NamesDropped: int64(dropped), ArticlesDropped: int64(articles)})
	emit(AppendWiki(nil, wiki, entries))
	return nil
}

func (f *tableFn) FinishBundle(ctx context.Context, _ func([]byte), emit func(counters.Counts)) {
	counters.Emit(ctx, f.counts, emit)
}

// addAliases returns a + b.
func addAliases(a, b counters.Aliases) counters.Aliases {
	var c counters.Counts
	c.Aliases = a
	c.Merge(counters.Counts{Aliases: b})
	return c.Aliases
}
