package launcher

import (
	"os"
	"testing"
)

func TestSpill(t *testing.T) {
	unspill, err := Spill("off", "r")
	if err != nil {
		t.Fatal(err)
	}
	unspill()
	dir := t.TempDir()
	unspill, err = Spill(dir, "run-1")
	if err != nil {
		t.Fatal(err)
	}
	entries, _ := os.ReadDir(dir)
	if len(entries) != 1 || entries[0].Name()[:len("neardup-run-1-spill-")] != "neardup-run-1-spill-" {
		t.Fatalf("spill directory holds %v, want one neardup-run-1-spill-*", entries)
	}
	if _, err := Spill(dir, "run-2"); err == nil {
		t.Error("a second run spilled in the same process")
	}
	unspill()
	unspill() // twice is fine
	if entries, _ := os.ReadDir(dir); len(entries) != 0 {
		t.Errorf("after unspill the directory holds %v", entries)
	}
	if _, err := Spill("/nonexistent/dir", "r"); err == nil {
		t.Error("spilling under a missing directory succeeded")
	}
}
