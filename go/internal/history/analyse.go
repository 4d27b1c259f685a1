package history

import (
	"fmt"
	"math"
	"time"
)

// Point is one commit's value of a figure.
type Point struct {
	Commit string
	Time   time.Time
	Value  float64
}

// Series is one figure across commits, oldest first.
type Series struct {
	Name   string // "instructions lib=archive/mode=sync/work=noop/p=1"
	Unit   string // "instructions/extraction", "ratio", "ns/extraction"
	Points []Point
}

// Segment is a run of points between change points: [From, To).
type Segment struct {
	From, To     int
	Mean, Median float64
}

// Change is one change point: the first point of the new segment, and
// the shift from the segment before it to the segment after it, in the
// figure's unit and in percent of the segment before.
type Change struct {
	Index     int
	Commit    string
	Time      time.Time
	Before    float64 // median of the segment before
	After     float64 // median of the segment after
	Shift     Shift   // in the unit
	Percent   Shift   // in percent of Before
	Direction string  // "up" or "down"
	P         float64 // the permutation test's p
}

// Result is one series analysed.
type Result struct {
	Series   Series
	Changes  []Change
	Segments []Segment
}

func values(pts []Point) []float64 {
	v := make([]float64, len(pts))
	for i, p := range pts {
		v[i] = p.Value
	}
	return v
}

// percentOf is s in percent of base.
func percentOf(s Shift, base float64) Shift {
	return Shift{Estimate: 100 * s.Estimate / base, Low: 100 * s.Low / base, High: 100 * s.High / base}
}

// Analyse finds the change points of s and describes each.
func Analyse(s Series, opt Options) Result {
	x := values(s.Points)
	splits := Detect(x, opt)
	r := Result{Series: s}
	bounds := []int{0}
	for _, sp := range splits {
		bounds = append(bounds, sp.At)
	}
	bounds = append(bounds, len(x))
	for i := 0; i+1 < len(bounds); i++ {
		seg := x[bounds[i]:bounds[i+1]]
		r.Segments = append(r.Segments, Segment{From: bounds[i], To: bounds[i+1], Mean: mean(seg), Median: medianOf(seg)})
	}
	for i, sp := range splits {
		before, after := r.Segments[i], r.Segments[i+1]
		sh := HodgesLehmann(x[before.From:before.To], x[after.From:after.To])
		dir := "up"
		if sh.Estimate < 0 {
			dir = "down"
		}
		r.Changes = append(r.Changes, Change{
			Index: sp.At, Commit: s.Points[sp.At].Commit, Time: s.Points[sp.At].Time,
			Before: before.Median, After: after.Median, Shift: sh, Percent: percentOf(sh, before.Median),
			Direction: dir, P: sp.P,
		})
	}
	return r
}

// Verdict is the gate's word on a series: whether its newest segment is a
// regression beyond the threshold against the segment before the run of
// upward change points that ends at it (one step, or a creep of several).
type Verdict struct {
	Regressed bool
	Steps     int     // the upward change points the newest segment sits on
	Base      Segment // the segment before them
	Percent   Shift   // the newest segment over Base, in percent of Base's median
	Line      string
}

// Gate judges r's newest segment: a regression when the newest segment
// sits on one or more upward change points in a row and its shift over
// the segment before them is above thresholdPct with an interval that
// excludes no change (its low end above 0).
func Gate(r Result, thresholdPct float64) Verdict {
	n := len(r.Changes)
	if n == 0 || r.Changes[n-1].Direction != "up" {
		return Verdict{Line: fmt.Sprintf("%s: newest segment is no step up", r.Series.Name)}
	}
	k := n - 1
	for k > 0 && r.Changes[k-1].Direction == "up" {
		k--
	}
	x := values(r.Series.Points)
	base, newest := r.Segments[k], r.Segments[n]
	p := percentOf(HodgesLehmann(x[base.From:base.To], x[newest.From:newest.To]), base.Median)
	v := Verdict{Steps: n - k, Base: base, Percent: p, Regressed: p.Estimate > thresholdPct && p.Low > 0}
	word := "within"
	if v.Regressed {
		word = "a regression beyond"
	}
	v.Line = fmt.Sprintf("%s: newest segment (since %s) %+.2f%% [%+.2f, %+.2f] over the segment before %d step(s) up (to %s): %s the %g%% threshold",
		r.Series.Name, short(r.Series.Points[newest.From].Commit), p.Estimate, p.Low, p.High, v.Steps,
		short(r.Series.Points[base.To-1].Commit), word, thresholdPct)
	return v
}

// short is a commit's first 7 digits.
func short(c string) string {
	if len(c) > 7 {
		return c[:7]
	}
	return c
}

// finite reports whether v is a number.
func finite(v float64) bool { return !math.IsNaN(v) && !math.IsInf(v, 0) }

func sqrt(v float64) float64 { return math.Sqrt(v) }
