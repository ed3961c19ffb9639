package input

// What the manifest records of each input file: its dump date, <dbname>
// and checksum.

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"regexp"
	"runtime"
	"slices"
	"strings"
	"time"

	"cloud.google.com/go/storage"
	"golang.org/x/sync/errgroup"

	"github.com/apache/beam/sdks/v2/go/pkg/beam/io/filesystem"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/util/gcsx"
	"github.com/neardup/neardup/internal/gcsclient"
)

// datedDump matches the names Wikimedia gives the files of a dump,
// DBNAME-YYYYMMDD-…: enwiki-20260601-pages-articles-multistream.xml.bz2,
// enwiki-20260601-pages-articles-multistream-index.txt.bz2.
var datedDump = regexp.MustCompile(`^[a-z][a-z0-9_]*-([0-9]{8})-`)

// DumpDate returns the date in the name of a Wikimedia dump's file as
// YYYY-MM-DD, or "" if the name has none (a "latest" dump, a file named
// otherwise, a date that does not exist).
func DumpDate(file string) string {
	m := datedDump.FindStringSubmatch(file[strings.LastIndexAny(file, `/\`)+1:])
	if m == nil {
		return ""
	}
	d, err := time.Parse("20060102", m[1])
	if err != nil {
		return ""
	}
	return d.Format(time.DateOnly)
}

// FileSum is a file's checksum, as the manifest records it.
type FileSum struct {
	Checksum string // "crc32c:HEX" or "sha256:HEX"
	MD5      string // hex; gs:// objects that have one
}

// Checksums returns the checksum of each file, several at a time: a gs://
// object's CRC32C (and MD5) from its metadata, without reading it; the
// SHA-256 of any other file, read once, streaming.
func Checksums(ctx context.Context, files []string) ([]FileSum, error) {
	var client *storage.Client
	if slices.ContainsFunc(files, func(f string) bool { return gcsclient.IsGCS(f) }) {
		var err error
		if client, err = gcsclient.New(ctx, storage.ScopeReadOnly); err != nil {
			return nil, fmt.Errorf("checksums of the inputs: %w", err)
		}
		defer client.Close()
	}
	sums := make([]FileSum, len(files))
	g, gctx := errgroup.WithContext(ctx)
	g.SetLimit(max(runtime.GOMAXPROCS(0), 4)) // hashing is CPU-bound, metadata look-ups are not
	for i, f := range files {
		g.Go(func() error {
			var err error
			if gcsclient.IsGCS(f) {
				sums[i], err = gcsChecksum(gctx, client, f)
			} else {
				sums[i], err = sha256Checksum(gctx, f)
			}
			return err
		})
	}
	if err := g.Wait(); err != nil {
		return nil, err
	}
	return sums, nil
}

// gcsChecksum returns the CRC32C and MD5 that GCS keeps of a gs:// object.
func gcsChecksum(ctx context.Context, client *storage.Client, file string) (FileSum, error) {
	bucket, object, err := gcsx.ParseObject(file)
	if err != nil {
		return FileSum{}, fmt.Errorf("checksum of %s: %w", file, err)
	}
	attrs, err := client.Bucket(bucket).Object(object).Attrs(ctx)
	if err != nil {
		return FileSum{}, fmt.Errorf("checksum of %s: %w", file, err)
	}
	sum := FileSum{Checksum: fmt.Sprintf("crc32c:%08x", attrs.CRC32C)}
	if len(attrs.MD5) > 0 {
		sum.MD5 = hex.EncodeToString(attrs.MD5)
	}
	return sum, nil
}

// sha256Checksum reads a file through Beam's filesystem layer and returns
// its SHA-256.
func sha256Checksum(ctx context.Context, file string) (FileSum, error) {
	fs, err := filesystem.New(ctx, file)
	if err != nil {
		return FileSum{}, fmt.Errorf("checksum of %s: %w", file, err)
	}
	defer fs.Close()
	r, err := fs.OpenRead(ctx, file)
	if err != nil {
		return FileSum{}, fmt.Errorf("checksum of %s: %w", file, err)
	}
	defer r.Close()
	h := sha256.New()
	if _, err := io.CopyBuffer(h, ctxReader{ctx, r}, make([]byte, 1<<20)); err != nil {
		return FileSum{}, fmt.Errorf("checksum of %s: %w", file, err)
	}
	return FileSum{Checksum: "sha256:" + hex.EncodeToString(h.Sum(nil))}, nil
}

// ctxReader stops reading once its context is done.
type ctxReader struct {
	ctx context.Context
	r   io.Reader
}

func (c ctxReader) Read(p []byte) (int, error) {
	if err := c.ctx.Err(); err != nil {
		return 0, err
	}
	return c.r.Read(p)
}
