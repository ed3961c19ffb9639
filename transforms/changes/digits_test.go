package changes

import (
	"reflect"
	"testing"
)

// TestCompareDigitsOfEveryScript compares revisions whose numbers are
// written in Kannada, Bengali and Devanagari digits: a changed number is
// a number or date replaced with both values as written, a year given in
// one revision only is added, and a number rewritten in ASCII digits is a
// copy edit. The Kannada sentences are those
// of the page Shivamogga (ಶಿವಮೊಗ್ಗ) of
// ../shared/data/wikiclean-pages/knwiki-20180614-id1.xml (Kannada
// Wikipedia, CC BY-SA), with the numbers edited.
func TestCompareDigitsOfEveryScript(t *testing.T) {
	const (
		distance  = "ಇದು ಕರ್ನಾಟಕದ ರಾಜಧಾನಿಯಾದ ಬೆಂಗಳೂರು ನಗರದಿಂದ ೨೬೬ ಕಿಮೀ ದೂರದಲ್ಲಿದೆ."
		distance2 = "ಇದು ಕರ್ನಾಟಕದ ರಾಜಧಾನಿಯಾದ ಬೆಂಗಳೂರು ನಗರದಿಂದ ೨೭೪ ಕಿಮೀ ದೂರದಲ್ಲಿದೆ."
		falls     = "ಇಲ್ಲಿ ಶರಾವತಿ ನದಿ ೨೩೫ ಮೀ ಎತ್ತರದಿಂದ ಸುಮನೋಹರವಾಗಿ ಧುಮುಕುತ್ತದೆ."
		fallsASCI = "ಇಲ್ಲಿ ಶರಾವತಿ ನದಿ 235 ಮೀ ಎತ್ತರದಿಂದ ಸುಮನೋಹರವಾಗಿ ಧುಮುಕುತ್ತದೆ."
		airport   = "ಶಿವಮೊಗ್ಗ ವಿಮಾನ ನಿಲ್ದಾಣದ ಕಾಮಗಾರಿ ೨೦೧೧ರಲ್ಲಿ ಪ್ರಾರಂಭವಾಯಿತು."
		airport2  = "ಶಿವಮೊಗ್ಗ ವಿಮಾನ ನಿಲ್ದಾಣದ ಕಾಮಗಾರಿ ೨೦೧೨ರಲ್ಲಿ ಪ್ರಾರಂಭವಾಯಿತು."
		capital   = "ಶಿವಮೊಗ್ಗ ಮಹಾನಗರವು ಈ ಜಿಲ್ಲೆಯ ರಾಜಧಾನಿಯಾಗಿದೆ."
	)
	for _, tc := range []struct {
		name     string
		old, new Revision
		want     []string // "change type from→to" of each change's facts
		counts   Counts
	}{
		{
			name: "Kannada",
			old:  revision(1, distance, capital, falls, airport), new: revision(2, distance2, capital, fallsASCI, airport2),
			want:   []string{"replaced number ೨೬೬→೨೭೪", "replaced date ೨೦೧೧→೨೦೧೨"},
			counts: Counts{SentencesBefore: 4, SentencesAfter: 4, SentencesUnchanged: 1, PairsCompared: 3, PairsCopyEdit: 1, Changes: 2, ChangesReplaced: 2},
		},
		{
			name:   "Bengali",
			old:    revision(1, "২০১১ সালের আদমশুমারি অনুসারে গ্রামের জনসংখ্যা ৮৭৪৮ জন।"),
			new:    revision(2, "২০১১ সালের আদমশুমারি অনুসারে গ্রামের জনসংখ্যা ৮৭৪৯ জন।"),
			want:   []string{"replaced number ৮৭৪৮→৮৭৪৯"},
			counts: Counts{SentencesBefore: 1, SentencesAfter: 1, PairsCompared: 1, Changes: 1, ChangesReplaced: 1},
		},
		{
			// The census year is given in the new revision only.
			name:   "Bengali, a year added",
			old:    revision(1, "গ্রামের জনসংখ্যা ৮৭৪৮ জন।"),
			new:    revision(2, "২০১১ সালের আদমশুমারি অনুসারে গ্রামের জনসংখ্যা ৮৭৪৮ জন।"),
			want:   []string{"added date →২০১১"},
			counts: Counts{SentencesBefore: 1, SentencesAfter: 1, PairsCompared: 1, Changes: 1, ChangesAdded: 1},
		},
		{
			name:   "Marathi",
			old:    revision(1, "भारताला १५ ऑगस्ट १९४७ रोजी ब्रिटिश राजवटीपासून स्वातंत्र्य मिळाले."),
			new:    revision(2, "भारताला १५ ऑगस्ट १९४८ रोजी ब्रिटिश राजवटीपासून स्वातंत्र्य मिळाले."),
			want:   []string{"replaced date १९४७→१९४८"},
			counts: Counts{SentencesBefore: 1, SentencesAfter: 1, PairsCompared: 1, Changes: 1, ChangesReplaced: 1},
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			changes, counts := NewComparer(testConfig()).Compare(tc.old, tc.new)
			var got []string
			for _, c := range changes {
				for _, f := range c.Facts {
					got = append(got, f.Change+" "+f.Type+" "+f.From+"→"+f.To)
				}
			}
			if !reflect.DeepEqual(got, tc.want) {
				t.Errorf("changes %q, want %q", got, tc.want)
			}
			if counts != tc.counts {
				t.Errorf("counts %+v, want %+v", counts, tc.counts)
			}
		})
	}
}
