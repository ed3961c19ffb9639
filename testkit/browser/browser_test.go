package browser

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/chromedp/chromedp"
)

// TestRendersAPage checks the harness on a page whose script changes the
// DOM: the value read back is what the script computed, so a browser that
// did not run it fails.
func TestRendersAPage(t *testing.T) {
	ctx := New(t)
	dir := t.TempDir()
	page := filepath.Join(dir, "p.html")
	html := `<!doctype html><meta charset="utf-8"><title>t</title><p id="x">…</p><script>document.getElementById("x").textContent = String(6*7) + " Ωμέγα"</script>`
	if err := os.WriteFile(page, []byte(html), 0o644); err != nil {
		t.Fatal(err)
	}
	var got string
	Run(t, ctx, "opening the page", chromedp.Navigate(FileURL(page)), chromedp.Text("#x", &got, chromedp.ByQuery))
	if got != "42 Ωμέγα" {
		t.Errorf("text = %q, want %q", got, "42 Ωμέγα")
	}
	if fi, err := os.Stat(Screenshot(t, ctx, dir, "p.png")); err != nil || fi.Size() < 1000 {
		t.Errorf("screenshot: %v", err)
	}
}
