package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestConsoleEscapesTitles prints a run whose top article pair has a title
// holding an OSC title change, a screen clear and a CR-LF, and a wiki
// whose name holds an RLO: the console shows them escaped, the lines are
// the console's own.
func TestConsoleEscapesTitles(t *testing.T) {
	dir := t.TempDir()
	summary := `{"wikis":[{"wiki":"evil\u202ecorpus"}],"top_article_pairs":[{"wiki_a":"w","title_a":"A\u001b]0;x\u0007\u001b[2J\r\nfake","wiki_b":"w","title_b":"B","shared_clusters":2}]}`
	for name, body := range map[string]string{"manifest.json": "{}", "summary.json": summary} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	out, err := os.CreateTemp(t.TempDir(), "console")
	if err != nil {
		t.Fatal(err)
	}
	printResults(t.Context(), out, dir)
	b, err := os.ReadFile(out.Name())
	if err != nil {
		t.Fatal(err)
	}
	got := string(b)
	for _, want := range []string{`      2  w:A\x1b]0;x\x07\x1b[2J\x0d\x0afake  ↔  w:B` + "\n", `evil\u202ecorpus`} {
		if !strings.Contains(got, want) {
			t.Errorf("console\n%s\ndoes not hold %q", got, want)
		}
	}
	if strings.ContainsAny(got, "\x1b\r\u202e") {
		t.Errorf("a control character reached the terminal: %q", got)
	}
}
