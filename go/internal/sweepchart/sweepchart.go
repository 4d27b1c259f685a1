// Package sweepchart draws a rate sweep's latency percentiles the one way
// the rate sweep's chart (go/cmd/latency) and the HTML report
// (go/cmd/report) both draw them: per mode and percentile, the scheduled
// points joined by a line told apart by its dashes, and the back-to-back
// ("max") point, which sits at the rate it achieved, as a lone triangle.
package sweepchart

import (
	"image/color"
	"sort"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

// Point is one cell of a sweep: a mode at a rate.
type Point struct {
	Mode                  string // sync or async, as requested
	Rate                  float64
	Max                   bool // the closed loop ("max"), at its achieved rate
	P50, P99, P999, CPUNs float64
}

// Percentile is one of the percentiles drawn and the dash of its line.
type Percentile struct {
	Name   string
	Get    func(Point) float64
	Dashes []vg.Length
}

// Percentiles are p50, p99 and p99.9.
var Percentiles = []Percentile{
	{"p50", func(p Point) float64 { return p.P50 }, nil},
	{"p99", func(p Point) float64 { return p.P99 }, []vg.Length{vg.Points(6), vg.Points(3)}},
	{"p99.9", func(p Point) float64 { return p.P999 }, []vg.Length{vg.Points(2), vg.Points(2)}},
}

// Series returns the points of one mode that get draws (a positive value
// at a positive rate), by rate: the scheduled ones, or (max) the
// back-to-back one.
func Series(points []Point, mode string, max bool, get func(Point) float64) plotter.XYs {
	var xy plotter.XYs
	for _, p := range points {
		if p.Mode == mode && p.Max == max && get(p) > 0 && p.Rate > 0 {
			xy = append(xy, plotter.XY{X: p.Rate, Y: get(p)})
		}
	}
	sort.SliceStable(xy, func(i, j int) bool { return xy[i].X < xy[j].X })
	return xy
}

// AddLine draws the scheduled points joined by a line (in leg as label)
// and the max points as lone triangles.
func AddLine(p *plot.Plot, leg *plot.Legend, xy, max plotter.XYs, c color.Color, dashes []vg.Length, label string) error {
	if len(xy) > 0 {
		l, s, err := plotter.NewLinePoints(xy)
		if err != nil {
			return err
		}
		l.Color, l.Width, l.Dashes = c, vg.Points(1.5), dashes
		s.Color, s.Shape = c, draw.CircleGlyph{}
		p.Add(l, s)
		leg.Add(label, l, s)
	}
	if len(max) > 0 {
		s, err := plotter.NewScatter(max)
		if err != nil {
			return err
		}
		s.Color, s.Shape, s.Radius = c, draw.TriangleGlyph{}, vg.Points(4)
		p.Add(s)
	}
	return nil
}
