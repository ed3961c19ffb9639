package launcher

import (
	"fmt"
	"strings"
	"testing"
)

// TestTerminalSafe escapes what would act on a terminal in a title: an
// OSC title change, a screen clear, a carriage return and a line feed
// that would fake lines, an RLO, invalid UTF-8; and keeps text in any
// script, tabs and the line feed that ends a line.
func TestTerminalSafe(t *testing.T) {
	var b strings.Builder
	w := TerminalSafe(&b)
	fmt.Fprintf(w, "%7d  %s  ↔  %s\n", 3, "Evil\x1b]0;pwned\x07\x1b[2J\r\nfake line", "abc\u202efed\xff")
	fmt.Fprintf(w, "\t%s\n", "Ἀθῆναι · Київ · 東京 · עברית")
	want := `      3  Evil\x1b]0;pwned\x07\x1b[2J\x0d\x0afake line  ↔  abc\u202efed\xff` + "\n\tἈθῆναι · Київ · 東京 · עברית\n"
	if b.String() != want {
		t.Errorf("got\n%q\nwant\n%q", b.String(), want)
	}
}
