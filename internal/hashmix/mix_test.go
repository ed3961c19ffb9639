package hashmix

import "testing"

// The first outputs of splitmix64 seeded with 1234567, as published with
// the reference C implementation (prng.di.unimi.it/splitmix64.c) and used to
// test its ports.
func TestGeneratorMatchesReference(t *testing.T) {
	want := []uint64{6457827717110365317, 3203168211198807973, 9817491932198370423, 4593380528125082431, 16408922859458223821}
	g := NewGenerator(1234567)
	for i, w := range want {
		if got := g.Next(); got != w {
			t.Fatalf("output %d = %d, want %d", i, got, w)
		}
	}
}

func TestRange(t *testing.T) {
	tests := []struct {
		h    uint64
		n    int
		want int
	}{
		{0, 10, 0},
		{1<<64 - 1, 10, 9},
		{1 << 63, 10, 5},
		{1 << 63, 1, 0},
	}
	for _, tt := range tests {
		if got := Range(tt.h, tt.n); got != tt.want {
			t.Errorf("Range(%#x, %d) = %d, want %d", tt.h, tt.n, got, tt.want)
		}
	}
}
