package tokenspan

import (
	"slices"
	"testing"
)

func TestSpans(t *testing.T) {
	text := "In 2005, Katrina hit Νέα Ορλεάνη: 1,833 died."
	var words, numbers []string
	for _, s := range Words(text) {
		words = append(words, text[s.Start:s.End])
	}
	for _, s := range Numbers(text) {
		numbers = append(numbers, text[s.Start:s.End])
	}
	if want := []string{"In", "Katrina", "hit", "Νέα", "Ορλεάνη", "died"}; !slices.Equal(words, want) {
		t.Errorf("Words = %q, want %q", words, want)
	}
	if want := []string{"2005", "1", "833"}; !slices.Equal(numbers, want) {
		t.Errorf("Numbers = %q, want %q", numbers, want)
	}
	if got := Replace(text, Words(text)[1], "Rita"); got != "In 2005, Rita hit Νέα Ορλεάνη: 1,833 died." {
		t.Errorf("Replace = %q", got)
	}
	if len(Scan("", func(rune) bool { return true })) != 0 {
		t.Error("Scan of an empty text found a span")
	}
}

func TestMatchCase(t *testing.T) {
	for _, tt := range []struct{ word, with, want string }{
		{"Storm", "hurricane", "Hurricane"},
		{"storm", "hurricane", "hurricane"},
		{"Місто", "село", "Село"},
		{"Storm", "Rita", "Rita"},
		{"", "x", "x"},
	} {
		if got := MatchCase(tt.word, tt.with); got != tt.want {
			t.Errorf("MatchCase(%q, %q) = %q, want %q", tt.word, tt.with, got, tt.want)
		}
	}
}
