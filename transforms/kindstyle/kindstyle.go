// Package kindstyle is how the kinds of clusters look wherever results are
// shown: one label and one colour each, in one order, that report.html and
// the explorer both take from here, so that a kind is the same word and the
// same colour in both. The colours are Tableau 10's (distinct for the
// common kinds of colour blindness, and printable); the explorer's tinted
// chips are made from them by Tint and Shade.
package kindstyle

import (
	"fmt"
	"strings"

	"github.com/neardup/neardup/transforms/categorize"
)

// Kind is a category with its label and colour.
type Kind struct {
	Name  string // the category, as clusters-*.jsonl writes it: copy_edit
	Label string // as a person reads it: copy edit
	Color string // #rrggbb
}

// Kinds are the categories in the order the pages list them.
var Kinds = []Kind{
	{categorize.Identical, "identical", "#4e79a7"},
	{categorize.CopyEdit, "copy edit", "#59a14f"},
	{categorize.FactualDrift, "factual drift", "#e15759"},
	{categorize.Template, "template", "#f28e2b"},
	{categorize.Reference, "reference", "#b07aa1"},
	{categorize.Other, "other", "#9c9c9c"},
}

// UnknownColor is the colour of a category this package does not know.
const UnknownColor = "#555555"

// Label returns a category's label: its name, for one this package does
// not know.
func Label(name string) string {
	for _, k := range Kinds {
		if k.Name == name {
			return k.Label
		}
	}
	return name
}

// Color returns a category's colour.
func Color(name string) string {
	for _, k := range Kinds {
		if k.Name == name {
			return k.Color
		}
	}
	return UnknownColor
}

// Tint mixes a #rrggbb colour with white: 0 keeps it, 1 is white.
func Tint(color string, white float64) string { return mix(color, 255, white) }

// Shade mixes a #rrggbb colour with black: 0 keeps it, 1 is black.
func Shade(color string, black float64) string { return mix(color, 0, black) }

func mix(color string, to, share float64) string {
	var r, g, b uint8
	if _, err := fmt.Sscanf(color, "#%02x%02x%02x", &r, &g, &b); err != nil {
		return color
	}
	c := func(v uint8) uint8 { return uint8(float64(v) + (to-float64(v))*share + 0.5) }
	return fmt.Sprintf("#%02x%02x%02x", c(r), c(g), c(b))
}

// ChipCSS is the stylesheet of the explorer's kind chips: for each kind,
// .k-NAME with a pale tint of its colour behind text of a dark shade of it
// (a contrast above 7:1), and .k-NAME-bar with the colour itself.
func ChipCSS() string {
	var b strings.Builder
	b.WriteString("/* The kinds' colours, from transforms/kindstyle (report.html uses the same). */\n")
	for _, k := range Kinds {
		fmt.Fprintf(&b, ".k-%s { background: %s; color: %s; }\n", k.Name, Tint(k.Color, 0.82), Shade(k.Color, 0.6))
		fmt.Fprintf(&b, ".k-%s-bar { background: %s; }\n", k.Name, k.Color)
	}
	return b.String()
}
