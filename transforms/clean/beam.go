package clean

import (
	"github.com/apache/beam/sdks/v2/go/pkg/beam"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/register"
	"github.com/neardup/neardup/internal/orderedpool"
	"github.com/neardup/neardup/io/document"
)

func init() {
	register.DoFn2x1[document.Page, func(Page), error](&cleanFn{})
	register.Emitter1[Page]()
}

// Config is what the cleaning stage needs; it is serialised with the DoFn.
type Config struct {
	Sites   []document.Site // the run's wikis, one per wiki (document.MergeSites)
	Workers int             // goroutines of the DoFn's pool (0: GOMAXPROCS)
	Links   bool            // keep each page's internal links (Page.Links)
}

// Pages cleans each page of PCollection<document.Page> and returns
// PCollection<Page>, in the order of the input within each bundle. Pages
// are cleaned on cfg.Workers goroutines, a batch at a time.
func Pages(s beam.Scope, pages beam.PCollection, cfg Config) beam.PCollection {
	return beam.ParDo(s.Scope("Clean"), &cleanFn{Cfg: cfg}, pages)
}

type cleanFn struct {
	Cfg Config

	orderedpool.Mapper[document.Page, Page]
}

func (f *cleanFn) Setup() {
	sites := NewSites(f.Cfg.Sites)
	f.StartEach(f.Cfg.Workers, func() func(document.Page) (Page, error) {
		c := &Cleaner{Sites: sites, Links: f.Cfg.Links}
		return c.Clean
	})
}

func (f *cleanFn) ProcessElement(p document.Page, emit func(Page)) error {
	return f.Process(p, len(p.Text), emit)
}

func (f *cleanFn) FinishBundle(emit func(Page)) error { return f.Finish(emit) }
