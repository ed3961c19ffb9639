package progress

import (
	"bytes"
	"context"
	"io"
	"strings"
	"testing"
	"time"
)

func TestLine(t *testing.T) {
	tests := []struct {
		name  string
		snap  Snapshot
		total int64
		want  string
	}{
		{"start", Snapshot{}, 0, "progress 0:05: reading; 0 pages, 0.0 MiB read"},
		{"reading", Snapshot{PagesCounter: 1234567, BytesCounter: 300 << 20}, 1200 << 20,
			"progress 0:05: reading; 1,234,567 pages, 300 MiB of 1200 MiB (25%) read"},
		{"readers done", Snapshot{PagesCounter: 2608, "pages_read": 2608, BytesCounter: 65 << 20}, 65 << 20,
			"progress 0:05: splitting; 2,608 pages, 65 MiB of 65 MiB (100%) read"},
		{"verifying", Snapshot{PagesCounter: 10, BytesCounter: 1 << 20, "sentences": 312958, "sentences_in_window": 173774,
			"signatures": 1, "candidate_edges": 143481}, 1 << 20,
			"progress 0:05: verifying; 10 pages, 1.0 MiB of 1.0 MiB (100%) read; 312,958 sentences; 173,774 in window; 143,481 candidate pairs"},
		{"bytes over the total (ranges overlap at their ends)", Snapshot{BytesCounter: 11 << 20, "clusters": 7}, 10 << 20,
			"progress 0:05: categories; 0 pages, 11 MiB of 10 MiB (100%) read; 7 clusters"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := tt.snap.Line(5*time.Second+300*time.Millisecond, tt.total); got != tt.want {
				t.Errorf("Line =\n %q\nwant\n %q", got, tt.want)
			}
		})
	}
}

func TestCount(t *testing.T) {
	for n, want := range map[int64]string{0: "0", 999: "999", 1000: "1,000", 1234567: "1,234,567", -1234: "-1,234"} {
		if got := count(n); got != want {
			t.Errorf("count(%d) = %q, want %q", n, got, want)
		}
	}
}

func TestMeterCountsBytesAndPages(t *testing.T) {
	var m Meter
	r := m.Reader(strings.NewReader(strings.Repeat("x", 10000)))
	if n, err := io.Copy(io.Discard, r); n != 10000 || err != nil {
		t.Fatalf("copy: %d, %v", n, err)
	}
	ctx := context.Background()
	for range reportEvery - 1 {
		m.Page(ctx)
	}
	if m.reported != 0 {
		t.Errorf("reported %d pages before %d were read", m.reported, reportEvery)
	}
	m.Page(ctx)
	if m.reported != reportEvery || m.sent.Load() != 10000 {
		t.Errorf("after %d pages: reported %d pages and %d bytes, want %d and 10000", reportEvery, m.reported, m.sent.Load(), reportEvery)
	}
	m.Add(ctx, 3, 500)
	m.Flush(ctx)
	if m.reported != reportEvery+3 || m.sent.Load() != 10500 {
		t.Errorf("after Add and Flush: %d pages, %d bytes", m.reported, m.sent.Load())
	}
	var buf bytes.Buffer
	if _, err := io.Copy(&buf, m.Reader(strings.NewReader("abc"))); err != nil || buf.String() != "abc" {
		t.Errorf("the reader changes what it reads: %q, %v", buf.String(), err)
	}
}
