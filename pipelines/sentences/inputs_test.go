package main

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/neardup/neardup/io/document"
	"github.com/neardup/neardup/io/input"
	"github.com/neardup/neardup/io/multistream"
	"github.com/neardup/neardup/io/text"
	"github.com/neardup/neardup/transforms/summary"
)

// TestInputsInTheManifest plans a dated dump, an undated one without
// <dbname> and a multistream dump with its index, checks what the manifest
// will record of each, and runs the first to check its manifest.json.
func TestInputsInTheManifest(t *testing.T) {
	dir := t.TempDir()
	sample, err := os.ReadFile("../../testdata/sample/simplewiki-sample.xml") // <dbname>samplewiki</dbname>
	if err != nil {
		t.Fatal(err)
	}
	katrina, err := os.ReadFile("../../testdata/katrina/katrina-slice.xml") // no <dbname>
	if err != nil {
		t.Fatal(err)
	}
	dated := filepath.Join(dir, "samplewiki-20260601-pages-articles1.xml")
	undated := filepath.Join(dir, "Katrina.xml")
	for f, b := range map[string][]byte{dated: sample, undated: katrina} {
		if err := os.WriteFile(f, b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	multi := writeMultistreamAs(t, filepath.Join(dir, "samplewiki-20260501-pages-articles-multistream.xml.bz2"), dated, 3)
	src, err := input.Plan(t.Context(), []string{dated, undated, multi}, text.Auto)
	if err != nil {
		t.Fatal(err)
	}
	sha := func(file string) string {
		t.Helper()
		sums, err := input.Checksums(t.Context(), []string{file})
		if err != nil {
			t.Fatal(err)
		}
		return sums[0].Checksum
	}
	size := func(file string) int64 {
		t.Helper()
		info, err := os.Stat(file)
		if err != nil {
			t.Fatal(err)
		}
		return info.Size()
	}
	index := multistream.IndexName(multi)
	want := []document.Input{
		{Path: dated, Bytes: size(dated), DumpDate: "2026-06-01", DBName: "samplewiki", Checksum: sha(dated)},
		{Path: undated, Bytes: size(undated), Checksum: sha(undated)},
		{Path: multi, Bytes: size(multi), DumpDate: "2026-05-01", DBName: "samplewiki", Checksum: sha(multi)},
		{Path: index, Bytes: size(index), DumpDate: "2026-05-01", DBName: "samplewiki", Checksum: sha(index)},
	}
	got := src.Inputs()
	gotJSON, _ := json.MarshalIndent(got, "", "  ")
	wantJSON, _ := json.MarshalIndent(want, "", "  ")
	if !bytes.Equal(gotJSON, wantJSON) {
		t.Errorf("inputs:\n%s\nwant\n%s", gotJSON, wantJSON)
	}
	for _, in := range got {
		if !strings.HasPrefix(in.Checksum, "sha256:") || len(in.Checksum) != len("sha256:")+64 {
			t.Errorf("%s: checksum %q is not sha256:HEX", in.Path, in.Checksum)
		}
	}

	o := testOptions(t, t.TempDir(), dated)
	o.RunID = ""
	if err := o.prepareRun(t.Context(), "enwiki-20260601"); err != nil {
		t.Fatal(err)
	}
	var m summary.Manifest
	if err := json.Unmarshal(run(t, o)["manifest.json"], &m); err != nil {
		t.Fatalf("manifest.json: %v", err)
	}
	if len(m.Inputs) != 1 || m.Inputs[0] != want[0] {
		t.Errorf("manifest.json inputs %+v, want [%+v]", m.Inputs, want[0])
	}
}
