package index

import (
	"bytes"
	"fmt"
	"strings"
	"testing"
)

// TestReadLinesChunks cuts a file into chunks of every size and checks
// that every line is read exactly once, by the chunk it starts in, with
// its offset; a last line without a newline is given as incomplete.
func TestReadLinesChunks(t *testing.T) {
	short := []string{"a", "", "bb", "ccc", "", "d"}
	long := []string{"a", "", "bb", strings.Repeat("long", 20000), "ccc", "", "d"} // longer than the reader's buffer
	for _, tc := range []struct {
		lines  []string
		chunks []int
	}{{short, []int{1, 2, 3, 5, 64}}, {long, []int{1000, 1 << 16, 1 << 20}}} {
		testReadLines(t, tc.lines, tc.chunks)
	}
}

func testReadLines(t *testing.T, lines []string, chunks []int) {
	for _, tail := range []string{"\n", ""} {
		data := strings.Join(lines, "\n") + tail
		for _, chunk := range chunks {
			t.Run(fmt.Sprintf("chunk %d, tail %q", chunk, tail), func(t *testing.T) {
				var got []string
				var offsets []int64
				incomplete := 0
				for start := 0; start < len(data); start += chunk {
					end := min(start+chunk, len(data))
					from := max(start-1, 0)
					err := readLines(bytes.NewReader([]byte(data[from:])), int64(start), int64(end),
						func(line []byte, at int64, complete bool) error {
							got = append(got, string(line))
							offsets = append(offsets, at)
							if !complete {
								incomplete++
							}
							return nil
						})
					if err != nil {
						t.Fatal(err)
					}
				}
				want := lines // without a newline at the end, the last line is read, incomplete
				if strings.Join(got, "|") != strings.Join(want, "|") {
					t.Fatalf("read %d lines %.80q, want %d", len(got), got, len(want))
				}
				var off int64
				for i, l := range want {
					if offsets[i] != off {
						t.Errorf("line %d at %d, want %d", i, offsets[i], off)
					}
					off += int64(len(l)) + 1
				}
				if wantInc := map[string]int{"\n": 0, "": 1}[tail]; incomplete != wantInc {
					t.Errorf("%d incomplete lines, want %d", incomplete, wantInc)
				}
			})
		}
	}
}
