package web

import "testing"

func TestThousands(t *testing.T) {
	for _, tc := range []struct {
		n    int64
		want string
	}{{0, "0"}, {7, "7"}, {999, "999"}, {1000, "1,000"}, {1234, "1,234"}, {123456, "123,456"}, {1000000, "1,000,000"}, {-1234567, "-1,234,567"}} {
		if got := thousands(tc.n); got != tc.want {
			t.Errorf("thousands(%d) = %q, want %q", tc.n, got, tc.want)
		}
	}
	if got := num(uint32(5000)); got != "5,000" {
		t.Errorf("num(uint32) = %q", got)
	}
}

func TestTruncate(t *testing.T) {
	for _, tc := range []struct {
		s    string
		n    int
		want string
	}{{"Lake Orsel", 20, "Lake Orsel"}, {"Lake Orsel", 10, "Lake Orsel"}, {"Lake Orsel", 5, "Lake…"},
		{"Ποταμός Αχελώος", 8, "Ποταμός…"}, {"東京駅東京駅", 3, "東京…"}} {
		if got := truncate(tc.s, tc.n); got != tc.want {
			t.Errorf("truncate(%q, %d) = %q, want %q", tc.s, tc.n, got, tc.want)
		}
	}
}
