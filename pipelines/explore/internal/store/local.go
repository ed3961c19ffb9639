package store

import (
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
)

// local is a directory of the local file system.
type local struct{ dir string }

func (l local) Dir() string { return l.dir }

func (l local) path(name string) string { return filepath.Join(l.dir, name) }

func (l local) ReadFile(_ context.Context, name string) ([]byte, error) {
	return os.ReadFile(l.path(name))
}

func (l local) Size(_ context.Context, name string) (int64, error) {
	fi, err := os.Stat(l.path(name))
	if err != nil {
		return 0, err
	}
	if fi.IsDir() {
		return 0, fmt.Errorf("%s is a directory", l.path(name))
	}
	return fi.Size(), nil
}

func (l local) OpenAt(_ context.Context, name string, offset int64) (io.ReadCloser, error) {
	f, err := os.Open(l.path(name))
	if err != nil {
		return nil, err
	}
	if _, err := f.Seek(offset, io.SeekStart); err != nil {
		f.Close()
		return nil, err
	}
	return f, nil
}

func (l local) ReadAt(_ context.Context, name string, p []byte, offset int64) error {
	f, err := os.Open(l.path(name))
	if err != nil {
		return err
	}
	defer f.Close()
	n, err := f.ReadAt(p, offset)
	if n == len(p) {
		return nil
	}
	if err == io.EOF {
		err = io.ErrUnexpectedEOF
	}
	return err
}

func (l local) Close() error { return nil }
