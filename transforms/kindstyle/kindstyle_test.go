package kindstyle

import (
	"fmt"
	"math"
	"strings"
	"testing"

	"github.com/neardup/neardup/transforms/categorize"
)

func TestLabelColor(t *testing.T) {
	for _, tc := range []struct{ name, label, color string }{
		{categorize.Identical, "identical", "#4e79a7"},
		{categorize.CopyEdit, "copy edit", "#59a14f"},
		{categorize.FactualDrift, "factual drift", "#e15759"},
		{"unheard_of", "unheard_of", UnknownColor},
	} {
		if l, c := Label(tc.name), Color(tc.name); l != tc.label || c != tc.color {
			t.Errorf("%s: %q %s, want %q %s", tc.name, l, c, tc.label, tc.color)
		}
	}
}

func TestMix(t *testing.T) {
	for _, tc := range []struct{ got, want string }{
		{Tint("#4e79a7", 0), "#4e79a7"},
		{Tint("#4e79a7", 1), "#ffffff"},
		{Shade("#4e79a7", 1), "#000000"},
		{Tint("#000000", 0.5), "#808080"},
		{Shade("#ffffff", 0.5), "#808080"},
		{Tint("not a colour", 0.5), "not a colour"},
	} {
		if tc.got != tc.want {
			t.Errorf("got %s, want %s", tc.got, tc.want)
		}
	}
}

// luminance is a #rrggbb colour's relative luminance (WCAG 2).
func luminance(c string) float64 {
	var r, g, b uint8
	fmt.Sscanf(c, "#%02x%02x%02x", &r, &g, &b)
	lin := func(v uint8) float64 {
		x := float64(v) / 255
		if x <= 0.03928 {
			return x / 12.92
		}
		return math.Pow((x+0.055)/1.055, 2.4)
	}
	return 0.2126*lin(r) + 0.7152*lin(g) + 0.0722*lin(b)
}

// TestChipCSS checks that every kind has its chip and bar rules, and that
// a chip's text stands out from its background by WCAG's AAA contrast for
// body text (7:1).
func TestChipCSS(t *testing.T) {
	css := ChipCSS()
	for _, k := range Kinds {
		bg, ink := Tint(k.Color, 0.82), Shade(k.Color, 0.6)
		if !strings.Contains(css, fmt.Sprintf(".k-%s { background: %s; color: %s; }\n", k.Name, bg, ink)) ||
			!strings.Contains(css, fmt.Sprintf(".k-%s-bar { background: %s; }\n", k.Name, k.Color)) {
			t.Errorf("%s: no rules in\n%s", k.Name, css)
		}
		hi, lo := luminance(bg), luminance(ink)
		if ratio := (hi + 0.05) / (lo + 0.05); ratio < 7 {
			t.Errorf("%s: contrast %.2f:1 of %s on %s", k.Name, ratio, ink, bg)
		}
	}
}
