package launcher

import (
	"flag"
	"io"
	"reflect"
	"slices"
	"testing"
)

// TestRegisterCommon parses command lines with the common flags and checks
// every value that lands in Common, the defaults a command gives, the
// usage it overrides, and the flags named as given.
func TestRegisterCommon(t *testing.T) {
	reuseLike := DefaultCommon()
	reuseLike.MinPassage = 1
	for _, tt := range []struct {
		name     string
		defaults Common
		args     []string
		edit     func(*Common)
		given    []string
	}{
		{"defaults", DefaultCommon(), nil, func(*Common) {}, nil},
		{"a command's default", reuseLike, nil, func(c *Common) { c.MinPassage = 1 }, nil},
		{"every flag", DefaultCommon(), []string{
			"--output=out", "--run_id=r1", "--namespaces=0,14", "--max_page_bytes=100", "--split_bytes=8192",
			"--shingle_length=5", "--min_shingles=3", "--max_shingles=9", "--threshold=0.7", "--recall=0.9",
			"--bands=4", "--rows=3", "--seed=18446744073709551615", "--min_jaccard=0.6", "--max_edit=0.1",
			"--passage_gap=2", "--min_passage=0", "--min_coverage=0.5", "--shards=16", "--output_shards=3", "--dofn_workers=2",
			"--spill_dir=off", "--version",
		}, func(c *Common) {
			*c = Common{
				Output: "out", RunID: "r1", Namespaces: "0,14", MaxPageBytes: 100, SplitBytes: 8192,
				ShingleLength: 5, MinShingles: 3, MaxShingles: 9, Threshold: 0.7, Recall: 0.9,
				Bands: 4, Rows: 3, Seed: 1<<64 - 1, MinJaccard: 0.6, MaxEdit: 0.1,
				PassageGap: 2, MinPassage: 0, MinCoverage: 0.5, Shards: 16, OutputShards: 3, DofnWorkers: 2,
				SpillDir: "off", Version: true,
			}
		}, []string{"bands", "dofn_workers", "max_edit", "max_page_bytes", "max_shingles", "min_coverage", "min_jaccard", "min_passage", "min_shingles",
			"namespaces", "output", "output_shards", "passage_gap", "recall", "rows", "run_id", "seed", "shards", "shingle_length",
			"spill_dir", "split_bytes", "threshold", "version"}},
		{"the same value as the default is given", DefaultCommon(), []string{"--threshold", "0.8", "--shards", "0"}, func(*Common) {}, []string{"shards", "threshold"}},
	} {
		fs := flag.NewFlagSet("test", flag.ContinueOnError)
		got := RegisterCommon(fs, tt.defaults, nil)
		if err := fs.Parse(tt.args); err != nil {
			t.Fatalf("%s: %v", tt.name, err)
		}
		want := tt.defaults
		tt.edit(&want)
		if *got != want {
			t.Errorf("%s: parsed\n%+v\nwant\n%+v", tt.name, *got, want)
		}
		var given []string
		for name := range GivenFlags(fs) {
			given = append(given, name)
		}
		if slices.Sort(given); !slices.Equal(given, tt.given) {
			t.Errorf("%s: given %v, want %v", tt.name, given, tt.given)
		}
	}
}

// TestCommonFlags checks that every common flag has a usage text, that a
// command's text replaces it, that the defaults a command gives are the
// flags' defaults, and that CommonFlags names them all.
func TestCommonFlags(t *testing.T) {
	fs := flag.NewFlagSet("test", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	defaults := DefaultCommon()
	defaults.MinPassage = 1
	RegisterCommon(fs, defaults, map[string]string{"threshold": "its own words"})
	var names []string
	fs.VisitAll(func(f *flag.Flag) {
		names = append(names, f.Name)
		if f.Usage == "" {
			t.Errorf("--%s has no usage text", f.Name)
		}
	})
	if got := CommonFlags(); !slices.Equal(got, names) || len(names) != reflect.TypeFor[Common]().NumField() {
		t.Errorf("CommonFlags() = %v, want the %d flags %v", got, reflect.TypeFor[Common]().NumField(), names)
	}
	if u := fs.Lookup("threshold").Usage; u != "its own words" {
		t.Errorf("--threshold's usage %q, want the command's", u)
	}
	if u := fs.Lookup("recall").Usage; u != commonUsage["recall"] {
		t.Errorf("--recall's usage %q, want the common one", u)
	}
	for name, want := range map[string]string{"min_passage": "1", "namespaces": "0", "split_bytes": "67108864", "threshold": "0.8", "shards": "0", "version": "false"} {
		if got := fs.Lookup(name).DefValue; got != want {
			t.Errorf("--%s defaults to %q, want %q", name, got, want)
		}
	}
}
