package input

import (
	"context"
	"crypto/md5"
	"encoding/hex"
	"fmt"
	"hash/crc32"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/neardup/neardup/testkit/testshared/fakegcs"
)

func TestInputDumpDate(t *testing.T) {
	for file, want := range map[string]string{
		"enwiki-20260601-pages-articles1.xml":                                             "2026-06-01",
		"/dumps/enwiki-20260601-pages-articles-multistream.xml.bz2":                       "2026-06-01",
		"gs://b/enwiki/20260601/enwiki-20260601-pages-articles-multistream-index.txt.bz2": "2026-06-01",
		"zh_min_nanwiki-20251120-pages-articles.xml.bz2":                                  "2025-11-20",
		`C:\dumps\dewiki-20130602-id1.xml`:                                                "2013-06-02",
		"enwiki-latest-pages-articles.xml.bz2":                                            "",
		"enwiki-test-pages-articles-multistream.xml.bz2":                                  "",
		"Katrina.xml":                        "",
		"simplewiki-sample.xml":              "",
		"enwiki-20261301-pages-articles.xml": "", // no 13th month
		"enwiki-2026060-pages-articles.xml":  "",
		"/dumps/20260601/pages-articles.xml": "",
		"gs://b/enwiki-20260601-pages-articles.xml/copy-of-enwiki-20260501-pages.xml.bz2": "",
	} {
		if got := DumpDate(file); got != want {
			t.Errorf("DumpDate(%q) = %q, want %q", file, got, want)
		}
	}
}

// TestInputChecksumOfALocalFile checks that a local file's checksum is the
// SHA-256 that sha256sum computes, on a file larger than the copy buffer.
func TestInputChecksumOfALocalFile(t *testing.T) {
	sha256sum, err := exec.LookPath("sha256sum")
	if err != nil {
		t.Skip("sha256sum not found")
	}
	dir := t.TempDir()
	content := make([]byte, 3<<20+12345)
	r := rand.NewChaCha8([32]byte{1})
	r.Read(content)
	files := []string{filepath.Join(dir, "a.xml"), filepath.Join(dir, "empty.xml")}
	if err := os.WriteFile(files[0], content, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(files[1], nil, 0o644); err != nil {
		t.Fatal(err)
	}
	sums, err := Checksums(context.Background(), files)
	if err != nil {
		t.Fatal(err)
	}
	for i, f := range files {
		out, err := exec.Command(sha256sum, f).Output()
		if err != nil {
			t.Fatal(err)
		}
		want := "sha256:" + strings.Fields(string(out))[0]
		if sums[i].Checksum != want || sums[i].MD5 != "" {
			t.Errorf("%s: checksum %q, md5 %q; want %s (sha256sum) and no md5", f, sums[i].Checksum, sums[i].MD5, want)
		}
	}
	if _, err := Checksums(context.Background(), []string{filepath.Join(dir, "missing.xml")}); err == nil || !strings.Contains(err.Error(), "missing.xml") {
		t.Errorf("checksum of a missing file: %v, want an error naming it", err)
	}
}

// TestInputChecksumOfAGCSObject checks that a gs:// object's checksum is
// the CRC32C (Castagnoli) of its content and its MD5, as GCS keeps them.
func TestInputChecksumOfAGCSObject(t *testing.T) {
	content := []byte("<mediawiki><page><title>A</title></page></mediawiki>\n")
	srv := fakegcs.Setenv(t, "dumps", fakegcs.Object("dumps", "enwiki/enwiki-20260601-pages-articles.xml", content))
	sums, err := Checksums(context.Background(), []string{"gs://dumps/enwiki/enwiki-20260601-pages-articles.xml"})
	if err != nil {
		t.Fatal(err)
	}
	md5sum := md5.Sum(content)
	want := FileSum{
		Checksum: fmt.Sprintf("crc32c:%08x", crc32.Checksum(content, crc32.MakeTable(crc32.Castagnoli))),
		MD5:      hex.EncodeToString(md5sum[:]),
	}
	if sums[0] != want {
		t.Errorf("checksum %+v, want %+v", sums[0], want)
	}
	if _, err := Checksums(context.Background(), []string{"gs://dumps/missing.xml"}); err == nil || !strings.Contains(err.Error(), "gs://dumps/missing.xml") {
		t.Errorf("checksum of a missing object: %v, want an error naming it", err)
	}
	if objs := srv.Objects(t, ""); len(objs) != 1 {
		t.Errorf("the bucket holds %q, want the one object", objs)
	}
}

// BenchmarkInputChecksum measures the SHA-256 the launcher computes of a
// local input, on a 64 MiB file (read from the page cache after the first
// iteration).
func BenchmarkInputChecksum(b *testing.B) {
	file := filepath.Join(b.TempDir(), "enwiki-20260601-pages-articles1.xml")
	content := make([]byte, 64<<20)
	rand.NewChaCha8([32]byte{2}).Read(content)
	if err := os.WriteFile(file, content, 0o644); err != nil {
		b.Fatal(err)
	}
	b.SetBytes(int64(len(content)))
	for b.Loop() {
		if _, err := Checksums(context.Background(), []string{file}); err != nil {
			b.Fatal(err)
		}
	}
}
