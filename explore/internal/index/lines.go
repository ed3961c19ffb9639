package index

import (
	"bufio"
	"io"
)

// readLines calls fn with each line of r that starts in [start, end) of
// its file, without its newline, and its offset; r must be positioned at
// start-1 (at 0 if start is 0), so that a line that starts before start is
// skipped: it belongs to the chunk before. A last line without a newline
// is given with complete false.
func readLines(r io.Reader, start, end int64, fn func(line []byte, at int64, complete bool) error) error {
	br := bufio.NewReaderSize(r, 1<<16)
	pos := start
	if start > 0 {
		n, err := skipLine(br)
		if err == io.EOF {
			return nil
		}
		if err != nil {
			return err
		}
		pos = start - 1 + n
	}
	var long []byte
	for pos < end {
		line, err := br.ReadSlice('\n')
		if err == bufio.ErrBufferFull {
			long = append(long[:0], line...)
			for err == bufio.ErrBufferFull {
				line, err = br.ReadSlice('\n')
				long = append(long, line...)
			}
			line = long
		}
		if err != nil && err != io.EOF {
			return err
		}
		if len(line) == 0 {
			return nil
		}
		at, complete := pos, line[len(line)-1] == '\n'
		pos += int64(len(line))
		if complete {
			line = line[:len(line)-1]
		}
		if err := fn(line, at, complete); err != nil {
			return err
		}
	}
	return nil
}

// skipLine reads up to and including the next newline and returns the
// bytes read.
func skipLine(br *bufio.Reader) (int64, error) {
	var n int64
	for {
		b, err := br.ReadSlice('\n')
		n += int64(len(b))
		if err != bufio.ErrBufferFull {
			return n, err
		}
	}
}
