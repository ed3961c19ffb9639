package webcorpus

import "github.com/neardup/neardup/testkit/corpus"

// Config says what corpus Build makes.
type Config struct {
	// Seed decides every draw: the same Config gives the same corpus, byte
	// for byte.
	Seed uint64
	// DataDir is the shared real data (../shared/data from the module
	// root); Sources and Hosts are relative to it.
	DataDir string
	// Dir, if not empty, is where Build writes web.warc.gz and
	// labels.jsonl.
	Dir string
	// Sources are the dumps copied from, in the order content pages cycle
	// through their languages. The pipeline test must read exactly these:
	// labels are checked against every article of them.
	Sources []Source
	// Hosts are gzipped WARC files whose HTML pages give the boilerplate
	// and the untouched negatives.
	Hosts []string
	// Pages of each kind: Verbatim and Edited copy one passage;
	// TwoArticles copy passages of two articles of one dump;
	// SameArticle is a number of pairs of pages copying two parts of one
	// article; Structure fill an article's template for a made-up entity;
	// Real are untouched real pages and Shuffled boilerplate around an
	// article's words shuffled (both negatives).
	Verbatim, Edited, TwoArticles, SameArticle, Structure, Real, Shuffled int
	// MinPassage and MaxPassage bound the sentences of a copied passage.
	MinPassage, MaxPassage int
	// Window is the pipeline's length window: every copied sentence is
	// inside it.
	Window corpus.Window
	// Candidates bounds the passages drawn from each source before
	// those that share a sentence with another article are set aside.
	Candidates int
}

// DefaultConfig is a corpus of 60 pages: 14 verbatim, 12 edited, 4
// copying two articles, 3 pairs copying one article, 8 structure, 8 real
// and 6 shuffled negatives, from Katrina (en), the de and fr minidumps and
// the uk and el truncated dumps.
func DefaultConfig(dataDir string) Config {
	return Config{
		Seed:    1,
		DataDir: dataDir,
		Sources: []Source{
			{File: "wikiduper/Katrina.xml", Lang: "en"},
			{File: "dbpedia-minidumps/dewiki-minidump.xml.bz2", Lang: "de"},
			{File: "xztextfilter-wiki-truncated/ukwiki-truncated-100k.xml.xz", Lang: "uk"},
			{File: "dbpedia-minidumps/frwiki-minidump.xml.bz2", Lang: "fr"},
			{File: "xztextfilter-wiki-truncated/elwiki-truncated-100k.xml.xz", Lang: "el"},
		},
		Hosts: []string{
			"commoncrawl-warc/dolma-sample-0000.warc.gz",
			"commoncrawl-warc/dolma-sample-0001.warc.gz",
		},
		Verbatim: 14, Edited: 12, TwoArticles: 4, SameArticle: 3, Structure: 8, Real: 8, Shuffled: 6,
		MinPassage: 3, MaxPassage: 8,
		Window:     corpus.DefaultWindow,
		Candidates: 60,
	}
}
