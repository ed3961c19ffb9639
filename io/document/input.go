package document

// Input is an input file as the launcher found it, for the run's manifest.
type Input struct {
	Path  string `json:"path"`
	Bytes int64  `json:"bytes"`
	// DumpDate is the date in a Wikimedia dump's file name, as YYYY-MM-DD
	// (enwiki-20260601-pages-articles.xml.bz2: 2026-06-01); "" for a file
	// named otherwise.
	DumpDate string `json:"dump_date,omitempty"`
	// DBName is the <dbname> of the dump's <siteinfo> (for a multistream
	// index, that of its dump); "" if it has none.
	DBName string `json:"dbname,omitempty"`
	// Format is "jsonl" or "text" for a file of a text corpus (package
	// io/text), "" for a MediaWiki dump.
	Format string `json:"format,omitempty"`
	// Corpus is a text file's corpus, its documents' wiki in sentence ids.
	Corpus string `json:"corpus,omitempty"`
	// Baseline marks a file of --baseline (an earlier dump whose pages are
	// compared with the input's); absent for an input file.
	Baseline bool `json:"baseline,omitempty"`
	// Checksum identifies the file's content: "crc32c:HEX" for a gs://
	// object, from its metadata (the file is not read), "sha256:HEX" for
	// any other file, computed at launch.
	Checksum string `json:"checksum"`
	// MD5 is a gs:// object's MD5 hash in hex, where GCS keeps one (not for
	// composite objects).
	MD5 string `json:"md5,omitempty"`
}
