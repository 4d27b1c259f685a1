package main

import (
	"fmt"
	"image/color"
	"math"
	"strings"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/vg"
)

// countsPlot is the chart's second panel: instructions per sync extraction
// per Go version (bars from zero, whiskers from the smallest to the largest
// pair), each group labelled with its system calls per extraction and their
// names. nil when no row was counted: the chart is then the times alone.
func countsPlot(m *matrix) *plot.Plot {
	var first *rowCounts
	for _, r := range m.Rows {
		if r.Counts != nil && first == nil {
			first = r.Counts
		}
	}
	if first == nil {
		return nil
	}
	p := plot.New()
	p.Title.Text = fmt.Sprintf("Work of one sync extraction (lib=archive, bench --count all -n %s): no clock\n"+
		"bars: instructions (valgrind cachegrind; whiskers: range of %s pairs); under each version: system calls (perf stat)",
		intText(first.NShort), intText(first.Pairs))
	p.Title.Padding = vg.Points(8)
	p.X.Label.Text = "Go toolchain that built the plugin"
	p.Y.Label.Text = "instructions per extraction"
	b := &bars{name: "instructions per extraction", color: color.RGBA{R: 60, G: 130, B: 80, A: 255},
		width: barWidth * 2}
	hi := 0.0
	var ticks []plot.Tick
	for i, r := range m.Rows {
		c := r.Counts
		if c == nil || c.Instructions == nil {
			b.add(nil, nil, nil)
		} else {
			f := c.Instructions
			b.add(f.Median, f.Min, f.Max)
		}
		for _, v := range []*float64{b.values[i], b.hi[i]} {
			if v != nil {
				hi = math.Max(hi, *v)
			}
		}
		ticks = append(ticks, plot.Tick{Value: float64(i), Label: countsTick(r)})
	}
	// Labels are centred on their height: pad them to the same number of
	// lines, so that every version's name is on the axis's first line.
	most := 0
	for _, t := range ticks {
		most = max(most, strings.Count(t.Label, "\n"))
	}
	for i := range ticks {
		ticks[i].Label += strings.Repeat("\n ", most-strings.Count(ticks[i].Label, "\n"))
	}
	p.Add(b)
	p.X.Tick.Marker = plot.ConstantTicks(ticks)
	p.X.Min, p.X.Max = -0.5, float64(len(m.Rows))-0.5
	p.Y.Min, p.Y.Max = 0, 1
	if hi > 0 {
		p.Y.Max = hi * 1.2
	}
	return p
}

// countsTick is a group's label: the version, its system calls per
// extraction and, one a line, those by name.
func countsTick(r row) string {
	lines := []string{r.GoVersion}
	c := r.Counts
	switch {
	case c == nil:
		lines = append(lines, "not counted")
	case c.Syscalls == nil:
		lines = append(lines, "system calls not counted")
	default:
		lines = append(lines, countText(c.Syscalls.Median)+" system calls")
		for _, x := range c.shownNames() {
			lines = append(lines, x.Name+" "+countText(x.Median))
		}
	}
	return strings.Join(lines, "\n")
}
