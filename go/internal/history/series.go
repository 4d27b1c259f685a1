package history

import (
	"fmt"
	"sort"
	"strings"
)

// Build makes one series a figure from runs ordered by commit time: the
// counts and the paired ratios across every run that has them, and a
// cell's absolute median only across runs whose machine key (the cell's
// key: CPU, kernel, Go, options) is the same, one series a key
// ("median <cell> [machine 2]" for a second key).
func Build(runs []Run) []Series {
	byName := map[string]*Series{}
	var order []string
	keyIndex := map[string]map[string]int{} // figure -> key -> 1, 2, ...
	for _, r := range runs {
		names := make([]string, 0, len(r.Figures))
		for n := range r.Figures {
			names = append(names, n)
		}
		sort.Strings(names)
		for _, n := range names {
			sname := n
			if k, ok := r.Keys[n]; ok {
				if keyIndex[n] == nil {
					keyIndex[n] = map[string]int{}
				}
				idx, ok := keyIndex[n][k]
				if !ok {
					idx = len(keyIndex[n]) + 1
					keyIndex[n][k] = idx
				}
				if idx > 1 {
					sname = fmt.Sprintf("%s [machine %d]", n, idx)
				}
			}
			s, ok := byName[sname]
			if !ok {
				s = &Series{Name: sname, Unit: r.Units[n]}
				byName[sname] = s
				order = append(order, sname)
			}
			s.Points = append(s.Points, Point{Commit: r.Commit, Time: r.Time, Value: r.Figures[n]})
		}
	}
	sort.SliceStable(order, func(i, j int) bool {
		return rank(order[i]) < rank(order[j]) || rank(order[i]) == rank(order[j]) && order[i] < order[j]
	})
	out := make([]Series, 0, len(order))
	for _, n := range order {
		out = append(out, *byName[n])
	}
	return out
}

// rank orders the kinds of series: counts first (they move least), then
// ratios, then absolute medians.
func rank(name string) int {
	for i, p := range []string{"instructions ", "syscalls ", "ratio ", "median "} {
		if strings.HasPrefix(name, p) {
			return i
		}
	}
	return 4
}
