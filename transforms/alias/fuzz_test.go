package alias

import "testing"

// FuzzDecode checks that the decoders of tables, candidates and claims
// return an error, never panic, on any input, and that a table they accept
// answers lookups.
func FuzzDecode(f *testing.F) {
	f.Add(AppendWiki(nil, "enwiki", []Entry{{Key: "cotedivoire", Articles: []string{"Ivory Coast"}}}))
	f.Add(Candidate{Key: "k", Weight: 2, Titles: []string{"K"}, Links: []Sense{{"L", 1}}}.AppendBinary(nil))
	f.Add(Claim{Key: "k", Article: "A", Kind: KindLink, Doc: 3}.AppendBinary(nil))
	f.Fuzz(func(t *testing.T, b []byte) {
		var tab Table
		if tab.UnmarshalBinary(b) == nil {
			for _, w := range tab.Wikis() {
				tab.SameEntity(w, "Côte d'Ivoire", "Ivory Coast")
				tab.Articles(w, "K")
			}
		}
		UnmarshalCandidates(nil, b)
		new(Claim).UnmarshalBinary(b)
		MergeEncoded(b, b)
	})
}
