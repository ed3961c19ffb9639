package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"slices"
	"time"

	"github.com/neardup/neardup/io/dump"
	"github.com/neardup/neardup/transforms/minhash"
	"github.com/neardup/neardup/transforms/sentence"
	"github.com/neardup/neardup/transforms/shingle"
	"github.com/neardup/neardup/transforms/wikitext"
)

// stageTimes is the time of each per-sentence stage of the pipeline, run
// alone in one goroutine over the same file, with the parameters of the
// pipeline's run on it.
type stageTimes struct {
	Read, Clean, Split, Sign time.Duration
	Sentences, InWindow      int64
}

// measureStages reads file and runs the pure stages the pipeline runs before
// its first shuffle, timing each: reading and parsing pages, cleaning
// wikitext, splitting sentences, and shingling and signing, with the
// parameters p of the pipeline's run (its summary.json's).
func measureStages(ctx context.Context, file string, p parameters) (stageTimes, error) {
	var st stageTimes
	scheme, err := minhash.Config{Scheme: p.Scheme, Bands: p.Bands, Rows: p.Rows, Seed: p.Seed}.NewScheme()
	if err != nil {
		return st, fmt.Errorf("stages: %w", err)
	}
	rc, err := dump.Open(ctx, file)
	if err != nil {
		return st, err
	}
	defer rc.Close()
	r := dump.NewReader(rc, file, dump.Options{MaxPageBytes: p.MaxPageBytes})
	var cleaner wikitext.Cleaner
	shingler := shingle.New(p.ShingleLength, shingle.Normalization{FoldCase: p.FoldCase, CollapseSpace: p.CollapseSpace})
	signer := minhash.NewSigner(scheme)
	var paras []wikitext.Paragraph
	var spans []sentence.Span
	var keys []uint64
	for {
		t := time.Now()
		page, err := r.Next()
		st.Read += time.Since(t)
		var pageErr *dump.PageError
		switch {
		case errors.Is(err, io.EOF), errors.Is(err, dump.ErrTruncated):
			return st, nil
		case errors.As(err, &pageErr):
			continue
		case err != nil:
			return st, fmt.Errorf("stages: %w", err)
		}
		if (p.Namespaces != nil && !slices.Contains(p.Namespaces, page.NS)) || page.Redirect != "" {
			continue
		}
		t = time.Now()
		paras = cleaner.AppendClean(paras[:0], page.Text)
		st.Clean += time.Since(t)
		for _, para := range paras {
			t = time.Now()
			spans = sentence.AppendSplit(spans[:0], para.Text)
			st.Split += time.Since(t)
			for _, sp := range spans {
				st.Sentences++
				t = time.Now()
				hashes := shingler.Hashes(para.Text[sp.Start:sp.End])
				if n := len(hashes); n > p.MinShingles && n < p.MaxShingles {
					st.InWindow++
					keys = signer.AppendKeys(keys[:0], hashes)
				}
				st.Sign += time.Since(t)
			}
		}
	}
}

// stageRows lays out the stage times against the pipeline's CPU time for the
// same file: what the stages before the first shuffle cost, and the rest
// (shuffles, verification, components, classification, writing, the runner).
func stageRows(st stageTimes, p parameters, pipelineCPU time.Duration) [][]string {
	row := func(name string, d time.Duration) []string {
		perSentence := "–"
		if st.InWindow > 0 {
			perSentence = fmt.Sprintf("%.1f", float64(d.Microseconds())/float64(st.InWindow))
		}
		share := "–"
		if pipelineCPU > 0 {
			share = fmt.Sprintf("%.0f%%", 100*d.Seconds()/pipelineCPU.Seconds())
		}
		return []string{name, fmt.Sprintf("%.3f", d.Seconds()), perSentence, share}
	}
	sum := st.Read + st.Clean + st.Split + st.Sign
	return [][]string{
		row("read + parse pages", st.Read),
		row("clean wikitext", st.Clean),
		row("split sentences", st.Split),
		row(fmt.Sprintf("shingle + MinHash (%s %d×%d)", p.Scheme, p.Bands, p.Rows), st.Sign),
		row("rest of the pipeline (CPU − stages)", max(pipelineCPU-sum, 0)),
	}
}

var stageColumns = []string{"stage", "s", "µs per in-window sentence", "share of pipeline CPU"}
