package history

import (
	"math"
	"sort"
)

// Shift is the Hodges-Lehmann estimate of the shift from a to b (the
// median of every difference b_j - a_i) with its distribution-free
// interval at 95% (Lehmann's, from the Mann-Whitney statistic's normal
// approximation: the k-th smallest and largest differences).
type Shift struct {
	Estimate, Low, High float64
}

// HodgesLehmann is the shift from a to b; zero with an empty side.
func HodgesLehmann(a, b []float64) Shift {
	m, n := len(a), len(b)
	if m == 0 || n == 0 {
		return Shift{}
	}
	d := make([]float64, 0, m*n)
	for _, x := range a {
		for _, y := range b {
			d = append(d, y-x)
		}
	}
	sort.Float64s(d)
	mn := float64(m * n)
	k := int(math.Floor(mn/2 - 1.959964*math.Sqrt(mn*float64(m+n+1)/12)))
	if k < 0 {
		k = 0
	}
	return Shift{Estimate: median(d), Low: d[k], High: d[len(d)-1-k]}
}

// median of sorted values.
func median(s []float64) float64 {
	n := len(s)
	if n == 0 {
		return math.NaN()
	}
	if n%2 == 1 {
		return s[n/2]
	}
	return (s[n/2-1] + s[n/2]) / 2
}

// medianOf any values (copied, not sorted in place).
func medianOf(x []float64) float64 {
	s := append([]float64(nil), x...)
	sort.Float64s(s)
	return median(s)
}

func mean(x []float64) float64 {
	var s float64
	for _, v := range x {
		s += v
	}
	return s / float64(len(x))
}
