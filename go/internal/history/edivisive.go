// Package history reads a series of cgocost documents, one or more a
// commit, and finds where each figure changed: E-divisive means
// (Matteson and James, "A Nonparametric Approach for Multiple Change Point
// Analysis of Multivariate Data", JASA 109(505), 2014), the method of
// MongoDB's performance CI (Daly et al., "Change Point Detection in
// Software Performance Testing", ICPE 2020), with a seeded permutation
// test of each candidate. docs/methodology.md, "History across commits",
// says why and what the figures mean.
package history

import (
	"math/rand/v2"
	"sort"
)

// Options of the detection. The zero value is not usable: see Defaults.
type Options struct {
	Permutations int     // shuffles of the permutation test (199)
	Alpha        float64 // a candidate is a change point when its p < Alpha (0.01)
	MinSegment   int     // the fewest points a segment may have (4)
	Seed         uint64  // the permutations' seed: the same input, the same answer
}

// Defaults are the options the command uses.
func Defaults() Options {
	return Options{Permutations: 199, Alpha: 0.01, MinSegment: 4, Seed: 1}
}

// Split is one change point found: the first index of the new segment,
// its statistic and the permutation test's p.
type Split struct {
	At int
	Q  float64
	P  float64
}

// bestSplit is the split of x that maximises the divergence statistic
// (alpha = 1: absolute differences)
//
//	Q(t) = m n / (m + n) * (2/(m n) sum|x_i - y_j| - sum_{i<k}|x_i - x_k| / C(m,2) - sum_{j<k}|y_j - y_k| / C(n,2))
//
// between x[:t] (m points) and x[t:] (n points), over t with both at least
// min points. It returns the t and Q; t < 0 when x is too short. d is a
// scratch buffer of len(x)^2.
func bestSplit(x []float64, min int, d []float64) (int, float64) {
	n := len(x)
	if n < 2*min {
		return -1, 0
	}
	// left[t] = sum_{i<t} |x_i - x_t|, right[t] = sum_{j>t} |x_t - x_j|
	left, right := d[:n], d[n:2*n]
	for i := range left {
		left[i], right[i] = 0, 0
	}
	var within float64 // every pair's distance: the start of Wy
	for i := 0; i < n; i++ {
		for j := i + 1; j < n; j++ {
			v := x[i] - x[j]
			if v < 0 {
				v = -v
			}
			left[j] += v
			right[i] += v
			within += v
		}
	}
	// t = 0: X empty, Y everything
	wx, wy, b := 0.0, within, 0.0
	best, bestQ := -1, 0.0
	for t := 1; t <= n-min; t++ {
		// move x[t-1] from Y to X
		k := t - 1
		wx += left[k]
		wy -= right[k]
		b += right[k] - left[k]
		if t < min {
			continue
		}
		m, r := float64(t), float64(n-t)
		e := 2*b/(m*r) - wx/(m*(m-1)/2) - wy/(r*(r-1)/2)
		q := m * r / (m + r) * e
		if best < 0 || q > bestQ {
			best, bestQ = t, q
		}
	}
	return best, bestQ
}

// test is the permutation test of the best split of x: the share of
// shuffles of x (and x itself) whose best Q reaches x's.
func test(x []float64, opt Options, rng *rand.Rand, d []float64) Split {
	t, q := bestSplit(x, opt.MinSegment, d)
	if t < 0 {
		return Split{At: -1, P: 1}
	}
	y := append([]float64(nil), x...)
	reach := 1 // x itself
	for k := 0; k < opt.Permutations; k++ {
		rng.Shuffle(len(y), func(i, j int) { y[i], y[j] = y[j], y[i] })
		if _, qy := bestSplit(y, opt.MinSegment, d); qy >= q {
			reach++
		}
	}
	return Split{At: t, Q: q, P: float64(reach) / float64(opt.Permutations+1)}
}

// Detect returns the change points of x, in order: recursively, the
// segment (between the change points found so far) whose best split has
// the largest statistic is tested, and its split kept when p < Alpha;
// the search stops at the first candidate that is not significant.
func Detect(x []float64, opt Options) []Split {
	rng := rand.New(rand.NewPCG(opt.Seed, 0x9e3779b97f4a7c15))
	d := make([]float64, 2*len(x))
	bounds := []int{0, len(x)}
	var found []Split
	tested := map[[2]int]Split{} // a segment's test, kept while it stands
	for {
		cand := Split{At: -1}
		for i := 0; i+1 < len(bounds); i++ {
			lo, hi := bounds[i], bounds[i+1]
			s, ok := tested[[2]int{lo, hi}]
			if !ok {
				t, q := bestSplit(x[lo:hi], opt.MinSegment, d)
				s = Split{At: -1}
				if t >= 0 {
					s = Split{At: lo + t, Q: q, P: -1}
				}
				tested[[2]int{lo, hi}] = s
			}
			if s.At >= 0 && (cand.At < 0 || s.Q > cand.Q) {
				cand = s
			}
		}
		if cand.At < 0 {
			break
		}
		i := sort.SearchInts(bounds, cand.At) - 1
		lo, hi := bounds[i], bounds[i+1]
		if cand.P < 0 {
			cand = test(x[lo:hi], opt, rng, d)
			cand.At += lo
			tested[[2]int{lo, hi}] = cand
		}
		if cand.P >= opt.Alpha {
			break
		}
		found = append(found, cand)
		bounds = append(bounds, cand.At)
		sort.Ints(bounds)
	}
	sort.Slice(found, func(i, j int) bool { return found[i].At < found[j].At })
	return found
}
