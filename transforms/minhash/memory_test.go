package minhash

import (
	"os"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/neardup/neardup/io/document"
	"github.com/neardup/neardup/transforms/sentence"
	"github.com/neardup/neardup/transforms/shingle"
)

// oneLinePage is a page whose wikitext is one paragraph of about size bytes
// without a sentence terminator: one sentence of that size.
func oneLinePage(size int) document.Page {
	const words = "lorem ipsum dolor sit amet consectetur adipiscing elit sed do eiusmod tempor incididunt ut labore "
	text := strings.Repeat(words, size/len(words)+1)[:size]
	return document.Page{File: "big.xml", Wiki: "enwiki", ID: 1, RevID: 1, Title: "Big", Text: text}
}

// memoryOf signs the pages on one signer worker and returns the bytes
// allocated meanwhile and the peak of the heap in use above what it was
// before, sampled every millisecond.
func memoryOf(t testing.TB, pages []document.Page) (allocated, peak uint64, out *signed) {
	t.Helper()
	cfg := Config{
		ShingleLength: 12, MinShingles: 75, MaxShingles: 600, Norm: shingle.DefaultNormalization,
		Scheme: "oph", Bands: 20, Rows: 7, Seed: 1, BucketShards: 4, RecordShards: 4,
	}
	scheme, err := cfg.NewScheme()
	if err != nil {
		t.Fatal(err)
	}
	w := &signer{cfg: cfg, bands: scheme.Bands, shingler: shingle.New(cfg.ShingleLength, cfg.Norm), signer: NewSigner(scheme)}
	var splitter sentence.PageSplitter
	runtime.GC()
	var before runtime.MemStats
	runtime.ReadMemStats(&before)
	var maxInuse uint64
	stop, done := make(chan struct{}), sync.WaitGroup{}
	done.Add(1)
	go func() {
		defer done.Done()
		var m runtime.MemStats
		for {
			runtime.ReadMemStats(&m)
			maxInuse = max(maxInuse, m.HeapInuse)
			select {
			case <-stop:
				return
			case <-time.After(time.Millisecond):
			}
		}
	}()
	// The pages are cleaned and split, as the stages before signing do,
	// and signed.
	split := make([]sentence.Page, len(pages))
	for i, p := range pages {
		if split[i], err = splitter.Split(p); err != nil {
			t.Fatal(err)
		}
	}
	out, err = w.sign(split)
	close(stop)
	done.Wait()
	if err != nil {
		t.Fatal(err)
	}
	var after runtime.MemStats
	runtime.ReadMemStats(&after)
	maxInuse = max(maxInuse, after.HeapInuse)
	runtime.KeepAlive(w)
	return after.TotalAlloc - before.TotalAlloc, maxInuse - min(maxInuse, before.HeapInuse), out
}

// TestSignerGivesUpATooLongSentenceEarly signs a one-line page of 16 MB,
// one sentence far over MaxShingles: it must be counted too long without
// costing its runes (4 bytes each) and hashes (8 bytes each), which made a
// 60 MB page cost 3 GB.
func TestSignerGivesUpATooLongSentenceEarly(t *testing.T) {
	const size = 16 << 20
	p := oneLinePage(size)
	allocated, peak, out := memoryOf(t, []document.Page{p})
	if len(out.status) != 1 || out.status[0] != 1 {
		t.Fatalf("statuses %v, want one sentence too long", out.status)
	}
	t.Logf("%d MB page: %.1f MB allocated, heap peak +%.1f MB", size>>20, float64(allocated)/(1<<20), float64(peak)/(1<<20))
	// The cleaner and splitter copy the text a few times; the shingler
	// must add nothing of the sentence's size.
	if limit := uint64(6 * size); allocated > limit {
		t.Errorf("signing a %d MB one-line page allocated %d MB, want at most %d MB", size>>20, allocated>>20, limit>>20)
	}
	if limit := uint64(6 * size); peak > limit {
		t.Errorf("signing a %d MB one-line page raised the heap by %d MB, want at most %d MB", size>>20, peak>>20, limit>>20)
	}
}

// TestSignerMemoryOfAHugePage measures a one-line page of
// NEARDUP_HUGE_PAGE_MB megabytes (60 in the issue); skipped without it.
func TestSignerMemoryOfAHugePage(t *testing.T) {
	mb, _ := strconv.Atoi(os.Getenv("NEARDUP_HUGE_PAGE_MB"))
	if mb <= 0 {
		t.Skip("set NEARDUP_HUGE_PAGE_MB to measure")
	}
	allocated, peak, _ := memoryOf(t, []document.Page{oneLinePage(mb << 20)})
	t.Logf("%d MB one-line page: %.0f MB allocated (%.1f×), heap peak +%.0f MB (%.1f×)", mb,
		float64(allocated)/(1<<20), float64(allocated)/float64(mb<<20), float64(peak)/(1<<20), float64(peak)/float64(mb<<20))
}
