package result

import (
	"os"
	"path/filepath"
	"slices"
	"testing"

	_ "github.com/apache/beam/sdks/v2/go/pkg/beam/io/filesystem/local"
	"github.com/neardup/neardup/internal/shuffle"
)

func TestSortedLines(t *testing.T) {
	var b1, b2 []byte
	b1 = shuffle.KindLines.PackRecords(Record(300, []byte(`{"id":"c"}`)), Record(2, []byte(`{"id":"b"}`)))
	b2 = shuffle.KindLines.PackRecords(Record(2, []byte(`{"id":"a"}`)), Record(1<<40, []byte(``)))
	for _, order := range [][][]byte{{b1, b2}, {b2, b1}} {
		lines, err := SortedLines(order)
		if err != nil {
			t.Fatal(err)
		}
		var got []string
		for _, l := range lines {
			got = append(got, string(l))
		}
		want := []string{`{"id":"a"}`, `{"id":"b"}`, `{"id":"c"}`, ``}
		if !slices.Equal(got, want) {
			t.Errorf("SortedLines = %q, want %q (by key, then content, whatever the batch order)", got, want)
		}
	}
	if _, err := SortedLines([][]byte{shuffle.KindLines.PackRecords([]byte("short"))}); err == nil {
		t.Error("a record without a sort key was accepted")
	}
}

func TestShardName(t *testing.T) {
	if got := ShardName("clusters", 3, 12); got != "clusters-00003-of-00012.jsonl" {
		t.Errorf("ShardName = %q", got)
	}
	if got := Join("gs://b/dir/", "x.json"); got != "gs://b/dir/x.json" {
		t.Errorf("Join = %q", got)
	}
}

func TestWriteFileAtomically(t *testing.T) {
	ctx := t.Context()
	dir := filepath.Join(t.TempDir(), "run")
	name := Join(dir, "clusters-00000-of-00001.jsonl")
	if err := WriteFile(ctx, name, [][]byte{[]byte("one"), []byte("two")}); err != nil {
		t.Fatal(err)
	}
	got, err := ReadFile(ctx, name)
	if err != nil || string(got) != "one\ntwo\n" {
		t.Fatalf("ReadFile = %q, %v", got, err)
	}
	entries, _ := os.ReadDir(dir)
	if len(entries) != 1 {
		t.Errorf("directory holds %d entries, want only the renamed file", len(entries))
	}
	if ok, err := Exists(ctx, name); !ok || err != nil {
		t.Errorf("Exists(written file) = %v, %v", ok, err)
	}
	if ok, err := Exists(ctx, Join(dir, "manifest.json")); ok || err != nil {
		t.Errorf("Exists(missing file) = %v, %v", ok, err)
	}
	// A file in the way of the directory makes the write fail with the path in the message.
	blocked := Join(name, "x.jsonl")
	if err := WriteFile(ctx, blocked, nil); err == nil {
		t.Error("writing under a regular file succeeded")
	}
	if err := CheckWritable(ctx, dir); err != nil {
		t.Errorf("CheckWritable(writable dir) = %v", err)
	}
	if err := CheckWritable(ctx, name); err == nil {
		t.Error("CheckWritable(a file) succeeded")
	}
}

func TestJSONLine(t *testing.T) {
	got, err := JSONLine(map[string]string{"text": "a < b & c"})
	if err != nil || string(got) != `{"text":"a < b & c"}` {
		t.Errorf("JSONLine = %s, %v; want HTML characters unescaped and no newline", got, err)
	}
}

// TestWriteShardIsRetrySafe runs the shard writer twice on the same input,
// as a runner does when it retries a bundle: the file is replaced by the
// same bytes and nothing else is left behind.
func TestWriteShardIsRetrySafe(t *testing.T) {
	dir := t.TempDir()
	fn := &writeShardFn{Dir: dir, Prefix: "clusters", Shards: 2}
	batches := [][]byte{
		shuffle.KindLines.PackRecords(Record(9, []byte("nine"))),
		shuffle.KindLines.PackRecords(Record(1, []byte("one")), Record(5, []byte("five"))),
	}
	var contents []string
	for attempt := range 2 {
		i := 0
		iter := func(b *[]byte) bool {
			if i == len(batches) {
				return false
			}
			*b = batches[i]
			i++
			return true
		}
		n, err := fn.ProcessElement(t.Context(), 1, iter)
		if err != nil || n != 3 {
			t.Fatalf("attempt %d: wrote %d lines, %v", attempt, n, err)
		}
		b, err := os.ReadFile(filepath.Join(dir, "clusters-00001-of-00002.jsonl"))
		if err != nil {
			t.Fatal(err)
		}
		contents = append(contents, string(b))
	}
	if contents[0] != "one\nfive\nnine\n" || contents[1] != contents[0] {
		t.Errorf("attempts wrote %q", contents)
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 1 {
		t.Errorf("%d files left, want 1", len(entries))
	}
}
