package result

import (
	"bytes"
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/neardup/neardup/internal/shuffle"
)

// setLimits sets the run budget for a test and gives its sorts a
// temporary directory of their own, which it returns.
func setLimits(t testing.TB, limit int) string {
	t.Helper()
	oldLimit, oldParent := runLimit, tempParent
	t.Cleanup(func() { runLimit, tempParent = oldLimit, oldParent })
	runLimit = limit
	tempParent = filepath.Join(t.TempDir(), "sort")
	if err := os.Mkdir(tempParent, 0o700); err != nil {
		t.Fatal(err)
	}
	return tempParent
}

// checkEmpty fails if the sorts left anything in dir.
func checkEmpty(t testing.TB, dir string) {
	t.Helper()
	if entries, err := os.ReadDir(dir); err != nil || len(entries) != 0 {
		t.Errorf("the sort left %d entries in %s (%v)", len(entries), dir, err)
	}
}

// randomBatches returns n random records in batches of random sizes: keys
// from a small range, so that many repeat, lines often equal and sometimes
// empty, and with indexed, each line ends in IndexSep and an index row.
func randomBatches(rng *rand.Rand, n int, indexed bool) [][]byte {
	var batches [][]byte
	var recs [][]byte
	for i := range n {
		key := rng.Uint64N(uint64(n/3 + 1))
		if rng.IntN(10) == 0 {
			key = rng.Uint64() // the high bytes matter too
		}
		var line []byte
		switch rng.IntN(4) {
		case 0: // empty
		case 1: // one of few
			line = fmt.Appendf(nil, `{"id":"%d"}`, rng.IntN(5))
		default:
			line = fmt.Appendf(nil, `{"id":"%d","text":"%s"}`, i, strings.Repeat("x", rng.IntN(300)))
		}
		if indexed {
			line = fmt.Appendf(append(line, IndexSep), "row\t%d", rng.IntN(3))
		}
		recs = append(recs, Record(key, line))
		if rng.IntN(50) == 0 || i == n-1 {
			batches = append(batches, shuffle.KindLines.PackRecords(recs...))
			recs = nil
		}
	}
	return batches
}

// iter yields batches as a GroupByKey iterator does, with empty batches
// (the writer's empty shards) among them.
func iter(batches [][]byte) func(*[]byte) bool {
	i := 0
	return func(b *[]byte) bool {
		if i == 2*len(batches) {
			return false
		}
		*b = nil
		if i%2 == 1 {
			*b = batches[i/2]
		}
		i++
		return true
	}
}

// wantFiles is what the writer wrote before the external sort: the data
// file and the index file from sortedLines.
func wantFiles(t testing.TB, batches [][]byte, unique, indexed bool) (data, index []byte, n int) {
	t.Helper()
	lines, err := sortedLines(batches, unique)
	if err != nil {
		t.Fatal(err)
	}
	rows := [][]byte(nil)
	if indexed {
		if lines, rows, err = SplitIndex(lines); err != nil {
			t.Fatal(err)
		}
	}
	join := func(ls [][]byte) []byte {
		var b []byte
		for _, l := range ls {
			b = append(append(b, l...), '\n')
		}
		return b
	}
	return join(lines), join(rows), len(lines)
}

func TestSorterMatchesSortedLines(t *testing.T) {
	for _, tt := range []struct {
		name     string
		n, limit int
		minRuns  int
	}{
		{"empty", 0, 1 << 10, 0},
		{"one record", 1, 1 << 10, 0},
		{"in memory", 2000, 32 << 20, 0},
		{"runs of one record", 300, 1, 299},
		{"small runs", 5000, 4 << 10, 50},
		{"large runs", 20000, 256 << 10, 5},
	} {
		for _, unique := range []bool{false, true} {
			t.Run(fmt.Sprintf("%s/unique=%v", tt.name, unique), func(t *testing.T) {
				tmp := setLimits(t, tt.limit)
				batches := randomBatches(rand.New(rand.NewPCG(uint64(tt.n), 1)), tt.n, false)
				want, err := sortedLines(batches, unique)
				if err != nil {
					t.Fatal(err)
				}
				s := newSorter(unique)
				defer s.close()
				for _, b := range batches {
					if err := s.add(b); err != nil {
						t.Fatal(err)
					}
				}
				if len(s.runs) < tt.minRuns {
					t.Errorf("%d runs written, want at least %d", len(s.runs), tt.minRuns)
				}
				if tt.minRuns == 0 && s.f != nil {
					t.Error("a shard that fits in memory was written to a file")
				}
				var got [][]byte
				err = s.merge(func(rec []byte, stable bool) error {
					got = append(got, bytes.Clone(rec[8:]))
					return nil
				})
				if err != nil {
					t.Fatal(err)
				}
				if len(got) != len(want) {
					t.Fatalf("%d lines, want %d", len(got), len(want))
				}
				for i := range got {
					if !bytes.Equal(got[i], want[i]) {
						t.Fatalf("line %d = %q, want %q", i, got[i], want[i])
					}
				}
				if err := s.close(); err != nil {
					t.Fatal(err)
				}
				checkEmpty(t, tmp)
			})
		}
	}
}

func TestWriteShardExternal(t *testing.T) {
	for _, limit := range []int{32 << 20, 8 << 10, 300} {
		for _, unique := range []bool{false, true} {
			for _, indexed := range []bool{false, true} {
				t.Run(fmt.Sprintf("limit=%d/unique=%v/indexed=%v", limit, unique, indexed), func(t *testing.T) {
					tmp := setLimits(t, limit)
					batches := randomBatches(rand.New(rand.NewPCG(7, uint64(limit))), 3000, indexed)
					wantData, wantIndex, wantN := wantFiles(t, batches, unique, indexed)
					dir := t.TempDir()
					fn := &writeShardFn{Dir: dir, Prefix: "clusters", Shards: 3, Files: Files{Unique: unique}}
					if indexed {
						fn.Index = "cluster_index"
					}
					n, err := fn.ProcessElement(t.Context(), 2, iter(batches))
					if err != nil {
						t.Fatal(err)
					}
					if n != wantN {
						t.Errorf("wrote %d lines, want %d", n, wantN)
					}
					data, err := os.ReadFile(filepath.Join(dir, ShardName("clusters", 2, 3)))
					if err != nil {
						t.Fatal(err)
					}
					if !bytes.Equal(data, wantData) {
						t.Errorf("the data file differs from the in-memory sort's (%d bytes, want %d)", len(data), len(wantData))
					}
					files := 1
					if indexed {
						files++
						index, err := os.ReadFile(filepath.Join(dir, IndexName("cluster_index", 2, 3)))
						if err != nil {
							t.Fatal(err)
						}
						if !bytes.Equal(index, wantIndex) {
							t.Errorf("the index differs from the in-memory sort's (%d bytes, want %d)", len(index), len(wantIndex))
						}
					}
					if entries, _ := os.ReadDir(dir); len(entries) != files {
						t.Errorf("%d files in the output directory, want %d", len(entries), files)
					}
					checkEmpty(t, tmp)
				})
			}
		}
	}
}

// TestWriteShardParquetExternal checks that the Parquet file is the same
// whether the shard was sorted in memory or in many runs: its lines are
// copied out of the blocks they were read from.
func TestWriteShardParquetExternal(t *testing.T) {
	var recs [][]byte
	rng := rand.New(rand.NewPCG(3, 4))
	for i := range 2000 {
		line := fmt.Appendf(nil, `{"id":"w:%d:2:%d","wiki":"w","page_id":%d,"rev_id":2,"sentence":%d,"text":"%s"}`,
			i%50, i, i%50, i, strings.Repeat("t", rng.IntN(100)))
		recs = append(recs, Record(rng.Uint64N(500), line))
	}
	batches := [][]byte{shuffle.KindLines.PackRecords(recs[:700]...), shuffle.KindLines.PackRecords(recs[700:]...)}
	var outs [][]byte
	for _, limit := range []int{32 << 20, 2 << 10} {
		tmp := setLimits(t, limit)
		dir := t.TempDir()
		fn := &writeShardFn{Dir: dir, Prefix: "sentences", Shards: 1, Files: Files{Unique: true, Parquet: ParquetSentences}}
		if _, err := fn.ProcessElement(t.Context(), 0, iter(batches)); err != nil {
			t.Fatal(err)
		}
		b, err := os.ReadFile(filepath.Join(dir, ParquetName("sentences", 0, 1)))
		if err != nil {
			t.Fatal(err)
		}
		outs = append(outs, b)
		checkEmpty(t, tmp)
	}
	if !bytes.Equal(outs[0], outs[1]) {
		t.Error("the Parquet file of the external sort differs from the in-memory sort's")
	}
}

// TestWriteShardErrors checks that a failed shard leaves neither output
// files nor the sort's temporary files.
func TestWriteShardErrors(t *testing.T) {
	good := randomBatches(rand.New(rand.NewPCG(1, 2)), 3000, true)
	corrupt := shuffle.KindLines.PackRecords([]byte("x"))
	corrupt = append(corrupt[:1:1], 0xff, 0xff, 0xff) // does not decompress
	tests := []struct {
		name    string
		batches [][]byte
		index   string
		parquet string
		want    string
	}{
		{"corrupt batch in the middle", append(append(good[:len(good)/2:len(good)/2], corrupt), good[len(good)/2:]...), "", "", "corrupt batch"},
		{"record without a key", append(good[:len(good)-1:len(good)-1], shuffle.KindLines.PackRecords([]byte("short"))), "", "", "no sort key"},
		{"line without an index row", append(good[:len(good):len(good)], shuffle.KindLines.PackRecords(Record(1<<62, []byte("{}")))), "idx", "", "has no index row"},
		// The first empty line, among 3,000 of a few runs, is no sentence.
		{"line not of the Parquet table", randomBatches(rand.New(rand.NewPCG(1, 2)), 3000, false), "", ParquetSentences, "parquetfile: sentences line "},
		{"line of the Parquet table, index row missing", append(good[:len(good):len(good)], shuffle.KindLines.PackRecords(Record(1<<62, []byte("{}")))), "idx", ParquetClusters, "has no index row"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tmp := setLimits(t, 4<<10)
			dir := t.TempDir()
			fn := &writeShardFn{Dir: dir, Prefix: "clusters", Shards: 1, Files: Files{Index: tt.index, Parquet: tt.parquet}}
			_, err := fn.ProcessElement(t.Context(), 0, iter(tt.batches))
			if err == nil || !strings.Contains(err.Error(), tt.want) || !strings.Contains(err.Error(), "shard 0 of clusters") {
				t.Errorf("error %v, want one about shard 0 of clusters with %q", err, tt.want)
			}
			checkEmpty(t, dir)
			checkEmpty(t, tmp)
		})
	}
}

// TestSorterCorruptRun checks that a run that does not read back is an
// error naming the file.
func TestSorterCorruptRun(t *testing.T) {
	for _, damage := range []string{"truncated", "overwritten"} {
		t.Run(damage, func(t *testing.T) {
			tmp := setLimits(t, 4<<10)
			s := newSorter(false)
			defer s.close()
			for _, b := range randomBatches(rand.New(rand.NewPCG(5, 6)), 3000, false) {
				if err := s.add(b); err != nil {
					t.Fatal(err)
				}
			}
			if err := s.w.Flush(); err != nil {
				t.Fatal(err)
			}
			var err error
			if damage == "truncated" {
				err = s.f.Truncate(s.off / 2)
			} else {
				_, err = s.f.WriteAt(bytes.Repeat([]byte{0xff}, 200), s.off/2)
			}
			if err != nil {
				t.Fatal(err)
			}
			err = s.merge(func([]byte, bool) error { return nil })
			if err == nil || !strings.Contains(err.Error(), s.path) {
				t.Errorf("merge of a damaged run: %v, want an error naming %s", err, s.path)
			}
			if damage == "overwritten" && !errors.Is(err, shuffle.ErrCorrupt) {
				t.Errorf("merge of a damaged run: %v, want shuffle.ErrCorrupt", err)
			}
			s.close()
			checkEmpty(t, tmp)
		})
	}
}

// TestWriteShardNoTempDir checks that a sort that cannot create its
// temporary directory fails, and one that needs none does not.
func TestWriteShardNoTempDir(t *testing.T) {
	setLimits(t, 4<<10)
	tempParent = filepath.Join(t.TempDir(), "missing")
	batches := randomBatches(rand.New(rand.NewPCG(8, 9)), 3000, false)
	dir := t.TempDir()
	fn := &writeShardFn{Dir: dir, Prefix: "clusters", Shards: 1}
	if _, err := fn.ProcessElement(t.Context(), 0, iter(batches)); err == nil || !strings.Contains(err.Error(), "directory to sort in") {
		t.Errorf("error %v, want one about the directory to sort in", err)
	}
	checkEmpty(t, dir)
	runLimit = runBudget
	if _, err := fn.ProcessElement(t.Context(), 0, iter(batches)); err != nil {
		t.Errorf("a shard that fits in memory: %v", err)
	}
}
