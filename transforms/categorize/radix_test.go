package categorize

import (
	"slices"
	"testing"
)

// Sentences of the ASCII page of two English dumps (the labelled
// cross-date pairs, testdata/labels/crossdate-pairs*.jsonl).
func TestRadixForms(t *testing.T) {
	checkForms(t, []formCase{
		{"hex and subscript 16", "enwiki",
			"Codes 20hex to 7Ehex, known as the printable characters, represent letters, digits, punctuation marks, and a few miscellaneous symbols.",
			"Codes 2016 to 7E16, known as the printable characters, represent letters, digits, punctuation marks, and a few miscellaneous symbols.",
			CopyEdit, "number_form: 20hex = 2016"},
		{"letter digits", "enwiki",
			"Code 7Fhex corresponds to the non-printable \"Delete\" (DEL) control character.",
			"Code 7F16 corresponds to the non-printable \"delete\" (DEL) control character.",
			CopyEdit, "number_form: Fhex = F16"},
		{"octal", "enwiki", "The code is 177oct on that machine.", "The code is 1778 on that machine.", CopyEdit, "number_form: 177oct = 1778"},
		// Another code, or a digit the base has not, is a change.
		{"other code", "enwiki", "Codes 20hex to 7Ehex are printable.", "Codes 2116 to 7F16 are printable.", FactualDrift, ""},
		{"not an octal digit", "enwiki", "The code is 19oct on that machine.", "The code is 198 on that machine.", FactualDrift, ""},
	})
}

func TestSameRadixCode(t *testing.T) {
	for _, c := range []struct {
		named, subscript string
		want             bool
	}{
		{"20hex", "2016", true},
		{"7Ehex", "7e16", true},
		{"101bin", "1012", true},
		{"102bin", "1022", false}, // 2 is no binary digit
		{"hex", "16", false},      // no code
		{"20hex", "2010", false},  // another base
		{"20", "2016", false},
	} {
		if got := sameRadixCode(c.named, c.subscript); got != c.want {
			t.Errorf("sameRadixCode(%q, %q) = %v, want %v", c.named, c.subscript, got, c.want)
		}
	}
}

func TestRadixFormsAmongOtherWords(t *testing.T) {
	got := Compare(Member{Wiki: "enwiki", Title: "ASCII", Text: "Earlier versions of ASCII used the up-arrow instead of the caret (5Ehex)."},
		Member{Wiki: "enwiki", Title: "ASCII", Text: "Earlier versions of ASCII used the up arrow instead of the caret (5E16) and the left arrow instead of the underscore (5F16)."})
	for _, f := range got.Facts {
		if f.Change == ChangeReplaced {
			t.Errorf("replaced %s %q → %q, want the code 5E the same", f.Type, f.From, f.To)
		}
	}
	if !slices.Contains(got.Mechanisms, "number_form: Ehex = E16") {
		t.Errorf("mechanisms %q, want number_form: Ehex = E16", got.Mechanisms)
	}
}
