package exactjoin

import (
	"context"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"runtime"
	"slices"
	"strings"
	"testing"

	"github.com/apache/beam/sdks/v2/go/pkg/beam"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/register"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/testing/passert"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/testing/ptest"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/transforms/filter"

	"github.com/neardup/neardup/internal/counters"
	"github.com/neardup/neardup/internal/shuffle"
	"github.com/neardup/neardup/testkit/sentencetest"
	"github.com/neardup/neardup/testkit/testshared"
	"github.com/neardup/neardup/transforms/docfreq"
	"github.com/neardup/neardup/transforms/sentence"
	"github.com/neardup/neardup/transforms/shingle"
)

// TestMain runs the package's pipeline tests on ptest's runner, Prism
// unless --runner says otherwise.
func TestMain(m *testing.M) { ptest.Main(m) }

func init() {
	register.DoFn3x1[int, []byte, func(string), error](&candidateStringsFn{})
	register.Function1x2(schemeJSON)
	register.Emitter1[string]()
}

// candidateStringsFn decodes a batch of candidates as "U-V" lines,
// checking that each is keyed by U's shard.
type candidateStringsFn struct{ Shards int }

func (f *candidateStringsFn) ProcessElement(shard int, b []byte, emit func(string)) error {
	pairs, err := shuffle.KindCandidates.AppendPairs(nil, b)
	for _, p := range pairs {
		if shuffle.ShardOf(p.A, f.Shards) != shard {
			return fmt.Errorf("candidate %v keyed by shard %d", p, shard)
		}
		emit(fmt.Sprintf("%d-%d", p.A, p.B))
	}
	return err
}

func schemeJSON(c counters.Counts) (string, error) {
	var rest counters.Counts
	rest.Scheme = c.Scheme
	if !rest.IsZero() && fmt.Sprint(rest) != fmt.Sprint(c) {
		return "", fmt.Errorf("counts beyond the scheme's: %+v", c)
	}
	b, err := json.Marshal(c.Scheme)
	return string(b), err
}

// expected returns what Candidates must return for the sentences: every
// distinct candidate and star edge in both directions, and the counts.
func expected(sents []sentence.Sentence, t float64) ([]any, string) {
	j := joinAll(realSets(sents), t)
	var want []any
	for _, p := range distinctPairs(append(j.candidates, j.stars...)) {
		want = append(want, fmt.Sprintf("%d-%d", p.A, p.B), fmt.Sprintf("%d-%d", p.B, p.A))
	}
	n := int64(len(j.stars))
	counts, _ := json.Marshal(counters.Scheme{
		Entries: j.stats.Entries, Groups: j.stats.Groups, LargestGroup: j.stats.LargestGroup,
		PairsCompared: j.stats.PairsCompared, PairsFiltered: j.stats.PairsFiltered,
		Candidates: j.stats.Candidates + n, IdenticalSets: n,
	})
	return want, string(counts)
}

// TestCandidates runs the join on Prism over the Katrina export's
// sentences (its committed slice without ../shared), with several shard
// counts and pools: it returns what the join computed in memory
// returns, keyed as verify.Edges wants.
func TestCandidates(t *testing.T) {
	sents := sentencetest.InWindow(t, testshared.Katrina(t))
	const recordShards = 5
	want, wantCounts := expected(sents, 0.8)
	if len(want) < 20 {
		t.Fatalf("%d candidates: the sentences prove nothing", len(want))
	}
	batches := sentencetest.Batches(t, sents, recordShards, 200)
	for _, c := range []struct{ shards, workers int }{{1, 1}, {7, 2}} {
		t.Run(fmt.Sprintf("shards=%d,workers=%d", c.shards, c.workers), func(t *testing.T) {
			cfg := Config{Threshold: 0.8, ShingleLength: shingleLength, Norm: shingle.DefaultNormalization,
				Shards: c.shards, RecordShards: recordShards, Workers: c.workers}
			p, s := beam.NewPipelineWithRoot()
			records := sentencetest.Records(s, batches, recordShards)
			cands, counts := Candidates(s, records, cfg)
			got := filter.Distinct(s, beam.ParDo(s, &candidateStringsFn{Shards: recordShards}, cands.Raw()))
			passert.Equals(s, got, want...)
			passert.Equals(s, beam.ParDo(s, schemeJSON, counters.Total(s, counts)), wantCounts)
			ptest.RunAndValidate(t, p)
		})
	}
	t.Logf("%d sentences: %d candidate pairs, counts %s", len(sents), len(want)/2, wantCounts)
}

func TestValidate(t *testing.T) {
	ok := Config{Threshold: 0.8, ShingleLength: 12, Shards: 1, RecordShards: 1}
	tests := []struct {
		name string
		edit func(*Config)
		ok   bool
	}{
		{"defaults", func(*Config) {}, true},
		{"threshold 1", func(c *Config) { c.Threshold = 1 }, true},
		{"threshold 0", func(c *Config) { c.Threshold = 0 }, false},
		{"threshold above 1", func(c *Config) { c.Threshold = 1.5 }, false},
		{"no shards", func(c *Config) { c.Shards = 0 }, false},
		{"no record shards", func(c *Config) { c.RecordShards = 0 }, false},
		{"no shingle length", func(c *Config) { c.ShingleLength = 0 }, false},
	}
	for _, tt := range tests {
		c := ok
		tt.edit(&c)
		if err := c.Validate(); (err == nil) != tt.ok {
			t.Errorf("%s: Validate() = %v, want ok %v", tt.name, err, tt.ok)
		}
	}
}

// TestJoinFnNamesTheShardOfABadBatch feeds the join a batch of another
// kind.
func TestJoinFnNamesTheShardOfABadBatch(t *testing.T) {
	f := &joinFn{Cfg: Config{Threshold: 0.8, ShingleLength: 12, Shards: 2, RecordShards: 2, Workers: 2}}
	if err := f.Setup(); err != nil {
		t.Fatal(err)
	}
	defer f.Teardown()
	ctx := context.Background()
	emit := func(int, []byte) {}
	f.StartBundle(ctx, emit, nil)
	err := f.ProcessElement(ctx, 3, testshared.Iter(shuffle.KindSentences.PackRecords([]byte("x"))), emit, nil)
	if err == nil {
		err = f.FinishBundle(ctx, emit, func(counters.Counts) {})
	}
	if err == nil || !strings.Contains(err.Error(), "shard 3") {
		t.Errorf("error %v, want one naming shard 3", err)
	}
}

// runDoFns runs the join's DoFns without Beam: the prefixes of the record
// batches dealt over the given number of bundles, a GroupByKey in memory
// (each shard's batches in a shuffled order), then one bundle of each
// group stage over the shards in order. It returns everything the group
// stages emitted, as "shard: bytes" strings in emission order, and the
// counts.
func runDoFns(t *testing.T, batches [][]byte, cfg Config, sketch docfreq.Sketch, bundles int, seed uint64) ([]string, counters.Counts) {
	t.Helper()
	ctx := context.Background()
	sets, prefixes := map[int][][]byte{}, map[int][][]byte{}
	pf := &prefixFn{Cfg: cfg}
	if err := pf.Setup(); err != nil {
		t.Fatal(err)
	}
	emitSets := func(shard int, b []byte) { sets[shard] = append(sets[shard], b) }
	emitPrefixes := func(shard int, b []byte) { prefixes[shard] = append(prefixes[shard], b) }
	for b := range bundles {
		pf.StartBundle(ctx, sketch, emitSets, emitPrefixes)
		for i := b; i < len(batches); i += bundles {
			if err := pf.ProcessElement(ctx, 0, batches[i], sketch, emitSets, emitPrefixes); err != nil {
				t.Fatal(err)
			}
		}
		if err := pf.FinishBundle(ctx, sketch, emitSets, emitPrefixes); err != nil {
			t.Fatal(err)
		}
	}
	pf.Teardown()
	r := rand.New(rand.NewPCG(seed, 1))
	var out []string
	var counts counters.Counts
	emit := func(shard int, b []byte) { out = append(out, fmt.Sprintf("%d: %x", shard, b)) }
	emitCounts := func(c counters.Counts) { counts.Merge(c) }
	type stage interface {
		StartBundle(context.Context, func(int, []byte), func(counters.Counts))
		ProcessElement(context.Context, int, func(*[]byte) bool, func(int, []byte), func(counters.Counts)) error
		FinishBundle(context.Context, func(int, []byte), func(counters.Counts)) error
		Teardown()
	}
	idf, jf := &identicalFn{Cfg: cfg}, &joinFn{Cfg: cfg}
	idf.Setup()
	if err := jf.Setup(); err != nil {
		t.Fatal(err)
	}
	for _, st := range []struct {
		fn     stage
		groups map[int][][]byte
	}{{idf, sets}, {jf, prefixes}} {
		st.fn.StartBundle(ctx, emit, emitCounts)
		for shard := range cfg.Shards {
			bs := st.groups[shard]
			r.Shuffle(len(bs), func(i, j int) { bs[i], bs[j] = bs[j], bs[i] })
			if err := st.fn.ProcessElement(ctx, shard, testshared.Iter(bs...), emit, emitCounts); err != nil {
				t.Fatal(err)
			}
		}
		if err := st.fn.FinishBundle(ctx, emit, emitCounts); err != nil {
			t.Fatal(err)
		}
		st.fn.Teardown()
	}
	return out, counts
}

// TestDoFnsAreDeterministic checks that the candidates come out byte for
// byte the same on one worker or four, and whatever the bundles of the
// prefix stage and the order of each shard's batches.
func TestDoFnsAreDeterministic(t *testing.T) {
	sents := sentencetest.InWindow(t, testshared.Katrina(t))
	cfg := Config{Threshold: 0.8, ShingleLength: shingleLength, Norm: shingle.DefaultNormalization, Shards: 3, RecordShards: 4}
	var sketch docfreq.Sketch
	tok := cfg.docfreq().Tokenizer()
	for _, s := range sents {
		sketch.AddDocument(tok.AppendTokens(nil, s.Text))
	}
	batches := sentencetest.Batches(t, sents, cfg.RecordShards, 100)
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(4))
	var first []string
	var firstCounts counters.Counts
	for i, run := range []struct {
		workers, bundles int
		seed             uint64
	}{{1, 1, 1}, {4, 1, 2}, {4, 3, 3}, {0, 5, 4}} {
		c := cfg
		c.Workers = run.workers
		out, counts := runDoFns(t, batches, c, sketch, run.bundles, run.seed)
		if i == 0 {
			first, firstCounts = out, counts
			if len(out) == 0 || counts.Scheme.Candidates == 0 {
				t.Fatalf("no candidates: %+v", counts.Scheme)
			}
			continue
		}
		if !slices.Equal(out, first) {
			t.Errorf("%d workers, %d bundles: %d batches differ from the first run's %d", run.workers, run.bundles, len(out), len(first))
		}
		if counts.Scheme != firstCounts.Scheme {
			t.Errorf("%d workers, %d bundles: counts %+v, want %+v", run.workers, run.bundles, counts.Scheme, firstCounts.Scheme)
		}
	}
}
