package minhash

import (
	"cmp"
	"context"
	"errors"
	"io"
	"maps"
	"path/filepath"
	"reflect"
	"runtime"
	"slices"
	"testing"

	"github.com/neardup/neardup/internal/counters"
	"github.com/neardup/neardup/internal/shuffle"
	"github.com/neardup/neardup/io/document"
	"github.com/neardup/neardup/io/dump"
	"github.com/neardup/neardup/testkit/testshared"
	"github.com/neardup/neardup/transforms/clean"
	"github.com/neardup/neardup/transforms/sentence"
	"github.com/neardup/neardup/transforms/shingle"
)

// realPages reads the main-namespace pages of the real dump at path.
func realPages(t *testing.T, path string) []document.Page {
	t.Helper()
	rel := filepath.Base(path)
	rc, err := dump.Open(context.Background(), path)
	if err != nil {
		t.Fatal(err)
	}
	defer rc.Close()
	r := dump.NewReader(rc, rel, dump.Options{})
	var pages []document.Page
	for {
		p, err := r.Next()
		if errors.Is(err, io.EOF) {
			return pages
		}
		if err != nil {
			t.Fatal(err)
		}
		if p.NS == 0 && p.Redirect == "" {
			p.Wiki = "enwiki"
			pages = append(pages, p)
		}
	}
}

// TestSignFnPacksWhatASerialLoopComputes runs the signing DoFn, with its
// pool on four goroutines, over the pages of a real dump and checks that
// it packs exactly the entries, records and counts that a plain loop over
// the same sentences computes, each in the shard the consumers expect.
// With --scheme exact (or simhash) it packs the same records and page
// infos and no entry: those schemes find candidates from the records.
func TestSignFnPacksWhatASerialLoopComputes(t *testing.T) {
	pages := realPages(t, testshared.Katrina(t))
	for _, scheme := range []string{"oph", "exact"} {
		t.Run(scheme, func(t *testing.T) { testSignFn(t, pages, scheme) })
	}
}

func testSignFn(t *testing.T, pages []document.Page, schemeName string) {
	cfg := Config{
		ShingleLength: 12, MinShingles: 75, MaxShingles: 600, Norm: shingle.DefaultNormalization,
		Scheme: schemeName, Bands: 20, Rows: 7, Seed: 1, BucketShards: 8, RecordShards: 5,
	}
	sites := []document.Site{{Wiki: "enwiki", Lang: "en"}}

	scheme, err := cfg.NewScheme()
	if err != nil {
		t.Fatal(err)
	}
	signer, shingler := NewSigner(scheme), shingle.New(cfg.ShingleLength, cfg.Norm)
	splitter := sentence.PageSplitter{Sites: clean.NewSites(sites)}
	if splitter.Wikis, err = sentence.NewWikis(sites); err != nil {
		t.Fatal(err)
	}
	var split []sentence.Page
	for _, p := range pages {
		sp, err := splitter.Split(p)
		if err != nil {
			t.Fatal(err)
		}
		split = append(split, sp)
	}
	var wantEntries []shuffle.Pair
	wantRecords := map[sentence.ID]string{}
	var want counters.Counts
	for _, p := range split {
		rank := 0
		for _, st := range p.Sentences {
			want.Sentences++
			switch n := len(shingler.Hashes(st.Text)); {
			case n <= cfg.MinShingles:
				want.SentencesTooShort++
				continue
			case n >= cfg.MaxShingles:
				want.SentencesTooLong++
				continue
			}
			want.SentencesInWindow++
			for _, k := range signer.AppendKeys(nil, shingler.Hashes(st.Text)) {
				wantEntries = append(wantEntries, shuffle.Pair{A: k, B: uint64(st.ID)})
				want.Signatures++
			}
			st.Rank, rank = rank, rank+1
			rec := st.AppendBinary(nil)
			wantRecords[st.ID] = string(rec)
		}
	}

	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(4))
	var gotEntries []shuffle.Pair
	gotRecords := map[sentence.ID]string{}
	var got counters.Counts
	emitEntries := func(shard int, b []byte) {
		pairs, err := shuffle.KindEntries.AppendPairs(nil, b)
		if err != nil {
			t.Fatal(err)
		}
		for _, p := range pairs {
			if shuffle.Shard(p.A, cfg.BucketShards) != shard {
				t.Fatalf("entry %v in shard %d", p, shard)
			}
		}
		gotEntries = append(gotEntries, pairs...)
	}
	emitRecords := func(shard int, b []byte) {
		err := shuffle.KindSentences.Records(b, func(rec []byte) error {
			var id sentence.ID
			if err := id.UnmarshalPrefix(rec); err != nil {
				return err
			}
			if id.Shard(cfg.RecordShards) != shard {
				t.Fatalf("record of %v in shard %d", id, shard)
			}
			gotRecords[id] = string(rec)
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	ctx := context.Background()
	f := &signFn{Cfg: cfg}
	if err := f.Setup(); err != nil {
		t.Fatal(err)
	}
	defer f.Teardown()
	var infos []PageInfo
	emitInfos := func(shard int, b []byte) {
		err := shuffle.KindPageInfos.Records(b, func(rec []byte) error {
			var i PageInfo
			if err := i.UnmarshalBinary(rec); err != nil {
				return err
			}
			if shuffle.ShardOf(i.Doc, cfg.RecordShards) != shard {
				t.Fatalf("info of %d in shard %d", i.Doc, shard)
			}
			infos = append(infos, i)
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	f.StartBundle(ctx, emitEntries, emitRecords, emitInfos, nil)
	for _, p := range split {
		if err := f.ProcessElement(ctx, p, emitEntries, emitRecords, emitInfos, nil); err != nil {
			t.Fatal(err)
		}
	}
	if err := f.FinishBundle(ctx, emitEntries, emitRecords, emitInfos, func(c counters.Counts) { got.Merge(c) }); err != nil {
		t.Fatal(err)
	}
	var fromInfos PageCounts
	for _, i := range infos {
		fromInfos.Sentences += i.Counts.Sentences
		fromInfos.InWindow += i.Counts.InWindow
		fromInfos.Signatures += i.Counts.Signatures
	}
	if len(infos) != len(pages) || fromInfos.Sentences != want.Sentences || fromInfos.InWindow != want.SentencesInWindow ||
		fromInfos.Signatures != want.Signatures {
		t.Errorf("%d page infos adding up to %+v; want %d adding up to the counts %+v", len(infos), fromInfos, len(pages), want)
	}

	if want.SentencesInWindow == 0 || want.SentencesTooShort == 0 {
		t.Fatalf("counts %+v: the dump proves nothing", want)
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("counts %+v, want %+v", got, want)
	}
	byPair := func(x, y shuffle.Pair) int { return cmp.Or(cmp.Compare(x.A, y.A), cmp.Compare(x.B, y.B)) }
	slices.SortFunc(gotEntries, byPair)
	slices.SortFunc(wantEntries, byPair)
	if (schemeName == "exact") != (len(wantEntries) == 0) {
		t.Errorf("scheme %s: %d entries", schemeName, len(wantEntries))
	}
	if !slices.Equal(gotEntries, wantEntries) {
		t.Errorf("%d entries, want the %d of the loop", len(gotEntries), len(wantEntries))
	}
	if !maps.Equal(gotRecords, wantRecords) {
		t.Errorf("%d records, want %d equal to the loop's", len(gotRecords), len(wantRecords))
	}
}
