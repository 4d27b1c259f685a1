package main

import (
	"bytes"
	"fmt"
	"image/color"
	"math"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
	"gonum.org/v1/plot/vg/vgsvg"
)

var (
	blue  = color.RGBA{R: 31, G: 119, B: 180, A: 255}
	red   = color.RGBA{R: 214, G: 39, B: 40, A: 255}
	green = color.RGBA{R: 44, G: 160, B: 44, A: 255}
	dash  = []vg.Length{vg.Points(6), vg.Points(3)}
)

// How each series is drawn: the mode by colour (the C plugin green), the
// host calls by the line (batched dashed).
var style = map[string]struct {
	c      color.Color
	dashes []vg.Length
}{
	"per-field sync":  {blue, nil},
	"batched sync":    {blue, dash},
	"per-field async": {red, nil},
	"batched async":   {red, dash},
	"C per-field":     {green, nil},
	"C batched":       {green, dash},
}

// chart draws ns per event against K, log-log, one line per series.
func chart(rows []row) ([]byte, error) {
	p := plot.New()
	p.Title.Text = "What one event of K plugin fields costs the host"
	p.X.Label.Text = "K: fields the event's rules read"
	p.Y.Label.Text = "ns per event (median over paired blocks)"
	p.X.Scale, p.Y.Scale = plot.LogScale{}, plot.LogScale{}
	p.X.Tick.Marker, p.Y.Tick.Marker = plot.LogTicks{Prec: -1}, plot.LogTicks{Prec: -1}
	p.Add(plotter.NewGrid())
	p.Legend.Top, p.Legend.Left = true, true
	p.Legend.ThumbnailWidth = vg.Points(24)
	rows, _ = split(rows)
	// the axes' ranges, padded: a log axis of one value has none
	xmin, xmax, ymin, ymax := math.Inf(1), math.Inf(-1), math.Inf(1), math.Inf(-1)
	for _, r := range rows {
		for _, v := range r.NsEvent {
			if v > 0 {
				xmin, xmax = math.Min(xmin, float64(r.K)), math.Max(xmax, float64(r.K))
				ymin, ymax = math.Min(ymin, v), math.Max(ymax, v)
			}
		}
	}
	if math.IsInf(xmin, 1) {
		return nil, fmt.Errorf("nothing to draw: no per-event cell with a time")
	}
	p.X.Min, p.X.Max, p.Y.Min, p.Y.Max = xmin/1.25, xmax*1.25, ymin/1.5, ymax*1.5
	var ticks []plot.Tick // every K swept, labelled
	for _, r := range rows {
		ticks = append(ticks, plot.Tick{Value: float64(r.K), Label: fmt.Sprint(r.K)})
	}
	p.X.Tick.Marker = plot.ConstantTicks(ticks)
	for _, name := range seriesNames {
		var xy plotter.XYs
		for _, r := range rows {
			if v, ok := r.NsEvent[name]; ok && v > 0 {
				xy = append(xy, plotter.XY{X: float64(r.K), Y: v})
			}
		}
		if len(xy) == 0 {
			continue
		}
		l, s, err := plotter.NewLinePoints(xy)
		if err != nil {
			return nil, err
		}
		st := style[name]
		l.Color, l.Width, l.Dashes = st.c, vg.Points(1.5), st.dashes
		s.Color, s.Shape = st.c, draw.CircleGlyph{}
		p.Add(l, s)
		p.Legend.Add(name, l, s)
	}
	canvas := vgsvg.New(9*vg.Inch, 6*vg.Inch)
	p.Draw(draw.New(canvas))
	var buf bytes.Buffer
	if _, err := canvas.WriteTo(&buf); err != nil {
		return nil, fmt.Errorf("writing the SVG: %v", err)
	}
	return buf.Bytes(), nil
}
