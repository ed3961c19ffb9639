package main

import "testing"

func TestCheck(t *testing.T) {
	tests := []struct {
		sentence string
		want     Flags
	}{
		{"The average temperature would rise to almost .", SpaceBeforeStop},
		{"Το γράμμα ήτα είναι .", SpaceBeforeStop},
		{"It rose to 27 °C.", 0},
		{"such as those for the spear (), short staff.", EmptyBrackets},
		{"Lītova (; ) — vaļsteiba.", EmptyBrackets},
		{"パリ・ミュゼ（）という", EmptyBrackets},
		{"The average is about °C.", UnitWithoutValue},
		{"An area of 93,000 sq ft opened.", 0},
		{"Sargasso Sea - 3.5 million km2", 0},
		{"4,206 inhabitants per km2.", 0},
		{"Ιανουάριος | Φεβρουάριος | Μάρτιος | Απρίλιος", Navigation},
		{"1998.", Navigation},
		{"Paris is the capital of France.", 0},
		{"at (see ()) and °C", EmptyBrackets | UnitWithoutValue},
	}
	for _, tt := range tests {
		if got := Check(tt.sentence); got != tt.want {
			t.Errorf("Check(%q) = %v, want %v", tt.sentence, got, tt.want)
		}
	}
}

func TestCountLost(t *testing.T) {
	var c Count
	for _, s := range []string{"a .", "b ()", "c.", "1 | 2 | 3 | 4"} {
		c.addSentence(Check(s))
	}
	if c.Sentences != 4 || c.Lost != 2 || c.Navigation != 1 || c.SpaceBeforeStop != 1 || c.EmptyBrackets != 1 {
		t.Errorf("counts %+v", c)
	}
}
