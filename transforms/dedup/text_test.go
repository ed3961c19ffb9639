package dedup

import (
	"strings"
	"testing"
)

// para makes a paragraph of sentences joined by a space.
func para(sents ...string) Paragraph {
	p := Paragraph{Text: strings.Join(sents, " ")}
	at := 0
	for _, s := range sents {
		p.Spans = append(p.Spans, [2]int{at, at + len(s)})
		at += len(s) + 1
	}
	return p
}

func TestRebuild(t *testing.T) {
	doc := []Paragraph{
		para("The harbour reopened on Monday.", "Crews worked through the winter."),
		para("Visitors can walk to the lighthouse.", "Ok."),
		{Text: "Irregular  spacing kept. As it was.", Spans: [][2]int{{0, 24}, {26, 35}}},
	}
	long := func(s string) bool { return len(s) > 5 } // "Ok." is out of the window
	tests := []struct {
		name    string
		removed []int
		want    Rebuilt
	}{
		{"nothing removed: every paragraph as it was", nil, Rebuilt{
			Text: "The harbour reopened on Monday. Crews worked through the winter.\n\nVisitors can walk to the lighthouse. Ok.\n\nIrregular  spacing kept. As it was."}},
		{"one sentence: its paragraph is the others joined", []int{1}, Rebuilt{Removed: 1,
			Text: "The harbour reopened on Monday.\n\nVisitors can walk to the lighthouse. Ok.\n\nIrregular  spacing kept. As it was."}},
		{"a whole paragraph: left out", []int{0, 1}, Rebuilt{Removed: 2,
			Text: "Visitors can walk to the lighthouse. Ok.\n\nIrregular  spacing kept. As it was."}},
		{"a sentence of the irregular paragraph", []int{5}, Rebuilt{Removed: 1,
			Text: "The harbour reopened on Monday. Crews worked through the winter.\n\nVisitors can walk to the lighthouse. Ok.\n\nIrregular  spacing kept."}},
		{"only an out-of-window sentence left: dropped", []int{0, 1, 2, 4, 5}, Rebuilt{Removed: 5, Text: "Ok.", Drop: true}},
		{"everything: dropped", []int{0, 1, 2, 3, 4, 5}, Rebuilt{Removed: 6, Drop: true}},
	}
	for _, tt := range tests {
		removed := map[int]bool{}
		for _, o := range tt.removed {
			removed[o] = true
		}
		got := Rebuild(doc, func(o int) bool { return removed[o] }, long)
		if got != tt.want {
			t.Errorf("%s:\n got %+v\nwant %+v", tt.name, got, tt.want)
		}
	}
	if got := Rebuild(nil, func(int) bool { return false }, long); !got.Drop || got.Text != "" {
		t.Errorf("empty document: %+v, want dropped", got)
	}
}

func TestSetText(t *testing.T) {
	tests := []struct {
		name, line, text, want string
		wantErr                bool
	}{
		{"Dolma's layout: other fields byte for byte",
			`{"added":"2023-04-07","id":"x1","metadata":{"text":"inner","n":[1, 2]},"text":"Old text.\nMore.","source":"cc"}`, "New.",
			`{"added":"2023-04-07","id":"x1","metadata":{"text":"inner","n":[1, 2]},"text":"New.","source":"cc"}`, false},
		{"spaces around the value",
			`{ "id" : 1 , "text" :  "a"  , "url": "u" }`, "b\"c",
			`{ "id" : 1 , "text" :  "b\"c"  , "url": "u" }`, false},
		{"an escaped key", `{"id":"a","\u0074ext":"old"}`, "new", `{"id":"a","\u0074ext":"new"}`, false},
		{"the last of a repeated field, as encoding/json reads it",
			`{"text":"first","id":"a","text":"second"}`, "new", `{"text":"first","id":"a","text":"new"}`, false},
		{"non-ASCII text", `{"id":"a","text":"x"}`, "Ελλάδα — ünïcode", `{"id":"a","text":"Ελλάδα — ünïcode"}`, false},
		{"HTML characters as they are", `{"id":"a","text":"x"}`, "a <b> & c\n", `{"id":"a","text":"a <b> & c\n"}`, false},
		{"no text", `{"id":"a"}`, "x", "", true},
		{"not an object", `["text","a"]`, "x", "", true},
		{"broken", `{"id":"a","text":"x"`, "x", "", true},
	}
	for _, tt := range tests {
		got, err := SetText([]byte(tt.line), tt.text)
		if (err != nil) != tt.wantErr || string(got) != tt.want {
			t.Errorf("%s: SetText = %s, %v; want %s, error %v", tt.name, got, err, tt.want, tt.wantErr)
		}
	}
}
