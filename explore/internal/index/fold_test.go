package index

import "testing"

func TestFold(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"Lake Orsel", "lake orsel"},
		{"Lake_Orsel", "lake orsel"},
		{"ΠΟΤΑΜΌΣ Αχελώος", "ποταμοσ αχελωοσ"}, // final sigma, capital and small sigma are one letter
		{"ΑΛΒΑΝΙΑ Αλβανία", "αλβανια αλβανια"},
		{"Straße", "straße"},
		{"東京駅", "東京駅"},
		{"ÉCOLE École Ecole", "ecole ecole ecole"},
		{"Côte d'Ivoire", "cote d'ivoire"},
		{"Cote\u0302", "cote"}, // already decomposed: ô as o and a combining circumflex
		{"Hà Nội", "ha noi"},
		{"Йошкар-Ола", "иошкар-ола"}, // й is и with a breve: one letter in Russian, folded as accents are
		{"がっこう", "かっこう"},             // the voicing mark is Inherited
		{"কুল কল", "কুল কল"},         // Bengali's vowel sign u is Bengali's own mark: kept
		{"ﬁ", "ﬁ"},                   // compatibility forms are not canonical: kept
		{"a\x00b", "ab"},
		{"İSTANBUL istanbul", "istanbul istanbul"},
	} {
		if got := Fold(tc.in); got != tc.want {
			t.Errorf("Fold(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}
