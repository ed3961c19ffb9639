package text

import (
	"context"
	"fmt"
	"os"
	"slices"
	"strings"

	"github.com/apache/beam/sdks/v2/go/pkg/beam/io/filesystem"
)

// Plan returns the Sources of a run's text files: jsonl are its JSON-lines
// files, each a corpus named by CorpusName, and plain its plain-text files,
// all of corpus PlainCorpus, ranked by path. Two JSON-lines files whose
// corpus names are the same (dir1/part-0.jsonl.gz and dir2/part-0.jsonl),
// or one named like the plain-text corpus when there is one, are an error
// naming both: their documents would share ids. So is a directory.
func Plan(ctx context.Context, jsonl, plain []string) ([]Source, error) {
	var out []Source
	byCorpus := map[string]string{}
	claim := func(corpus, file string) error {
		if other, ok := byCorpus[corpus]; ok {
			return fmt.Errorf("text: %s and %s are both corpus %q (a JSON-lines file's corpus is named after the file, the plain-text files' is %q): their ids would mix; rename one",
				other, file, corpus, PlainCorpus)
		}
		byCorpus[corpus] = file
		return nil
	}
	plain = slices.Sorted(slices.Values(plain))
	if len(plain) > 0 {
		byCorpus[PlainCorpus] = plain[0]
	}
	for i, f := range plain {
		size, err := fileSize(ctx, f)
		if err != nil {
			return nil, err
		}
		out = append(out, Source{File: f, Size: size, Plain: true, Corpus: PlainCorpus, Rank: int64(i + 1)})
	}
	for _, f := range slices.Sorted(slices.Values(jsonl)) {
		corpus := CorpusName(f)
		if err := claim(corpus, f); err != nil {
			return nil, err
		}
		size, err := fileSize(ctx, f)
		if err != nil {
			return nil, err
		}
		out = append(out, Source{File: f, Size: size, Corpus: corpus})
	}
	return out, nil
}

// Corpora returns the names of the corpora of sources, sorted, each once.
func Corpora(sources []Source) []string {
	var names []string
	for _, s := range sources {
		names = append(names, s.Corpus)
	}
	slices.Sort(names)
	return slices.Compact(names)
}

// notDirectory refuses a local directory (a glob may match one).
func notDirectory(file string) error {
	if !strings.Contains(file, "://") {
		if info, err := os.Stat(file); err == nil && info.IsDir() {
			return fmt.Errorf("text: input %s is a directory, not a file", file)
		}
	}
	return nil
}

// fileSize returns the size of file through Beam's filesystem layer; a
// local directory is an error naming it.
func fileSize(ctx context.Context, file string) (int64, error) {
	if err := notDirectory(file); err != nil {
		return 0, err
	}
	fs, err := filesystem.New(ctx, file)
	if err != nil {
		return 0, fmt.Errorf("text: no filesystem for %s: %w", file, err)
	}
	defer fs.Close()
	size, err := fs.Size(ctx, file)
	if err != nil {
		return 0, fmt.Errorf("text: size of %s: %w", file, err)
	}
	return size, nil
}
