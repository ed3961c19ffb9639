package sentence

import (
	"slices"
	"testing"
)

// referenceTests are paragraphs of reference material, most of them as the
// cleaner leaves real citations of the dumps in ../shared/data.
var referenceTests = []struct {
	name string
	lang string
	text string
	want []string
}{
	{"edited book", "en", "Author, A. (ed.). Title. Place: Publisher, p. 12.",
		[]string{"Author, A. (ed.). Title. Place: Publisher, p. 12."}},
	{"book", "en", "Paul Avrich. Anarchist Voices: An Oral History of Anarchism in America. AK Press. 2005. p. 516",
		[]string{"Paul Avrich. Anarchist Voices: An Oral History of Anarchism in America. AK Press. 2005. p. 516"}},
	{"news", "en", `Staff Writer. "China to offer $5 mln to Katrina-hit US regions." Xinhua News Agency. September 3, 2005. Retrieved on June 10, 2006.`,
		[]string{`Staff Writer. "China to offer $5 mln to Katrina-hit US regions." Xinhua News Agency. September 3, 2005. Retrieved on June 10, 2006.`}},
	{"title in sentence case", "en", "Huffman WE, Evenson RE. (2006). Science for agriculture: a long-term perspective. Blackwell Publishing.",
		[]string{"Huffman WE, Evenson RE. (2006). Science for agriculture: a long-term perspective. Blackwell Publishing."}},
	{"note of two sentences", "en", "It should be underlined that many of these statistics are not fully reliable. Updated data are expected from the census scheduled for 2014.",
		[]string{"It should be underlined that many of these statistics are not fully reliable.", "Updated data are expected from the census scheduled for 2014."}},
	{"note then citation", "en", "Albania plans to build three hydropower plants. People's Daily",
		[]string{"Albania plans to build three hydropower plants. People's Daily"}},
	{"German", "de", "Berlin ist weltweit die Stadt mit den meisten Galerien. In: Berliner Morgenpost, 6. April 2008, abgerufen am 1. Januar 2018.",
		[]string{"Berlin ist weltweit die Stadt mit den meisten Galerien. In: Berliner Morgenpost, 6. April 2008, abgerufen am 1. Januar 2018."}},
	{"Greek", "el", "Greenfield, Amy Butler (2005). A Perfect Red. Editions Autrement (French translation). ISBN 978-2-7467-1094-8.",
		[]string{"Greenfield, Amy Butler (2005). A Perfect Red. Editions Autrement (French translation). ISBN 978-2-7467-1094-8."}},
	{"Greek see", "el", "Βλ. Caillois Roger, L' Homme et le Sacre, Paris, 1939: 34-38.",
		[]string{"Βλ. Caillois Roger, L' Homme et le Sacre, Paris, 1939: 34-38."}},
	{"Ukrainian", "uk", "Залізняк Л. Походження українців: між наукою та ідеологією. Київ: Темпора, 2008. 104 с.",
		[]string{"Залізняк Л. Походження українців: між наукою та ідеологією. Київ: Темпора, 2008. 104 с."}},
	{"Russian", "ru", "Глушков В. М. Кибернетика: избран. труды : в 3 т. Т. 1. Математические вопросы кибернетики. К. : Наукова думка, 1990. 263 с.",
		[]string{"Глушков В. М. Кибернетика: избран. труды : в 3 т. Т. 1. Математические вопросы кибернетики. К. : Наукова думка, 1990. 263 с."}},
	{"caseless script keeps its sentences", "hi", "यह एक टिप्पणी है। यह दूसरी टिप्पणी है।",
		[]string{"यह एक टिप्पणी है।", "यह दूसरी टिप्पणी है।"}},
	{"one sentence", "en", "McPherson, p. 393.", []string{"McPherson, p. 393."}},
	{"empty", "en", "", nil},
}

func TestSplitReference(t *testing.T) {
	for _, tt := range referenceTests {
		t.Run(tt.name, func(t *testing.T) {
			spans := RulesFor(tt.lang).AppendSplitReference(nil, tt.text)
			checkSpans(t, tt.text, spans)
			if got := texts(tt.text, spans); !slices.Equal(got, tt.want) {
				t.Errorf("RulesFor(%q).AppendSplitReference(%q)\n got %q\nwant %q", tt.lang, tt.text, got, tt.want)
			}
		})
	}
}

func TestSplitReferenceAppends(t *testing.T) {
	prefix := []Span{{7, 9}}
	text := "It is one of the notes here. It is the second of the notes."
	got := RulesFor("en").AppendSplitReference(prefix, text)
	want := []Span{{7, 9}, {0, 28}, {29, len(text)}}
	if !slices.Equal(got, want) {
		t.Errorf("AppendSplitReference = %v, want %v", got, want)
	}
}

func TestIsProse(t *testing.T) {
	tests := []struct {
		sentence string
		want     bool
	}{
		{"It was signed into law in 2006.", true},
		{"Die Stadt hat die meisten Galerien.", true},
		{"Anarchist Voices: An Oral History of Anarchism in America.", false},
		{"Retrieved on June 10, 2006.", false},
		{"It was late.", false}, // too short to tell
		{"People's Daily", false},
		{"これはペンです。", true},
		{"2005.", false},
		{"衛星テレビ広告協議会（公式サイト）。ただし、IP放送の合算。", true},
	}
	for _, tt := range tests {
		if got := isProse(tt.sentence); got != tt.want {
			t.Errorf("isProse(%q) = %v, want %v", tt.sentence, got, tt.want)
		}
	}
}
