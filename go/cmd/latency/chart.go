package main

import (
	"bytes"
	"fmt"
	"image/color"
	"math"

	"cgocost/go/internal/sweepchart"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
	"gonum.org/v1/plot/vg/vgsvg"
)

var modeColor = map[string]color.Color{
	"sync":  color.RGBA{R: 31, G: 119, B: 180, A: 255},
	"async": color.RGBA{R: 214, G: 39, B: 40, A: 255},
}

func logPlot(title, ylabel string) *plot.Plot {
	p := plot.New()
	p.Title.Text = title
	p.X.Label.Text = "requests per second per plugin (max: back to back, at its achieved rate)"
	p.Y.Label.Text = ylabel
	p.X.Scale, p.Y.Scale = plot.LogScale{}, plot.LogScale{}
	p.X.Tick.Marker, p.Y.Tick.Marker = plot.LogTicks{Prec: -1}, plot.LogTicks{Prec: -1}
	p.Add(plotter.NewGrid())
	return p
}

func newLegend() plot.Legend {
	leg := plot.NewLegend()
	leg.Top = true
	leg.Left = true
	leg.ThumbnailWidth = vg.Points(24)
	leg.TextStyle.Font.Size = vg.Points(9)
	return leg
}

// fitLog sets a log panel's axes to what it draws, widened by a factor of
// two each way: gonum/plot pads a single value by one either side, which
// reaches zero or below for a value of 1 or less, and panics there on a log
// scale (found by FuzzReadSweep).
func fitLog(p *plot.Plot, points []point, ys func(point) []float64) {
	x, y := [2]float64{math.Inf(1), math.Inf(-1)}, [2]float64{math.Inf(1), math.Inf(-1)}
	widen := func(r *[2]float64, v float64) {
		if v > 0 && !math.IsInf(v, 0) {
			r[0], r[1] = math.Min(r[0], v), math.Max(r[1], v)
		}
	}
	for _, pt := range points {
		if pt.Mode != "sync" && pt.Mode != "async" {
			continue
		}
		drawn := false
		for _, v := range ys(pt) {
			widen(&y, v)
			drawn = drawn || v > 0
		}
		if drawn {
			widen(&x, pt.Rate)
		}
	}
	for _, a := range []struct {
		ax *plot.Axis
		r  [2]float64
	}{{&p.X, x}, {&p.Y, y}} {
		if a.r[0] > a.r[1] { // nothing drawn: any decade
			a.r = [2]float64{1, 10}
		}
		a.ax.Min, a.ax.Max = math.Max(a.r[0]/2, math.SmallestNonzeroFloat64), math.Min(a.r[1]*2, math.MaxFloat64)
	}
}

// chart draws the two panels, one above the other, as SVG.
func chart(points []point) ([]byte, error) {
	lat := logPlot("Extraction latency from each request's due time", "latency (ns)")
	cpu := logPlot("CPU per event (process CPU over the run / events)", "CPU ns per event")
	latLeg, cpuLeg := newLegend(), newLegend()
	for _, mode := range []string{"sync", "async"} {
		for _, pc := range sweepchart.Percentiles {
			if err := sweepchart.AddLine(lat, &latLeg, sweepchart.Series(points, mode, false, pc.Get), sweepchart.Series(points, mode, true, pc.Get),
				modeColor[mode], pc.Dashes, mode+" "+pc.Name); err != nil {
				return nil, err
			}
		}
		perEvent := func(p point) float64 { return p.CPUNs }
		if err := sweepchart.AddLine(cpu, &cpuLeg, sweepchart.Series(points, mode, false, perEvent), sweepchart.Series(points, mode, true, perEvent),
			modeColor[mode], nil, mode); err != nil {
			return nil, err
		}
	}
	fitLog(lat, points, func(p point) []float64 { return []float64{p.P50, p.P99, p.P999} })
	fitLog(cpu, points, func(p point) []float64 { return []float64{p.CPUNs} })
	const width, height, legendW = 10 * vg.Inch, 10 * vg.Inch, 1.6 * vg.Inch
	canvas := vgsvg.New(width, height)
	dc := draw.New(canvas)
	tiles := draw.Tiles{Rows: 2, Cols: 1, PadX: vg.Points(10), PadY: vg.Points(16), PadTop: vg.Points(8), PadBottom: vg.Points(8), PadLeft: vg.Points(8), PadRight: vg.Points(8)}
	canvases := plot.Align([][]*plot.Plot{{lat}, {cpu}}, tiles, draw.Crop(dc, 0, -legendW, 0, 0))
	lat.Draw(canvases[0][0])
	cpu.Draw(canvases[1][0])
	for i, leg := range []plot.Legend{latLeg, cpuLeg} {
		area := canvases[i][0]
		area.Min.X, area.Max.X = width-legendW, width
		area.Max.Y -= vg.Points(30)
		leg.Draw(area)
	}
	note := draw.TextStyle{Color: color.Gray{Y: 60}, Font: latLeg.TextStyle.Font, XAlign: draw.XLeft, YAlign: draw.YTop, Handler: latLeg.TextStyle.Handler}
	dc.FillText(note, vg.Point{X: width - legendW, Y: height/2 + vg.Points(40)}, "triangles: max\n(back to back,\nat its achieved\nrate)")
	var buf bytes.Buffer
	if _, err := canvas.WriteTo(&buf); err != nil {
		return nil, fmt.Errorf("writing the SVG: %v", err)
	}
	return buf.Bytes(), nil
}
