package history

import (
	"bytes"
	"fmt"
	"html"
	"math"
)

// SVG draws one series: a point a commit (in commit order, evenly
// spaced), each segment's mean as a line across it, each change point a
// dashed line before its first commit, labelled with the commit and the
// change. Self-contained, no script; the same series gives the same bytes.
func SVG(r Result) []byte {
	const w, h, left, right, top, bottom = 760.0, 300.0, 70.0, 20.0, 36.0, 40.0
	pts := r.Series.Points
	lo, hi := math.Inf(1), math.Inf(-1)
	for _, p := range pts {
		lo, hi = math.Min(lo, p.Value), math.Max(hi, p.Value)
	}
	if hi == lo {
		lo, hi = lo-1, hi+1
	}
	pad := (hi - lo) * 0.08
	lo, hi = lo-pad, hi+pad
	n := len(pts)
	x := func(i float64) float64 {
		if n == 1 {
			return left + (w-left-right)/2
		}
		return left + i*(w-left-right)/float64(n-1)
	}
	y := func(v float64) float64 { return top + (hi-v)/(hi-lo)*(h-top-bottom) }
	var b bytes.Buffer
	fmt.Fprintf(&b, `<svg xmlns="http://www.w3.org/2000/svg" width="%g" height="%g" viewBox="0 0 %g %g" font-family="sans-serif" font-size="11">`+"\n", w, h, w, h)
	fmt.Fprintf(&b, `<title>%s</title>`+"\n", html.EscapeString(r.Series.Name))
	fmt.Fprintf(&b, `<rect width="%g" height="%g" fill="white"/>`+"\n", w, h)
	fmt.Fprintf(&b, `<text x="%g" y="16" font-size="13">%s (%s)</text>`+"\n", left, html.EscapeString(r.Series.Name), html.EscapeString(r.Series.Unit))
	// axes and the value grid: lowest, middle, highest
	fmt.Fprintf(&b, `<path d="M%.1f %.1fV%.1fH%.1f" stroke="#444" fill="none"/>`+"\n", left, top, h-bottom, w-right)
	for _, v := range []float64{lo + pad, (lo + hi) / 2, hi - pad} {
		fmt.Fprintf(&b, `<path d="M%.1f %.1fH%.1f" stroke="#ddd"/><text x="%.1f" y="%.1f" text-anchor="end">%s</text>`+"\n",
			left, y(v), w-right, left-4, y(v)+4, num(v))
	}
	fmt.Fprintf(&b, `<text x="%.1f" y="%.1f">%s</text><text x="%.1f" y="%.1f" text-anchor="end">%s</text>`+"\n",
		left, h-bottom+16, short(pts[0].Commit), w-right, h-bottom+16, short(pts[n-1].Commit))
	fmt.Fprintf(&b, `<text x="%.1f" y="%.1f" text-anchor="middle">%d commits, oldest first</text>`+"\n", (left+w-right)/2, h-8, n)
	// segment means
	for _, s := range r.Segments {
		x0, x1 := x(float64(s.From)-0.4), x(float64(s.To-1)+0.4)
		fmt.Fprintf(&b, `<path d="M%.1f %.1fH%.1f" stroke="#2a7" stroke-width="2"><title>mean %s over %d commits</title></path>`+"\n",
			math.Max(x0, left), y(s.Mean), math.Min(x1, w-right), num(s.Mean), s.To-s.From)
	}
	// change points
	for k, c := range r.Changes {
		cx := x(float64(c.Index) - 0.5)
		ty := top + 12 + float64(k%3)*13
		fmt.Fprintf(&b, `<path d="M%.1f %.1fV%.1f" stroke="#c22" stroke-dasharray="4 3"/><text x="%.1f" y="%.1f" fill="#c22">%s %+.2f%%</text>`+"\n",
			cx, top, h-bottom, cx+3, ty, short(c.Commit), c.Percent.Estimate)
	}
	// points
	for i, p := range pts {
		fmt.Fprintf(&b, `<circle cx="%.1f" cy="%.1f" r="3" fill="#247"><title>%s %s</title></circle>`+"\n",
			x(float64(i)), y(p.Value), short(p.Commit), num(p.Value))
	}
	b.WriteString("</svg>\n")
	return b.Bytes()
}

// HTML is one page: the summary, the gate, and a chart a series that
// changed, each with its change points' table.
func (h History) HTML() []byte {
	var b bytes.Buffer
	b.WriteString("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><title>cgocost history</title>\n")
	b.WriteString("<style>body{font-family:sans-serif;max-width:800px;margin:1em auto}td,th{padding:2px 8px;text-align:left}.reg{color:#c22;font-weight:bold}</style></head><body>\n")
	b.WriteString("<h1>cgocost history</h1>\n")
	for _, l := range h.summary() {
		fmt.Fprintf(&b, "<p>%s</p>\n", html.EscapeString(l))
	}
	for _, l := range h.gateLines() {
		class := ""
		if bytes.Contains([]byte(l), []byte("a regression beyond")) {
			class = ` class="reg"`
		}
		fmt.Fprintf(&b, "<p%s>%s</p>\n", class, html.EscapeString(l))
	}
	changed := h.Changed()
	if len(changed) == 0 {
		b.WriteString("<p>No change point in any series.</p>\n")
	}
	for _, r := range changed {
		fmt.Fprintf(&b, "<h2>%s</h2>\n", html.EscapeString(r.Series.Name))
		b.Write(SVG(*r))
		b.WriteString("<table><tr><th>commit</th><th>time</th><th>direction</th><th>before</th><th>after</th><th>change [95% interval]</th><th>p</th></tr>\n")
		for _, c := range r.Changes {
			fmt.Fprintf(&b, "<tr><td><code>%s</code></td><td>%s</td><td>%s</td><td>%s</td><td>%s</td><td>%+.2f%% [%+.2f, %+.2f]</td><td>%.3f</td></tr>\n",
				short(c.Commit), day(c.Time), c.Direction, num(c.Before), num(c.After), c.Percent.Estimate, c.Percent.Low, c.Percent.High, c.P)
		}
		b.WriteString("</table>\n")
	}
	b.WriteString("</body></html>\n")
	return b.Bytes()
}
