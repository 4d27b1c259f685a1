package main

import (
	"math"

	"golang.org/x/perf/benchmath"
)

// The statistics are benchstat's: the median with its distribution-free
// 95% interval, and the Mann–Whitney U test between two samples.
const (
	confidence = 0.95
	alpha      = 0.05
)

var thresholds = benchmath.DefaultThresholds

type estimate struct {
	center, lo, hi float64
	n              int
}

// defined reports whether the interval exists (benchmath needs at least 6
// samples for a 95% interval of the median).
func (e estimate) defined() bool {
	return e.n > 0 && !math.IsInf(e.lo, 0) && !math.IsInf(e.hi, 0)
}

// noise is the larger relative distance from the median to a bound of its
// interval, as benchstat prints it (±x%); NaN when undefined.
func (e estimate) noise() float64 {
	if !e.defined() || e.center == 0 {
		return math.NaN()
	}
	return math.Max(e.hi/e.center-1, 1-e.lo/e.center)
}

func summarize(values []float64) estimate {
	if len(values) == 0 {
		return estimate{center: math.NaN(), lo: math.NaN(), hi: math.NaN()}
	}
	s := benchmath.AssumeNothing.Summary(benchmath.NewSample(values, &thresholds), confidence)
	return estimate{center: s.Center, lo: s.Lo, hi: s.Hi, n: len(values)}
}

// ratio compares a sample with a base sample: the ratio of the medians, a
// conservative interval from the bounds of the two medians' intervals, and
// the p-value of the U test.
type ratio struct {
	value, lo, hi, p float64
}

func compare(values, base []float64) ratio {
	v, b := summarize(values), summarize(base)
	r := ratio{value: v.center / b.center, lo: math.NaN(), hi: math.NaN(), p: math.NaN()}
	if v.defined() && b.defined() {
		r.lo, r.hi = v.lo/b.hi, v.hi/b.lo
	}
	if len(values) > 0 && len(base) > 0 {
		c := benchmath.AssumeNothing.Compare(benchmath.NewSample(base, &thresholds), benchmath.NewSample(values, &thresholds))
		r.p = c.P
	}
	return r
}

// verdict has two gates: the U test is significant and the whole interval
// lies on one side of 1.
func (r ratio) verdict() string {
	switch {
	case math.IsNaN(r.p) || math.IsNaN(r.lo):
		return "undefined"
	case r.p < alpha && r.lo > 1:
		return "higher"
	case r.p < alpha && r.hi < 1:
		return "lower"
	default:
		return "no difference"
	}
}
