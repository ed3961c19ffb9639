package bucket

import (
	"testing"

	"github.com/neardup/neardup/internal/shuffle"
)

func TestEdgeSet(t *testing.T) {
	s := newEdgeSet(4)
	steps := []struct {
		e    shuffle.Pair
		want bool
	}{
		{shuffle.Pair{A: 1, B: 2}, true},
		{shuffle.Pair{A: 1, B: 2}, false},
		{shuffle.Pair{A: 2, B: 1}, true},
		{shuffle.Pair{A: 0, B: 7}, true},
		{shuffle.Pair{A: 1 << 60, B: 3}, true}, // the set is full
		{shuffle.Pair{A: 0, B: 7}, false},
		{shuffle.Pair{A: 5, B: 6}, true}, // forgets all, keeps 5–6
		{shuffle.Pair{A: 1, B: 2}, true},
		{shuffle.Pair{A: 5, B: 6}, false},
	}
	for i, st := range steps {
		if got := s.add(st.e); got != st.want {
			t.Errorf("step %d: add(%v) = %v, want %v", i, st.e, got, st.want)
		}
	}
	s.clear()
	if !s.add(shuffle.Pair{A: 5, B: 6}) {
		t.Error("an edge was still there after clear")
	}
}
