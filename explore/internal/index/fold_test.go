package index

import "testing"

func TestFold(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"Lake Orsel", "lake orsel"},
		{"Lake_Orsel", "lake orsel"},
		{"ΠΟΤΑΜΌΣ Αχελώος", "ποταμόσ αχελώοσ"}, // final sigma, capital and small sigma are one letter
		{"Straße", "straße"},
		{"東京駅", "東京駅"},
		{"ÉCOLE École", "école école"},
		{"a\x00b", "ab"},
		{"İSTANBUL istanbul", "istanbul istanbul"},
	} {
		if got := Fold(tc.in); got != tc.want {
			t.Errorf("Fold(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}
