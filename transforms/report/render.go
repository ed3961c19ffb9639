package report

import (
	_ "embed"
	"fmt"
	"html/template"
	"io"
	"time"
)

//go:embed page.tmpl
var pageTemplate string

// page is the template of report.html.
var page = template.Must(template.New("report.html").Funcs(template.FuncMap{
	"num":   formatInt,
	"pct":   func(f float64) string { return fmt.Sprintf("%.1f%%", 100*f) },
	"f3":    func(f float64) string { return fmt.Sprintf("%.3f", f) },
	"bytes": formatBytes,
	"date":  func(t time.Time) string { return t.UTC().Format("2006-01-02 15:04:05 UTC") },
	"iso":   func(t time.Time) string { return t.UTC().Format(time.RFC3339) },
	"add":   func(a, b int) int { return a + b },
}).Parse(pageTemplate))

// Render writes the page as one self-contained HTML document.
func Render(w io.Writer, p Page) error {
	if err := page.Execute(w, p); err != nil {
		return fmt.Errorf("report: rendering: %w", err)
	}
	return nil
}
