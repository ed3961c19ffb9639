// Package browser drives a real headless Chromium for the tests of the
// pages people look at (report.html, the explorer): it opens a page, waits
// for it, evaluates expressions in it and takes screenshots.
//
// It uses Debian's chromium (.ci/run installs it when missing; set
// CHROMIUM to use another binary). Without one, tests skip with that
// reason. Chromium is started with the flags that keep it off the network
// (no background networking, component updates or sync), so a page that
// loads anything from outside fails to render it rather than hang.
package browser

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// Path returns the Chromium binary to use, or "" if there is none.
func Path() string {
	if p := os.Getenv("CHROMIUM"); p != "" {
		return p
	}
	for _, name := range []string{"chromium", "chromium-browser", "google-chrome"} {
		if p, err := exec.LookPath(name); err == nil {
			return p
		}
	}
	return ""
}

// New starts a headless Chromium for the test and returns a context for
// chromedp actions in a new tab of 1280×900, closed at the end of the test.
// It skips the test if no Chromium is installed.
func New(tb testing.TB) context.Context {
	tb.Helper()
	bin := Path()
	if bin == "" {
		tb.Skip("no chromium: .ci/run installs Debian's chromium package (or set CHROMIUM)")
	}
	opts := []chromedp.ExecAllocatorOption{
		chromedp.ExecPath(bin),
		chromedp.Headless,
		chromedp.NoSandbox,
		chromedp.DisableGPU,
		chromedp.NoFirstRun,
		chromedp.NoDefaultBrowserCheck,
		chromedp.UserDataDir(tb.TempDir()),
		chromedp.WindowSize(1280, 900),
		chromedp.Flag("disable-quic", true),
		chromedp.Flag("disable-background-networking", true),
		chromedp.Flag("disable-component-update", true),
		chromedp.Flag("disable-sync", true),
		chromedp.Flag("disable-dev-shm-usage", true),
	}
	actx, cancelAlloc := chromedp.NewExecAllocator(context.Background(), opts...)
	ctx, cancelTab := chromedp.NewContext(actx)
	ctx, cancelTimeout := context.WithTimeout(ctx, 60*time.Second)
	tb.Cleanup(func() {
		// Close the browser and wait for it to exit, so that it writes no
		// more into its profile directory, which the test removes next.
		chromedp.Cancel(ctx)
		cancelTimeout()
		cancelTab()
		cancelAlloc()
	})
	if err := chromedp.Run(ctx); err != nil {
		tb.Fatalf("starting %s: %v", bin, err)
	}
	return ctx
}

// Run runs chromedp actions, failing the test with what was being done.
func Run(tb testing.TB, ctx context.Context, what string, actions ...chromedp.Action) {
	tb.Helper()
	if err := chromedp.Run(ctx, actions...); err != nil {
		tb.Fatalf("browser: %s: %v", what, err)
	}
}

// Eval evaluates a JavaScript expression in the page and decodes its
// (JSON-serialisable) value into out.
func Eval(tb testing.TB, ctx context.Context, expr string, out any) {
	tb.Helper()
	Run(tb, ctx, "evaluating "+expr, chromedp.Evaluate(expr, out))
}

// Screenshot saves a full-page PNG of the page as name in dir (the test's
// temp dir, or $SCREENSHOTS when set, so that a person can look at them)
// and returns its path.
func Screenshot(tb testing.TB, ctx context.Context, dir, name string) string {
	tb.Helper()
	if d := os.Getenv("SCREENSHOTS"); d != "" {
		dir = d
		if err := os.MkdirAll(dir, 0o755); err != nil {
			tb.Fatal(err)
		}
	}
	var png []byte
	// Quality 100 makes a PNG; any less, a JPEG.
	Run(tb, ctx, "taking a screenshot", chromedp.FullScreenshot(&png, 100))
	path := filepath.Join(dir, name)
	if err := os.WriteFile(path, png, 0o644); err != nil {
		tb.Fatalf("saving screenshot: %v", err)
	}
	tb.Logf("screenshot: %s", path)
	return path
}

// FileURL is the file:// URL of a local path.
func FileURL(path string) string {
	abs, err := filepath.Abs(path)
	if err != nil {
		return "file://" + path
	}
	return fmt.Sprintf("file://%s", filepath.ToSlash(abs))
}
