package store

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
)

// local is a directory of the local file system. Its files are read only
// if they are inside it: a symbolic link out of the run directory (a
// report.html linked to /etc/passwd) is refused.
type local struct {
	dir  string
	root *os.Root // nil if dir cannot be opened: each read then says why
}

func openLocal(dir string) local {
	root, _ := os.OpenRoot(dir)
	return local{dir: dir, root: root}
}

func (l local) Dir() string { return l.dir }

func (l local) path(name string) string { return filepath.Join(l.dir, name) }

// confined refuses a name that leads out of the directory (os.Root's
// rule: a symbolic link may point only inside it).
func (l local) confined(name string) error {
	if l.root == nil {
		return nil
	}
	if _, err := l.root.Stat(name); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return fmt.Errorf("%s: %w", l.path(name), err)
	}
	return nil
}

func (l local) ReadFile(_ context.Context, name string) ([]byte, error) {
	if err := l.confined(name); err != nil {
		return nil, err
	}
	return os.ReadFile(l.path(name))
}

func (l local) Size(_ context.Context, name string) (int64, error) {
	if err := l.confined(name); err != nil {
		return 0, err
	}
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
	if err := l.confined(name); err != nil {
		return nil, err
	}
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
	if err := l.confined(name); err != nil {
		return err
	}
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

func (l local) Close() error {
	if l.root == nil {
		return nil
	}
	return l.root.Close()
}

func (l local) subdirs() ([]string, error) {
	entries, err := os.ReadDir(l.dir)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	var names []string
	for _, e := range entries {
		if e.IsDir() {
			names = append(names, e.Name())
		}
	}
	return names, nil // ReadDir sorts by name
}
