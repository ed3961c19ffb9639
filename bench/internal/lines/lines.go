// Package lines reads the lines of the pipeline's JSON-lines outputs for
// bench/cmd/bench and bench/cmd/peer.
package lines

import (
	"bufio"
	"fmt"
	"os"
	"path/filepath"
)

// Each calls f with every line of the files matching glob, in the order
// of their names; it fails when no file matches. An error of f stops it,
// with the file and line number.
func Each(glob string, f func([]byte) error) error {
	files, err := filepath.Glob(glob)
	if err != nil || len(files) == 0 {
		return fmt.Errorf("no file matches %q", glob)
	}
	for _, name := range files {
		if err := eachOf(name, f); err != nil {
			return err
		}
	}
	return nil
}

func eachOf(name string, f func([]byte) error) error {
	file, err := os.Open(name)
	if err != nil {
		return err
	}
	defer file.Close()
	sc := bufio.NewScanner(file)
	sc.Buffer(make([]byte, 0, 1<<20), 64<<20)
	for n := 1; sc.Scan(); n++ {
		if err := f(sc.Bytes()); err != nil {
			return fmt.Errorf("%s:%d: %w", name, n, err)
		}
	}
	if err := sc.Err(); err != nil {
		return fmt.Errorf("%s: %w", name, err)
	}
	return nil
}
