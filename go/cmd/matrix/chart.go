package main

import (
	"bytes"
	"fmt"
	"image/color"
	"math"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
	"gonum.org/v1/plot/vg/vgsvg"
)

// renderChart draws the matrix as grouped bars, one group per Go version,
// on a log scale: the four cells (with their intervals as whiskers) and the
// raw crossing, with the handoff and C call floors as lines across each
// group. gonum/plot's own BarChart starts its bars at zero, which a log
// axis cannot show, so the bars are a small Plotter of their own that
// starts them at the axis minimum.
func renderChart(m *matrix) ([]byte, error) {
	if len(m.Rows) == 0 {
		return nil, fmt.Errorf("no rows to draw")
	}
	p := newChartPlot(m)
	series := chartSeries(m)
	for j, s := range series {
		s.offset = (float64(j) - float64(len(series)-1)/2) * barWidth
		s.width = barWidth * 0.9
		p.Add(s)
	}
	handoff, ccall := chartFloors(m, len(series))
	p.Add(handoff, ccall)
	p.X.Tick.Marker = plot.ConstantTicks(groupTicks(m))
	p.X.Min, p.X.Max = -0.5, float64(len(m.Rows))-0.5
	if err := fitDecades(p, append(asRangers(series), handoff, ccall)); err != nil {
		return nil, err
	}
	return drawChart(p, countsPlot(m), chartLegend(m, series, handoff, ccall))
}

// barWidth is the width of one bar, in groups (one group per Go version).
const barWidth = 0.15

// newChartPlot is the empty plot: title, axes and grid.
func newChartPlot(m *matrix) *plot.Plot {
	p := plot.New()
	p.Title.Text = fmt.Sprintf("Cost of one extraction, C host -> Go plugin (plugin-sdk-go %s, p=1, work=%s)\n"+
		"bars: median across launches; whiskers: interval of the median; lines: floors from the same run",
		orDash(m.SDKVersion), orDash(m.Rows[0].Work))
	p.Title.Padding = vg.Points(8)
	p.X.Label.Text = "Go toolchain that built the plugin"
	p.Y.Label.Text = "ns per extraction (log scale)"
	p.Y.Scale = plot.LogScale{}
	p.Y.Tick.Marker = plot.LogTicks{Prec: -1}
	p.Add(gridLines{})
	return p
}

// chartFloors are the handoff and C call floors of each row, as lines as
// wide as a group of nbars bars.
func chartFloors(m *matrix, nbars int) (handoff, ccall *floorLines) {
	half := barWidth * float64(nbars) / 2
	handoff = &floorLines{name: "handoff floor (cache-line round trip)",
		style: draw.LineStyle{Color: color.RGBA{R: 200, A: 255}, Width: vg.Points(2), Dashes: []vg.Length{vg.Points(6), vg.Points(3)}},
		half:  half}
	ccall = &floorLines{name: "C call floor (C->C through a pointer)",
		style: draw.LineStyle{Color: color.Gray{Y: 90}, Width: vg.Points(1.5), Dashes: []vg.Length{vg.Points(2), vg.Points(2)}},
		half:  half}
	for _, r := range m.Rows {
		handoff.values = append(handoff.values, r.HandoffNs)
		ccall.values = append(ccall.values, r.CCallNs)
	}
	return handoff, ccall
}

// groupTicks labels each group with its Go version, and says which cells
// have no bar because they did not run in the mode they stand for.
func groupTicks(m *matrix) []plot.Tick {
	var ticks []plot.Tick
	for i, r := range m.Rows {
		label := r.GoVersion
		for _, c := range r.Cells {
			if !c.honest() {
				label += "\n(" + c.Lib + " " + c.Requested + " ran " + c.InEffect + ": no bar)"
			}
		}
		ticks = append(ticks, plot.Tick{Value: float64(i), Label: label})
	}
	return ticks
}

// fitDecades sets the Y axis to whole decades around every value drawn, so
// that every labelled tick is a power of ten.
func fitDecades(p *plot.Plot, drawn []plot.DataRanger) error {
	lo, hi := math.Inf(1), math.Inf(-1)
	for _, pl := range drawn {
		_, _, a, b := pl.DataRange()
		lo, hi = math.Min(lo, a), math.Max(hi, b)
	}
	if math.IsInf(lo, 1) {
		return fmt.Errorf("no value to draw: every statistic is null")
	}
	p.Y.Min = math.Pow(10, math.Floor(math.Log10(lo)))
	p.Y.Max = math.Pow(10, math.Ceil(math.Log10(hi*1.05)))
	return nil
}

// chartLegend names the series, the floors and the toolchains skipped.
func chartLegend(m *matrix, series []*bars, handoff, ccall *floorLines) plot.Legend {
	leg := plot.NewLegend()
	leg.Top, leg.Left = true, true
	leg.ThumbnailWidth = vg.Points(20)
	leg.TextStyle.Font.Size = vg.Points(9)
	leg.Padding = vg.Points(4)
	for _, s := range series {
		leg.Add(s.name, s)
	}
	leg.Add(handoff.name, handoff)
	leg.Add(ccall.name, ccall)
	for _, s := range m.Skipped {
		leg.Add("skipped "+s.Toolchain, blank{})
	}
	return leg
}

// drawChart lays the plot and, to its right, the legend out on one SVG
// page; the counts panel, when there is one, goes under them, its groups
// under the plot's.
func drawChart(p, counts *plot.Plot, leg plot.Legend) ([]byte, error) {
	const width, timesH, countsH, legendW = 11 * vg.Inch, 5.5 * vg.Inch, 4 * vg.Inch, 3.25 * vg.Inch
	height := timesH
	if counts != nil {
		height += countsH
	}
	canvas := vgsvg.New(width, height)
	dc := draw.New(canvas)
	top := draw.Crop(dc, 0, 0, height-timesH, 0)
	p.Draw(draw.Crop(top, 0, -legendW, 0, 0))
	legArea := draw.Crop(top, width-legendW+vg.Points(10), 0, 0, -vg.Points(50))
	leg.Draw(legArea)
	if counts != nil {
		counts.Draw(draw.Crop(dc, 0, -legendW, 0, -timesH))
	}
	var buf bytes.Buffer
	if _, err := canvas.WriteTo(&buf); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

func chartSeries(m *matrix) []*bars {
	colors := map[cellKey]color.Color{
		{"archive", "sync"}:  color.RGBA{R: 31, G: 86, B: 160, A: 255},
		{"archive", "async"}: color.RGBA{R: 130, G: 175, B: 225, A: 255},
		{"shared", "sync"}:   color.RGBA{R: 205, G: 100, B: 20, A: 255},
		{"shared", "async"}:  color.RGBA{R: 245, G: 180, B: 120, A: 255},
	}
	var out []*bars
	for _, k := range cellKeys {
		b := &bars{name: k.lib + " " + k.mode + " (SDK extraction)", color: colors[k]}
		for i := range m.Rows {
			c := m.Rows[i].cell(k)
			if c == nil || !c.honest() {
				// A cell that did not run in its mode gets no bar.
				b.add(nil, nil, nil)
				continue
			}
			b.add(c.Median, c.CILow, c.CIHigh)
		}
		out = append(out, b)
	}
	raw := &bars{name: "raw C->Go crossing (//export no-op)", color: color.Gray{Y: 150}}
	for i := range m.Rows {
		raw.add(m.Rows[i].RawCrossingNs, nil, nil)
	}
	return append(out, raw)
}

func asRangers(bs []*bars) []plot.DataRanger {
	out := make([]plot.DataRanger, len(bs))
	for i, b := range bs {
		out[i] = b
	}
	return out
}

// bars is one series of the grouped bars: one bar per group (Go version),
// from the bottom of the (log) axis to the value, with an optional whisker.
type bars struct {
	name          string
	color         color.Color
	values        []*float64
	lo, hi        []*float64
	offset, width float64 // in group units
}

func (b *bars) add(v, lo, hi *float64) {
	b.values = append(b.values, positive(v))
	b.lo = append(b.lo, positive(lo))
	b.hi = append(b.hi, positive(hi))
}

// positive keeps what a log axis can show.
func positive(v *float64) *float64 {
	if v == nil || !(*v > 0) || math.IsInf(*v, 0) {
		return nil
	}
	return v
}

func (b *bars) Plot(c draw.Canvas, p *plot.Plot) {
	trX, trY := p.Transforms(&c)
	outline := draw.LineStyle{Color: color.Gray{Y: 40}, Width: vg.Points(0.5)}
	whisker := draw.LineStyle{Color: color.Black, Width: vg.Points(1)}
	for i, v := range b.values {
		if v == nil {
			continue
		}
		x := float64(i) + b.offset
		x0, x1 := trX(x-b.width/2), trX(x+b.width/2)
		y0, y1 := trY(p.Y.Min), trY(*v)
		pts := []vg.Point{{X: x0, Y: y0}, {X: x0, Y: y1}, {X: x1, Y: y1}, {X: x1, Y: y0}}
		c.FillPolygon(b.color, c.ClipPolygonY(pts))
		c.StrokeLines(outline, c.ClipLinesY(append(pts, pts[0]))...)
		label := p.X.Tick.Label
		label.Font.Size = vg.Points(7)
		label.XAlign, label.YAlign = draw.XCenter, draw.YBottom
		top := y1
		if b.hi[i] != nil && trY(*b.hi[i]) > top {
			top = trY(*b.hi[i])
		}
		if c.ContainsY(top) {
			c.FillText(label, vg.Point{X: trX(x), Y: top + vg.Points(2)}, nsText(v))
		}
		if b.lo[i] != nil && b.hi[i] != nil {
			xm := trX(x)
			cap := (x1 - x0) / 4
			ylo, yhi := trY(*b.lo[i]), trY(*b.hi[i])
			c.StrokeLines(whisker, c.ClipLinesY(
				[]vg.Point{{X: xm, Y: ylo}, {X: xm, Y: yhi}},
				[]vg.Point{{X: xm - cap, Y: ylo}, {X: xm + cap, Y: ylo}},
				[]vg.Point{{X: xm - cap, Y: yhi}, {X: xm + cap, Y: yhi}})...)
		}
	}
}

func (b *bars) DataRange() (xmin, xmax, ymin, ymax float64) {
	ymin, ymax = math.Inf(1), math.Inf(-1)
	for i, v := range b.values {
		for _, x := range []*float64{v, b.lo[i], b.hi[i]} {
			if x != nil {
				ymin, ymax = math.Min(ymin, *x), math.Max(ymax, *x)
			}
		}
	}
	return 0, float64(len(b.values) - 1), ymin, ymax
}

func (b *bars) Thumbnail(c *draw.Canvas) {
	pts := []vg.Point{
		{X: c.Min.X, Y: c.Min.Y}, {X: c.Min.X, Y: c.Max.Y},
		{X: c.Max.X, Y: c.Max.Y}, {X: c.Max.X, Y: c.Min.Y},
	}
	c.FillPolygon(b.color, c.ClipPolygonY(pts))
}

// floorLines draws one floor per group as a horizontal line across the
// group's bars: each Go version's run measured its own floors.
type floorLines struct {
	name   string
	style  draw.LineStyle
	values []*float64
	half   float64 // half the group's width, in group units
}

func (f *floorLines) Plot(c draw.Canvas, p *plot.Plot) {
	trX, trY := p.Transforms(&c)
	for i, v := range f.values {
		if positive(v) == nil {
			continue
		}
		y := trY(*v)
		line := []vg.Point{{X: trX(float64(i) - f.half - 0.03), Y: y}, {X: trX(float64(i) + f.half + 0.03), Y: y}}
		c.StrokeLines(f.style, c.ClipLinesY(line)...)
	}
}

func (f *floorLines) DataRange() (xmin, xmax, ymin, ymax float64) {
	ymin, ymax = math.Inf(1), math.Inf(-1)
	for _, v := range f.values {
		if positive(v) != nil {
			ymin, ymax = math.Min(ymin, *v), math.Max(ymax, *v)
		}
	}
	return 0, float64(len(f.values) - 1), ymin, ymax
}

func (f *floorLines) Thumbnail(c *draw.Canvas) {
	y := (c.Min.Y + c.Max.Y) / 2
	c.StrokeLine2(f.style, c.Min.X, y, c.Max.X, y)
}

// gridLines draws light horizontal lines at the decades of the log axis.
type gridLines struct{}

func (gridLines) Plot(c draw.Canvas, p *plot.Plot) {
	_, trY := p.Transforms(&c)
	style := draw.LineStyle{Color: color.Gray{Y: 220}, Width: vg.Points(0.5)}
	for _, t := range p.Y.Tick.Marker.Ticks(p.Y.Min, p.Y.Max) {
		if t.Label == "" || t.Value < p.Y.Min || t.Value > p.Y.Max {
			continue
		}
		y := trY(t.Value)
		c.StrokeLine2(style, c.Min.X, y, c.Max.X, y)
	}
}

// blank is a legend entry without a symbol.
type blank struct{}

func (blank) Thumbnail(*draw.Canvas) {}
