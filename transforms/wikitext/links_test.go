package wikitext

import (
	"reflect"
	"testing"
	"unicode"
	"unicode/utf8"
)

func TestLinks(t *testing.T) {
	tests := []struct {
		name string
		in   string
		want []Link
	}{
		{"plain", "The [[Ivory Coast]] is a country.", []Link{{"Ivory Coast", "Ivory Coast"}}},
		{"piped", "In [[Ivory Coast|Côte d'Ivoire]], cocoa.", []Link{{"Ivory Coast", "Côte d'Ivoire"}}},
		{"formatted label", "In [[Ivory Coast|''Côte  d'Ivoire'']].", []Link{{"Ivory Coast", "Côte d'Ivoire"}}},
		{"entity in label", "[[AT&T|AT&amp;T Inc.]] and [[Ho&#7885;]]", []Link{{"AT&T", "AT&T Inc."}, {"Hoọ", "Hoọ"}}},
		{"target kept as written", "[[ivory_coast#History|history]]", []Link{{"ivory_coast#History", "history"}}},
		{"blanks around the target", "[[ Hamadan ]] and [[ Hamadan |Hamedan]]", []Link{{"Hamadan", "Hamadan"}, {"Hamadan", "Hamedan"}}},
		{"in a reference", "Text.<ref>[[Alexander Graham Bell|Aleck]] wrote.</ref>", []Link{{"Alexander Graham Bell", "Aleck"}}},
		{"in a rendered template", "Born {{nowrap|in [[Hamadan|Hamedan]]}}.", []Link{{"Hamadan", "Hamedan"}}},
		{"in a dropped template", "Born {{Infobox|place=[[Hamadan|Hamedan]]}} there.", nil},
		{"nested link in a file caption", "[[File:X.jpg|thumb|A [[Ivory Coast|Côte d'Ivoire]] market]] Text.", nil},
		{"category and interlanguage", "[[Category:Countries]][[fr:Côte d'Ivoire]] Text.", nil},
		{"leading colon", "See [[:Category:Countries|countries]] and [[:fr:Paris|Paris]].", nil},
		{"unclosed", "The [[Ivory Coast is", nil},
		{"empty label", "The [[Ivory Coast|]] is", nil},
		{"invalid target", "The [[a{b}|c]] is", nil},
		{"external link", "[http://example.org Example] text", nil},
		{"nested in a label", "[[Egypt|[[Egyptian]] people]]", []Link{{"Egyptian", "Egyptian"}, {"Egypt", "Egyptian people"}}},
	}
	var c Cleaner
	c.KeepLinks(true)
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c.Clean(tt.in)
			if got := c.AppendLinks(nil); !reflect.DeepEqual(got, tt.want) {
				t.Errorf("links of %q\n got %q\nwant %q", tt.in, got, tt.want)
			}
		})
	}
}

// TestLinksOff checks that a Cleaner records no link unless asked, and that
// recording links leaves the paragraphs as they were.
func TestLinksOff(t *testing.T) {
	const in = "In [[Ivory Coast|''Côte d'Ivoire'']], [[cocoa]] grows.<ref>[[Bell|Aleck]]</ref>"
	var off, on Cleaner
	on.KeepLinks(true)
	want := off.Clean(in)
	if got := off.AppendLinks(nil); got != nil {
		t.Errorf("links recorded without KeepLinks: %q", got)
	}
	if got := on.Clean(in); !reflect.DeepEqual(got, want) {
		t.Errorf("with KeepLinks the paragraphs are\n%q\nwant\n%q", got, want)
	}
	if got := on.AppendLinks(nil); len(got) != 3 {
		t.Errorf("links: %q, want 3", got)
	}
	on.Clean("No link here.")
	if got := on.AppendLinks(nil); got != nil {
		t.Errorf("links of a later text without links: %q", got)
	}
}

// TestMayBeBlank checks that every white space or invisible character,
// and only lead bytes, are marked in mayBeBlank.
func TestMayBeBlank(t *testing.T) {
	var buf [utf8.UTFMax]byte
	for r := rune(utf8.RuneSelf); r <= unicode.MaxRune; r++ {
		if !unicode.IsSpace(r) && !isInvisible(r) {
			continue
		}
		utf8.EncodeRune(buf[:], r)
		if !mayBeBlank[buf[0]] {
			t.Errorf("%U is blank but its lead byte %#x is not marked", r, buf[0])
		}
	}
	for c := 0x80; c < 0xC0; c++ {
		if mayBeBlank[c] {
			t.Errorf("continuation byte %#x is marked", c)
		}
	}
}
