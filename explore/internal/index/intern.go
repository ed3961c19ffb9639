package index

import (
	"errors"
	"sync"
)

// interner numbers distinct names, for any number of goroutines.
type interner struct {
	mu    sync.Mutex
	max   int
	ids   map[string]int
	names []string
}

func newInterner(max int) *interner { return &interner{max: max, ids: map[string]int{}} }

var errTooManyNames = errors.New("too many distinct names")

func (in *interner) id(name []byte) (int, error) {
	in.mu.Lock()
	defer in.mu.Unlock()
	if id, ok := in.ids[string(name)]; ok {
		return id, nil
	}
	if len(in.names) >= in.max {
		return 0, errTooManyNames
	}
	id := len(in.names)
	in.names = append(in.names, string(name))
	in.ids[string(name)] = id
	return id, nil
}
