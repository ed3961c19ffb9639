package main

import (
	"testing"

	"github.com/apache/beam/sdks/v2/go/pkg/beam"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/testing/ptest"
)

// BenchmarkPipeline runs the whole pipeline on Prism over the largest
// English samples and reports in-window sentences per second.
func BenchmarkPipeline(b *testing.B) {
	for _, rel := range []string{
		"wikiduper/Katrina.xml",
		"gensim-wiki/enwiki-latest-pages-articles1.xml-p000000010p000030302-shortened.bz2",
	} {
		b.Run(rel, func(b *testing.B) {
			o := testOptions(b, b.TempDir(), needShared(b, rel))
			var sentences int64
			for b.Loop() {
				p, s := beam.NewPipelineWithRoot()
				if err := Build(s, o); err != nil {
					b.Fatal(err)
				}
				if err := ptest.Run(p); err != nil {
					b.Fatal(err)
				}
				sentences = readSummaryFile(b, o.RunDir()).SentencesInWindow
			}
			b.ReportMetric(float64(sentences)*float64(b.N)/b.Elapsed().Seconds(), "sentences/s")
		})
	}
}
