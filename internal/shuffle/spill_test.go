package shuffle

import (
	"bytes"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// spillForTest makes the process spill under a temporary directory for the
// test's duration. Tests that spill must not run in parallel: spilling is a
// setting of the process.
func spillForTest(t *testing.T) *Spill {
	t.Helper()
	s, err := SpillTo(t.TempDir(), "test")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return s
}

// packAll packs recs (records) or prs (pairs) with a small batch limit and
// returns the emitted batches of each shard.
func packAll(k Kind, shards int, recs [][]byte, prs []Pair) map[int][][]byte {
	got := map[int][][]byte{}
	emit := func(shard int, b []byte) { got[shard] = append(got[shard], b) }
	p := newPacker(k, shards, 64)
	for i, r := range recs {
		p.AddRecord(i%shards, r, emit)
	}
	for i, pr := range prs {
		p.Add(i%shards, pr, emit)
	}
	p.Flush(emit)
	return got
}

func TestSpilledBatchesReadBack(t *testing.T) {
	var recs [][]byte
	var prs []Pair
	for i := range 200 {
		recs = append(recs, []byte(fmt.Sprintf("record %d %s", i, strings.Repeat("x", i%17))))
		prs = append(prs, Pair{uint64(i * 7919), uint64(1000 + i*3)})
	}
	for _, tc := range []struct {
		kind Kind
		recs [][]byte
		prs  []Pair
	}{
		{KindSentences, recs, nil},
		{KindEntries, nil, prs},
		{KindCandidates, nil, prs},
	} {
		t.Run(tc.kind.String(), func(t *testing.T) {
			want := packAll(tc.kind, 3, tc.recs, tc.prs)
			s := spillForTest(t)
			got := packAll(tc.kind, 3, tc.recs, tc.prs)
			for shard := range 3 {
				if len(got[shard]) != len(want[shard]) {
					t.Fatalf("shard %d: %d batches spilled, %d in memory", shard, len(got[shard]), len(want[shard]))
				}
				for i, ref := range got[shard] {
					if ref[0] != byte(tc.kind)|spillFlag {
						t.Fatalf("shard %d batch %d: first byte %#x, want a reference", shard, i, ref[0])
					}
					a, b := decodeAll(t, tc.kind, ref), decodeAll(t, tc.kind, want[shard][i])
					if !slices.Equal(a, b) {
						t.Fatalf("shard %d batch %d: read back %q, want %q", shard, i, a, b)
					}
				}
			}
			stats := s.Stats()
			var n int64
			for _, w := range want {
				n += int64(len(w))
			}
			if len(stats) != 1 || stats[0].Kind != tc.kind || stats[0].Batches != n {
				t.Errorf("Stats() = %+v, want %d batches of %v", stats, n, tc.kind)
			}
		})
	}
}

// decodeAll decodes a batch of records or pairs into strings.
func decodeAll(t *testing.T, k Kind, b []byte) []string {
	t.Helper()
	var out []string
	if k.encoding() == records {
		if err := k.Records(b, func(rec []byte) error { out = append(out, string(rec)); return nil }); err != nil {
			t.Fatal(err)
		}
		return out
	}
	prs, err := k.AppendPairs(nil, b)
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range prs {
		out = append(out, fmt.Sprint(p))
	}
	return out
}

func TestSpilledBatchErrors(t *testing.T) {
	s := spillForTest(t)
	refs := packAll(KindSentences, 1, [][]byte{[]byte("one record"), []byte("another record")}, nil)[0]
	ref := refs[0]
	files, err := os.ReadDir(s.Dir())
	if err != nil || len(files) != 1 {
		t.Fatalf("spill directory holds %v (%v), want one file", files, err)
	}
	path := filepath.Join(s.Dir(), files[0].Name())
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name    string
		change  func()
		ref     []byte
		want    string
		corrupt bool
	}{
		{"flipped byte", func() {
			d := bytes.Clone(data)
			d[len(d)-1] ^= 1
			os.WriteFile(path, d, 0o600)
		}, ref, "does not match its checksum", true},
		{"truncated file", func() { os.WriteFile(path, data[:len(data)/2], 0o600) }, ref, "unexpected EOF", false},
		{"missing file", func() { os.Remove(path) }, ref, "no such file", false},
		{"cut reference", func() {}, ref[:len(ref)-2], "bad spilled-batch reference", true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			tc.change()
			t.Cleanup(func() { os.WriteFile(path, data, 0o600) })
			err := KindSentences.Records(tc.ref, func([]byte) error { return nil })
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("Records = %v, want an error with %q", err, tc.want)
			}
			if !tc.corrupt && !strings.Contains(err.Error(), path) {
				t.Errorf("error %q does not name the file %s", err, path)
			}
			if errors.Is(err, ErrCorrupt) != tc.corrupt {
				t.Errorf("errors.Is(%v, ErrCorrupt) = %v, want %v", err, !tc.corrupt, tc.corrupt)
			}
		})
	}
	if _, err := KindCandidates.AppendPairs(nil, ref); err == nil || !strings.Contains(err.Error(), "a batch of spilled sentences where candidate edges were expected") {
		t.Errorf("a reference to sentences read as candidate edges: %v", err)
	}
}

func TestSpillSettingOfTheProcess(t *testing.T) {
	s := spillForTest(t)
	if _, err := SpillTo(t.TempDir(), "again"); err == nil {
		t.Fatal("a second SpillTo while the first spills succeeded")
	}
	packAll(KindCandidates, 2, nil, []Pair{{1, 2}, {3, 4}})
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(s.Dir()); !os.IsNotExist(err) {
		t.Errorf("spill directory %s still there after Close (%v)", s.Dir(), err)
	}
	got := packAll(KindCandidates, 1, nil, []Pair{{1, 2}})
	if got[0][0][0] != byte(KindCandidates) {
		t.Errorf("a Packer made after Close emitted %q, want an in-memory batch", got[0][0])
	}
}

func TestSpillFallsBackToMemory(t *testing.T) {
	s := spillForTest(t)
	if err := os.RemoveAll(s.Dir()); err != nil {
		t.Fatal(err)
	}
	got := packAll(KindCandidates, 1, nil, []Pair{{5, 6}})
	b := got[0][0]
	if b[0] != byte(KindCandidates) {
		t.Fatalf("with the spill directory gone the Packer emitted %q, want the batch itself", b)
	}
	if prs, err := KindCandidates.AppendPairs(nil, b); err != nil || !slices.Equal(prs, []Pair{{5, 6}}) {
		t.Errorf("AppendPairs = %v, %v", prs, err)
	}
}

// TestSpillWarnsAtWarnLevel reports a spill directory that cannot be
// written to at the warning level, which --quiet (a warn-level logger)
// still shows, once.
func TestSpillWarnsAtWarnLevel(t *testing.T) {
	var b strings.Builder
	old := slog.Default()
	slog.SetDefault(slog.New(slog.NewTextHandler(&b, &slog.HandlerOptions{Level: slog.LevelWarn})))
	defer slog.SetDefault(old)
	s := &Spill{dir: "/full"}
	s.warn(errors.New("no space left on device"))
	s.warn(errors.New("no space left on device"))
	want := `level=WARN msg="shuffle: cannot spill to /full (no space left on device): batches stay in memory"`
	if got := b.String(); strings.Count(got, "level=") != 1 || !strings.Contains(got, want) {
		t.Errorf("logged %q, want one line holding %q", got, want)
	}
}
