// Package bytecount counts the bytes written through a writer: the writers
// of dumps, WARC files and benchmark corpora record offsets with it.
package bytecount

import "io"

// Writer writes to W and counts in N the bytes written.
type Writer struct {
	W io.Writer
	N int64
}

func (c *Writer) Write(p []byte) (int, error) {
	n, err := c.W.Write(p)
	c.N += int64(n)
	return n, err
}
