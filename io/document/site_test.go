package document

import (
	"reflect"
	"testing"
)

// TestMergeSites checks that the sites of one wiki's files are joined
// (namespace names of both, a disagreeing language reported, the first
// kept), sorted by wiki, and that the input is not changed.
func TestMergeSites(t *testing.T) {
	a := Site{Wiki: "dewiki", Lang: "de", Namespaces: []Namespace{{Key: 6, Name: "Datei"}, {Key: 14, Name: "Kategorie"}}}
	b := Site{Wiki: "dewiki", Lang: "en", Namespaces: []Namespace{{Key: 6, Name: "Bild"}, {Key: 14, Name: "Kategorie"}}, Problems: []string{"p"}}
	c := Site{Wiki: "alswiki", Lang: "gsw"}
	got := MergeSites([]Site{a, b, c})
	want := []Site{c, {Wiki: "dewiki", Lang: "de", Namespaces: []Namespace{{Key: 6, Name: "Datei"}, {Key: 6, Name: "Bild"}, {Key: 14, Name: "Kategorie"}},
		Problems: []string{"files of wiki dewiki disagree on its language (de, en): de used", "p"}}}
	if len(got) != 2 || !reflect.DeepEqual(got, want) {
		t.Errorf("MergeSites =\n%+v\nwant\n%+v", got, want)
	}
	if len(a.Namespaces) != 2 {
		t.Error("MergeSites changed its input")
	}
}

// TestNames checks the namespace names by key, the main namespace's empty
// name left out.
func TestNames(t *testing.T) {
	s := Site{Namespaces: []Namespace{{Key: 0, Name: ""}, {Key: 6, Name: "Datei"}, {Key: 6, Name: "Bild"}, {Key: 14, Name: "Kategorie"}}}
	want := map[int][]string{6: {"Datei", "Bild"}, 14: {"Kategorie"}}
	if got := s.Names(); !reflect.DeepEqual(got, want) {
		t.Errorf("Names = %v, want %v", got, want)
	}
}
