package main

import (
	"bytes"
	"fmt"
	"html/template"
	"image/color"
	"math"
	"slices"
	"strings"

	"cgocost/go/internal/sweepchart"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
	"gonum.org/v1/plot/vg/vgsvg"
)

// Every chart of the page is a gonum/plot plot written by vgsvg and inlined.

var palette = []color.Color{
	color.RGBA{R: 31, G: 119, B: 180, A: 255},
	color.RGBA{R: 214, G: 39, B: 40, A: 255},
	color.RGBA{R: 44, G: 160, B: 44, A: 255},
	color.RGBA{R: 255, G: 127, B: 14, A: 255},
	color.RGBA{R: 148, G: 103, B: 189, A: 255},
	color.RGBA{R: 140, G: 86, B: 75, A: 255},
	color.RGBA{R: 227, G: 119, B: 194, A: 255},
	color.RGBA{R: 127, G: 127, B: 127, A: 255},
}

func paletteColor(i int) color.Color { return palette[i%len(palette)] }

const chartWidth = 8 * vg.Inch

// rowHeight is the height one labelled row of a horizontal chart takes.
func rowsHeight(rows int) vg.Length {
	return vg.Length(math.Max(2.2, 0.9+0.32*float64(rows))) * vg.Inch
}

// svgOf draws p and returns its SVG element, without the XML prolog and
// comment vgsvg writes first, so it can stand inside HTML.
func svgOf(p *plot.Plot, w, h vg.Length) (template.HTML, error) {
	c := vgsvg.New(w, h)
	// a margin all round: a label gonum sets at the very edge loses its
	// first glyph's side bearing to the SVG's clip in a browser
	p.Draw(draw.Crop(draw.New(c), vg.Points(6), -vg.Points(6), vg.Points(2), -vg.Points(2)))
	var buf bytes.Buffer
	if _, err := c.WriteTo(&buf); err != nil {
		return "", fmt.Errorf("writing the SVG of %q: %v", p.Title.Text, err)
	}
	s := buf.String()
	i := strings.Index(s, "<svg")
	if i < 0 {
		return "", fmt.Errorf("the SVG of %q has no <svg> element", p.Title.Text)
	}
	return template.HTML(s[i:]), nil
}

func newPlot(title, xlabel string) *plot.Plot {
	p := plot.New()
	p.Title.Text = title
	p.X.Label.Text = xlabel
	p.Title.TextStyle.Font.Size = vg.Points(13)
	p.Add(plotter.NewGrid())
	return p
}

// nominalRows labels rows top to bottom: row i sits at y = n-1-i.
func nominalRows(p *plot.Plot, labels []string) {
	n := len(labels)
	rev := make([]string, n)
	for i, l := range labels {
		rev[n-1-i] = l
	}
	p.NominalY(rev...)
	p.Y.Tick.Label.Font.Size = vg.Points(9)
	p.Y.Min, p.Y.Max = -0.7, float64(n)-0.3
}

// fitX sets the x axis to the values drawn, with a margin; on a log scale
// by a factor, and only over positive values.
func fitX(p *plot.Plot, vals []float64, log bool) {
	lo, hi := math.Inf(1), math.Inf(-1)
	for _, v := range vals {
		if math.IsNaN(v) || math.IsInf(v, 0) || (log && v <= 0) {
			continue
		}
		lo, hi = math.Min(lo, v), math.Max(hi, v)
	}
	if lo > hi {
		lo, hi = 1, 10
	}
	if log {
		p.X.Scale = plot.LogScale{}
		p.X.Tick.Marker = plot.LogTicks{Prec: -1}
		if hi/lo < 10 {
			mid := math.Sqrt(lo * hi)
			lo, hi = math.Min(lo, mid/3.2), math.Max(hi, mid*3.2)
		}
		p.X.Min, p.X.Max = lo/1.25, hi*1.25
		return
	}
	pad := (hi - lo) * 0.06
	if pad == 0 {
		pad = math.Max(math.Abs(lo)*0.1, 1)
	}
	p.X.Min, p.X.Max = lo-pad, hi+pad
}

// wantLog: a log scale when every value is positive and they span more
// than a factor of min.
func wantLog(vals []float64, min float64) bool {
	lo, hi := math.Inf(1), math.Inf(-1)
	for _, v := range vals {
		if math.IsNaN(v) || math.IsInf(v, 0) {
			continue
		}
		if v <= 0 {
			return false
		}
		lo, hi = math.Min(lo, v), math.Max(hi, v)
	}
	return lo < hi && hi/lo > min
}

// sampleGroup is one cell's samples in the box/strip plot.
type sampleGroup struct {
	Label  string
	Values []float64
}

// maxStrip bounds the points drawn beside a box (the box uses them all).
const maxStrip = 600

// boxStrip draws one horizontal box per group (Tukey's: quartiles, whiskers
// to the last sample within 1.5 IQR) with the samples themselves beside it.
func boxStrip(title, xlabel string, groups []sampleGroup) (template.HTML, error) {
	p := newPlot(title, xlabel)
	var all []float64
	labels := make([]string, len(groups))
	for i, g := range groups {
		labels[i] = fmt.Sprintf("%s (%d)", g.Label, len(g.Values))
		all = append(all, g.Values...)
	}
	log := wantLog(all, 20)
	n := len(groups)
	for i, g := range groups {
		y := float64(n - 1 - i)
		c := paletteColor(i)
		b, err := plotter.NewBoxPlot(vg.Points(14), y, plotter.Values(g.Values))
		if err != nil {
			return "", err
		}
		b.Horizontal = true
		b.BoxStyle.Color, b.MedianStyle.Color, b.WhiskerStyle.Color = c, c, c
		b.MedianStyle.Width = vg.Points(2)
		b.GlyphStyle.Radius = 0 // the strip shows every sample
		p.Add(b)
		step := 1
		if len(g.Values) > maxStrip {
			step = (len(g.Values) + maxStrip - 1) / maxStrip
		}
		var xy plotter.XYs
		for j := 0; j < len(g.Values); j += step {
			// a fixed spread (the golden-ratio sequence), not a random
			// one: the same document draws the same page
			jit := math.Mod(float64(j)*0.6180339887, 1) - 0.5
			xy = append(xy, plotter.XY{X: g.Values[j], Y: y - 0.28 + 0.16*jit})
		}
		s, err := plotter.NewScatter(xy)
		if err != nil {
			return "", err
		}
		s.GlyphStyle.Color = color.RGBA{R: 60, G: 60, B: 60, A: 150}
		s.GlyphStyle.Radius = vg.Points(1.4)
		s.GlyphStyle.Shape = draw.CircleGlyph{}
		p.Add(s)
	}
	nominalRows(p, labels)
	fitX(p, all, log)
	if log {
		p.X.Label.Text += " (log scale)"
	}
	return svgOf(p, chartWidth, rowsHeight(n))
}

// dotRow is one estimate with its interval in a dot-and-interval chart.
type dotRow struct {
	Label     string
	Point     float64
	Low, High *float64 // the interval, when there is one
	Color     color.Color
}

type dotOpts struct {
	Log  bool
	Ref  *float64    // a vertical line (the indifference point)
	Band *[2]float64 // a shaded band (the threshold)
}

// xErr is a point with its interval, as plotter.XErrorBars reads it.
type xErr struct{ x, y, lo, hi float64 }
type xErrs []xErr

func (e xErrs) Len() int                        { return len(e) }
func (e xErrs) XY(i int) (float64, float64)     { return e[i].x, e[i].y }
func (e xErrs) XError(i int) (float64, float64) { return e[i].x - e[i].lo, e[i].hi - e[i].x }

// dotIntervals draws rows of an estimate (a dot) and its interval (a bar),
// top to bottom: the forest plot of ratios and changes, the floors, the
// decisions and the matrix use it.
func dotIntervals(title, xlabel string, rows []dotRow, o dotOpts) (template.HTML, error) {
	p := newPlot(title, xlabel)
	n := len(rows)
	labels := make([]string, n)
	var all []float64
	if o.Ref != nil {
		all = append(all, *o.Ref)
	}
	if o.Band != nil {
		all = append(all, o.Band[0], o.Band[1])
		band, err := plotter.NewPolygon(plotter.XYs{
			{X: o.Band[0], Y: -0.7}, {X: o.Band[1], Y: -0.7},
			{X: o.Band[1], Y: float64(n) - 0.3}, {X: o.Band[0], Y: float64(n) - 0.3},
		})
		if err != nil {
			return "", err
		}
		band.Color = color.NRGBA{R: 255, G: 190, B: 40, A: 110}
		band.LineStyle.Width = 0
		p.Add(band)
	}
	if o.Ref != nil {
		l, err := plotter.NewLine(plotter.XYs{{X: *o.Ref, Y: -0.7}, {X: *o.Ref, Y: float64(n) - 0.3}})
		if err != nil {
			return "", err
		}
		l.Color, l.Width = color.Gray{Y: 90}, vg.Points(1)
		l.Dashes = []vg.Length{vg.Points(4), vg.Points(3)}
		p.Add(l)
	}
	for i, r := range rows {
		labels[i] = r.Label
		y := float64(n - 1 - i)
		c := r.Color
		if c == nil {
			c = paletteColor(0)
		}
		all = append(all, r.Point)
		if r.Low != nil && r.High != nil {
			all = append(all, *r.Low, *r.High)
			e, err := plotter.NewXErrorBars(xErrs{{x: r.Point, y: y, lo: math.Min(*r.Low, r.Point), hi: math.Max(*r.High, r.Point)}})
			if err != nil {
				return "", err
			}
			e.LineStyle.Color, e.LineStyle.Width = c, vg.Points(2)
			e.CapWidth = vg.Points(8)
			p.Add(e)
		}
		s, err := plotter.NewScatter(plotter.XYs{{X: r.Point, Y: y}})
		if err != nil {
			return "", err
		}
		s.GlyphStyle.Color, s.GlyphStyle.Radius, s.GlyphStyle.Shape = c, vg.Points(4), draw.CircleGlyph{}
		p.Add(s)
	}
	nominalRows(p, labels)
	// a log scale only where the values span a decade or more: within
	// one, it would label a single tick
	log := o.Log && wantLog(all, 10)
	fitX(p, all, log)
	if o.Log && !log {
		p.X.Label.Text = strings.Replace(p.X.Label.Text, "log scale; ", "", 1)
		p.X.Label.Text = strings.Replace(p.X.Label.Text, " (log scale)", "", 1)
	}
	return svgOf(p, chartWidth, rowsHeight(n))
}

// layer is one step of a stacked bar: its increment in each category.
type layer struct {
	Name   string
	Values []float64
}

// stackedBars draws one horizontal bar per category, its layers stacked.
func stackedBars(title, xlabel string, categories []string, layers []layer) (template.HTML, error) {
	p := newPlot(title, xlabel)
	n := len(categories)
	var below *plotter.BarChart
	for i, l := range layers {
		vals := make(plotter.Values, n)
		for j := range categories {
			vals[n-1-j] = l.Values[j]
		}
		b, err := plotter.NewBarChart(vals, vg.Points(26))
		if err != nil {
			return "", err
		}
		b.Horizontal = true
		b.Color = paletteColor(i)
		b.LineStyle.Width = vg.Points(0.5)
		b.LineStyle.Color = color.White
		if below != nil {
			b.StackOn(below)
		}
		p.Add(b)
		p.Legend.Add(l.Name, b)
		below = b
	}
	p.Legend.Top = true
	p.Legend.Left = false
	p.Legend.XOffs = -vg.Points(4)
	p.Legend.TextStyle.Font.Size = vg.Points(9)
	nominalRows(p, categories)
	p.X.Min = 0
	// room on the right for the legend
	max := 0.0
	for j := range categories {
		sum := 0.0
		for _, l := range layers {
			sum += l.Values[j]
		}
		max = math.Max(max, sum)
	}
	p.X.Max = max * 1.35
	return svgOf(p, chartWidth, rowsHeight(n+2))
}

// sweepPoint is one cell of a rate sweep.
type sweepPoint = sweepchart.Point

// sweepChart draws the percentiles of each mode against the rate, log-log.
func sweepChart(points []sweepPoint) (template.HTML, error) {
	p := newPlot("Latency from each request's due time against the rate", "requests per second per plugin (triangles: back to back, at the rate achieved)")
	p.Y.Label.Text = "latency (ns, log scale)"
	p.X.Scale, p.Y.Scale = plot.LogScale{}, plot.LogScale{}
	p.X.Tick.Marker, p.Y.Tick.Marker = plot.LogTicks{Prec: -1}, plot.LogTicks{Prec: -1}
	// the top right is where a sweep draws nothing: low latency at high
	// rates is at the bottom right, the slow rates' tails at the top left
	p.Legend.Top, p.Legend.Left = true, false
	p.Legend.TextStyle.Font.Size = vg.Points(9)
	var xs, ys []float64
	for mi, m := range []string{"sync", "async"} {
		for _, pc := range sweepchart.Percentiles {
			line, max := sweepchart.Series(points, m, false, pc.Get), sweepchart.Series(points, m, true, pc.Get)
			for _, xy := range slices.Concat(line, max) {
				xs, ys = append(xs, xy.X), append(ys, xy.Y)
			}
			if err := sweepchart.AddLine(p, &p.Legend, line, max, paletteColor(mi), pc.Dashes, m+" "+pc.Name); err != nil {
				return "", err
			}
		}
	}
	fitX(p, xs, true)
	lo, hi := math.Inf(1), math.Inf(-1)
	for _, v := range ys {
		lo, hi = math.Min(lo, v), math.Max(hi, v)
	}
	if lo > hi {
		lo, hi = 1, 10
	}
	p.Y.Min, p.Y.Max = lo/2, hi*2
	return svgOf(p, chartWidth, 4.5*vg.Inch)
}
