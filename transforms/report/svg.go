package report

import (
	"fmt"
	"html"
	"html/template"
	"math"
	"strings"
)

// The charts are SVG written here, with every text escaped, so that the
// page needs no script or library to draw them.

// frame is a chart's drawing area inside its SVG.
type frame struct {
	b                        strings.Builder
	w, h                     float64 // the SVG's size
	left, right, top, bottom float64 // the plot area's edges
}

func newFrame(w, h float64, label string) *frame {
	f := &frame{w: w, h: h, left: 64, right: w - 16, top: 14, bottom: h - 46}
	f.printf(`<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 %g %g" width="%g" height="%g" role="img" aria-label="%s">`,
		w, h, w, h, html.EscapeString(label))
	return f
}

func (f *frame) printf(format string, args ...any) { fmt.Fprintf(&f.b, format, args...) }

// text writes an escaped text at (x, y).
func (f *frame) text(x, y float64, anchor, class, s string) {
	f.printf(`<text x="%.1f" y="%.1f" text-anchor="%s" class="%s">%s</text>`, x, y, anchor, class, html.EscapeString(s))
}

// axes draws the plot area's left and bottom edges and the axis titles.
func (f *frame) axes(xTitle, yTitle string) {
	f.printf(`<path class="axis" d="M%.1f %.1fV%.1fH%.1f"/>`, f.left, f.top, f.bottom, f.right)
	f.text((f.left+f.right)/2, f.h-6, "middle", "title", xTitle)
	f.printf(`<text transform="translate(14 %.1f) rotate(-90)" text-anchor="middle" class="title">%s</text>`,
		(f.top+f.bottom)/2, html.EscapeString(yTitle))
}

// xTick and yTick draw a tick with its grid line and label.
func (f *frame) xTick(x float64, label string) {
	f.printf(`<path class="grid" d="M%.1f %.1fV%.1f"/>`, x, f.top, f.bottom)
	f.printf(`<path class="axis" d="M%.1f %.1fv5"/>`, x, f.bottom)
	f.text(x, f.bottom+17, "middle", "tick", label)
}

func (f *frame) yTick(y float64, label string) {
	f.printf(`<path class="grid" d="M%.1f %.1fH%.1f"/>`, f.left, y, f.right)
	f.printf(`<path class="axis" d="M%.1f %.1fh-5"/>`, f.left, y)
	f.text(f.left-8, y+4, "end", "tick", label)
}

// marker draws a dashed vertical line at x with a label beside it, at
// its top or its bottom, on the side with more room.
func (f *frame) marker(x float64, label string, bottom bool) {
	f.printf(`<path class="marker" d="M%.1f %.1fV%.1f"/>`, x, f.top, f.bottom)
	anchor, dx := "start", 5.0
	if x > (f.left+f.right)/2 {
		anchor, dx = "end", -5
	}
	y := f.top + 12
	if bottom {
		y = f.bottom - 7
	}
	f.text(x+dx, y, anchor, "mark", label)
}

func (f *frame) html() template.HTML {
	f.b.WriteString("</svg>")
	return template.HTML(f.b.String()) // every text in it was escaped
}

// empty is a chart's place when there is nothing to draw.
func empty(what string) template.HTML {
	return template.HTML(`<p class="empty">` + html.EscapeString(what) + `</p>`)
}

// sizeChart draws the cluster-size histogram: one bar per SizeBin, as
// high as its clusters on a log scale.
func sizeChart(bins []SizeBin) template.HTML {
	if len(bins) == 0 {
		return empty("No clusters.")
	}
	bars := make([]countBar, len(bins))
	for i, b := range bins {
		sizes := binLabel(b.Lo, b.Hi)
		bars[i] = countBar{Label: sizes, Count: b.Clusters, Data: fmt.Sprintf(`data-bin="%s" data-clusters="%d"`, sizes, b.Clusters),
			Title: fmt.Sprintf("%s members: %s cluster%s, %s sentences", sizes, formatInt(b.Clusters), plural(b.Clusters), formatInt(b.Sentences))}
	}
	return countChart(bars, "clusters by size", "members of a cluster", "clusters (log scale)")
}

// lengthChart draws the passage length histogram as sizeChart draws the
// cluster sizes.
func lengthChart(bins []LengthRow) template.HTML {
	if len(bins) == 0 {
		return empty("No passages.")
	}
	bars := make([]countBar, len(bins))
	for i, b := range bins {
		lengths := binLabel(b.Lo, b.Hi)
		bars[i] = countBar{Label: lengths, Count: b.Passages, Data: fmt.Sprintf(`data-bin="%s" data-passages="%d"`, lengths, b.Passages),
			Title: fmt.Sprintf("%s matched pairs: %s passage%s", lengths, formatInt(b.Passages), plural(b.Passages))}
	}
	return countChart(bars, "passages by length", "matched sentence pairs of a passage", "passages (log scale)")
}

// binLabel names the sizes lo to hi: "7", "11–16".
func binLabel(lo, hi int64) string {
	if hi > lo {
		return fmt.Sprintf("%d–%d", lo, hi)
	}
	return fmt.Sprint(lo)
}

// plural is "s" unless n is 1.
func plural(n int64) string {
	if n == 1 {
		return ""
	}
	return "s"
}

// countBar is a bar of a countChart: its label on the x axis, its count,
// its data attributes and its tooltip.
type countBar struct {
	Label, Data, Title string
	Count              int64
}

// countChart draws bars of equal width side by side, each as high as its
// count on a log scale whose ticks are whole counts (1, 10, 100, … or 1, 2,
// 5, 10 when the counts are small), each labelled with its count.
func countChart(bars []countBar, label, xTitle, yTitle string) template.HTML {
	f := newFrame(760, 320, label)
	var most int64 = 1
	for _, b := range bars {
		most = max(most, b.Count)
	}
	// The axis starts below 1, so that a bar of 1 shows.
	ymin, ymax := math.Log10(0.6), math.Ceil(math.Log10(float64(most)))
	ymax = max(ymax, 1)
	y := func(v float64) float64 { return f.bottom - (math.Log10(v)-ymin)/(ymax-ymin)*(f.bottom-f.top) }
	for _, t := range countTicks(int64(math.Pow(10, ymax))) {
		f.yTick(y(float64(t)), formatShort(float64(t)))
	}
	width := (f.right - f.left) / float64(len(bars))
	longest := 0
	for _, b := range bars {
		longest = max(longest, len(b.Label))
	}
	every := max(int(math.Ceil((6.5*float64(longest)+2)/width)), 1) // a label every that many bars
	for i, b := range bars {
		x0 := f.left + float64(i)*width
		top := y(float64(max(b.Count, 1)))
		f.printf(`<rect class="bar" %s x="%.1f" y="%.1f" width="%.1f" height="%.1f"><title>%s</title></rect>`,
			b.Data, x0+1, top, max(width-2, 1), f.bottom-top, html.EscapeString(b.Title))
		if l := formatShort(float64(b.Count)); width >= 6.5*float64(len(l))+2 {
			f.text(x0+width/2, top-4, "middle", "tick", l)
		}
		if i%every == 0 {
			f.printf(`<path class="axis" d="M%.1f %.1fv5"/>`, x0+width/2, f.bottom)
			f.text(x0+width/2, f.bottom+17, "middle", "tick", b.Label)
		}
	}
	f.axes(xTitle, yTitle)
	return f.html()
}

// countTicks are the ticks of a log axis of counts up to top, a power of
// ten: its powers of ten, and their doubles and fives when there are at
// most two of them.
func countTicks(top int64) []int64 {
	var out []int64
	for p := int64(1); p <= top; p *= 10 {
		out = append(out, p)
		if top <= 100 && p < top {
			out = append(out, 2*p, 5*p)
		}
	}
	return out
}

// cohesionChart draws a cohesion histogram, stacked by kind, with the
// verification's threshold marked.
func cohesionChart(stats map[string]KindStats, names []string, hist func(KindStats) Histogram, xTitle, flag string, threshold float64) template.HTML {
	var totals Histogram
	for _, n := range names {
		h := hist(stats[n])
		for i, v := range h {
			totals[i] += v
		}
	}
	var top int64
	for _, v := range totals {
		top = max(top, v)
	}
	if top == 0 {
		return empty("No clusters.")
	}
	f := newFrame(520, 280, xTitle)
	step := niceStep(float64(top))
	ymax := math.Ceil(float64(top)/step) * step
	x := func(v float64) float64 { return f.left + v*(f.right-f.left) }
	y := func(v float64) float64 { return f.bottom - v/ymax*(f.bottom-f.top) }
	for t := 0; t <= 10; t += 2 {
		f.xTick(x(float64(t)/10), fmt.Sprintf("%.1f", float64(t)/10))
	}
	for v := 0.0; v <= ymax; v += step {
		f.yTick(y(v), formatShort(v))
	}
	width := (f.right - f.left) / CohesionBins
	for i := range CohesionBins {
		if totals[i] == 0 {
			continue
		}
		var below int64
		var parts []string
		f.printf(`<g data-bin="%d">`, i)
		for _, n := range names {
			c := hist(stats[n])[i]
			if c == 0 {
				continue
			}
			y0, y1 := y(float64(below)), y(float64(below+c))
			f.printf(`<rect x="%.1f" y="%.1f" width="%.1f" height="%.1f" fill="%s"/>`,
				f.left+float64(i)*width+0.5, y1, width-1, y0-y1, kindColor(n))
			parts = append(parts, fmt.Sprintf("%s %s", kindLabel(n), formatInt(c)))
			below += c
		}
		f.printf(`<title>%.2f–%.2f: %s clusters (%s)</title></g>`, float64(i)/CohesionBins, float64(i+1)/CohesionBins,
			formatInt(totals[i]), html.EscapeString(strings.Join(parts, ", ")))
	}
	f.marker(x(threshold), fmt.Sprintf("%s %v", flag, threshold), false)
	f.axes(xTitle, "clusters")
	return f.html()
}

// collision is the probability that a pair of Jaccard similarity s shares
// a band key: 1-(1-s^rows)^bands.
func collision(s float64, bands, rows int) float64 {
	return 1 - math.Pow(1-math.Pow(s, float64(rows)), float64(bands))
}

// curveSteps is how many segments draw the collision curve.
const curveSteps = 200

// curveChart draws the collision curve from its formula (if the summary
// states the one collision computes) through summary.json's points, with
// the threshold marked.
func curveChart(formula bool, bands, rows int, points [][2]float64, threshold float64) template.HTML {
	if (!formula || bands <= 0 || rows <= 0) && len(points) == 0 {
		return empty("No collision curve in summary.json.")
	}
	f := newFrame(520, 300, "collision probability against Jaccard similarity")
	x := func(v float64) float64 { return f.left + v*(f.right-f.left) }
	y := func(v float64) float64 { return f.bottom - v*(f.bottom-f.top) }
	for t := 0; t <= 10; t += 2 {
		v := float64(t) / 10
		f.xTick(x(v), fmt.Sprintf("%.1f", v))
		f.yTick(y(v), fmt.Sprintf("%.1f", v))
	}
	if formula && bands > 0 && rows > 0 {
		f.printf(`<polyline class="curve" points="`)
		for i := 0; i <= curveSteps; i++ {
			s := float64(i) / curveSteps
			f.printf("%.1f,%.1f ", x(s), y(collision(s, bands, rows)))
		}
		f.printf(`"/>`)
		p := collision(threshold, bands, rows)
		f.printf(`<path class="level" d="M%.1f %.1fH%.1f"/>`, f.left, y(p), x(threshold))
		f.text(f.left+4, y(p)-5, "start", "mark", fmt.Sprintf("P = %.3f", p))
	}
	for _, pt := range points {
		f.printf(`<circle class="point" cx="%.1f" cy="%.1f" r="3"><title>s = %.2f: %.6f</title></circle>`,
			x(pt[0]), y(pt[1]), pt[0], pt[1])
	}
	f.marker(x(threshold), fmt.Sprintf("--threshold %v", threshold), true)
	f.axes("Jaccard similarity of a pair", "probability of a shared band key")
	return f.html()
}

// pointsChart draws the candidate curve of a scheme that bands no
// signature through summary.json's points, with the threshold marked.
func pointsChart(points [][2]float64, p parameters) template.HTML {
	if len(points) == 0 {
		return empty("No candidate curve in summary.json.")
	}
	xLabel := "Jaccard similarity of a pair"
	if p.Scheme == "simhash" {
		xLabel = "cosine similarity of a pair"
	}
	f := newFrame(520, 300, "candidate probability against similarity")
	x := func(v float64) float64 { return f.left + v*(f.right-f.left) }
	y := func(v float64) float64 { return f.bottom - v*(f.bottom-f.top) }
	for t := 0; t <= 10; t += 2 {
		v := float64(t) / 10
		f.xTick(x(v), fmt.Sprintf("%.1f", v))
		f.yTick(y(v), fmt.Sprintf("%.1f", v))
	}
	f.printf(`<polyline class="curve" points="`)
	for _, pt := range points {
		f.printf("%.1f,%.1f ", x(pt[0]), y(pt[1]))
	}
	f.printf(`"/>`)
	for _, pt := range points {
		f.printf(`<circle class="point" cx="%.1f" cy="%.1f" r="3"><title>s = %.2f: %.6f</title></circle>`,
			x(pt[0]), y(pt[1]), pt[0], pt[1])
	}
	f.marker(x(p.Threshold), fmt.Sprintf("--threshold %v", p.Threshold), true)
	f.axes(xLabel, "probability of becoming a candidate")
	return f.html()
}

// niceStep is a 1-2-5 step that cuts [0, top] in at most 6 parts.
func niceStep(top float64) float64 {
	if top <= 0 {
		return 1
	}
	p := math.Pow(10, math.Floor(math.Log10(top/6)))
	for _, m := range []float64{1, 2, 5, 10} {
		if top/(m*p) <= 6 {
			return max(m*p, 1)
		}
	}
	return 10 * p
}

// formatShort writes a number briefly: 0.01, 0.5, 7, 120, 1.5k, 20k, 3M.
func formatShort(v float64) string {
	switch a := math.Abs(v); {
	case a >= 1e9:
		return trimZero(fmt.Sprintf("%.1f", v/1e9)) + "G"
	case a >= 1e6:
		return trimZero(fmt.Sprintf("%.1f", v/1e6)) + "M"
	case a >= 1e3:
		return trimZero(fmt.Sprintf("%.1f", v/1e3)) + "k"
	case a >= 10 || a == math.Trunc(a):
		return fmt.Sprintf("%.0f", v)
	case a >= 0.1:
		return trimZero(fmt.Sprintf("%.1f", v))
	}
	return trimZero(fmt.Sprintf("%.2g", v))
}

func trimZero(s string) string {
	if strings.Contains(s, ".") {
		s = strings.TrimRight(strings.TrimRight(s, "0"), ".")
	}
	return s
}

// formatBytes writes a size in bytes briefly: 512 bytes, 2.5 MB.
func formatBytes(n int64) string {
	if n < 1000 {
		return fmt.Sprintf("%d bytes", n)
	}
	s := formatShort(float64(n))
	return s[:len(s)-1] + " " + s[len(s)-1:] + "B"
}

// formatInt writes n with thousands separators: 1,234,567.
func formatInt(n int64) string {
	s := fmt.Sprint(n)
	neg := strings.HasPrefix(s, "-")
	s = strings.TrimPrefix(s, "-")
	var b strings.Builder
	for i, r := range s {
		if i > 0 && (len(s)-i)%3 == 0 {
			b.WriteByte(',')
		}
		b.WriteRune(r)
	}
	if neg {
		return "-" + b.String()
	}
	return b.String()
}
