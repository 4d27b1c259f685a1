package main

import (
	"bytes"
	"fmt"
	"image/color"
	"sort"

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

// The percentiles, told apart by the dash of their line.
var percentiles = []struct {
	name   string
	get    func(point) float64
	dashes []vg.Length
}{
	{"p50", func(p point) float64 { return p.P50 }, nil},
	{"p99", func(p point) float64 { return p.P99 }, []vg.Length{vg.Points(6), vg.Points(3)}},
	{"p99.9", func(p point) float64 { return p.P999 }, []vg.Length{vg.Points(2), vg.Points(2)}},
}

// series returns the points of one mode, by rate.
func series(points []point, mode string, get func(point) float64) plotter.XYs {
	var xy plotter.XYs
	for _, p := range points {
		if p.Mode == mode && get(p) > 0 {
			xy = append(xy, plotter.XY{X: p.Rate, Y: get(p)})
		}
	}
	sort.Slice(xy, func(i, j int) bool { return xy[i].X < xy[j].X })
	return xy
}

func logPlot(title, ylabel string) *plot.Plot {
	p := plot.New()
	p.Title.Text = title
	p.X.Label.Text = "requests per second per plugin (max: back to back, at its achieved rate)"
	p.Y.Label.Text = ylabel
	p.X.Scale, p.Y.Scale = plot.LogScale{}, plot.LogScale{}
	p.X.Tick.Marker, p.Y.Tick.Marker = plot.LogTicks{Prec: -1}, plot.LogTicks{Prec: -1}
	p.Legend.Top = true
	p.Legend.Left = true
	p.Add(plotter.NewGrid())
	return p
}

func addLine(p *plot.Plot, xy plotter.XYs, c color.Color, dashes []vg.Length, label string) error {
	if len(xy) == 0 {
		return nil
	}
	l, s, err := plotter.NewLinePoints(xy)
	if err != nil {
		return err
	}
	l.Color, l.Width, l.Dashes = c, vg.Points(1.5), dashes
	s.Color, s.Shape = c, draw.CircleGlyph{}
	p.Add(l, s)
	p.Legend.Add(label, l, s)
	return nil
}

// chart draws the two panels, one above the other, as SVG.
func chart(points []point) ([]byte, error) {
	lat := logPlot("Extraction latency from each request's due time", "latency (ns)")
	cpu := logPlot("CPU per event (process CPU over the run / events)", "CPU ns per event")
	for _, mode := range []string{"sync", "async"} {
		for _, pc := range percentiles {
			if err := addLine(lat, series(points, mode, pc.get), modeColor[mode], pc.dashes, mode+" "+pc.name); err != nil {
				return nil, err
			}
		}
		if err := addLine(cpu, series(points, mode, func(p point) float64 { return p.CPUNs }), modeColor[mode], nil, mode); err != nil {
			return nil, err
		}
	}
	const width, height = 9 * vg.Inch, 10 * vg.Inch
	canvas := vgsvg.New(width, height)
	dc := draw.New(canvas)
	tiles := draw.Tiles{Rows: 2, Cols: 1, PadX: vg.Points(10), PadY: vg.Points(16), PadTop: vg.Points(8), PadBottom: vg.Points(8), PadLeft: vg.Points(8), PadRight: vg.Points(8)}
	plots := [][]*plot.Plot{{lat}, {cpu}}
	canvases := plot.Align(plots, tiles, dc)
	lat.Draw(canvases[0][0])
	cpu.Draw(canvases[1][0])
	var buf bytes.Buffer
	if _, err := canvas.WriteTo(&buf); err != nil {
		return nil, fmt.Errorf("writing the SVG: %v", err)
	}
	return buf.Bytes(), nil
}
