package main

import (
	"encoding/json"
	"fmt"
	"io"
	"math"
	"sort"
	"strings"
)

// The series of the sweep, in table and legend order.
var seriesNames = []string{"per-field sync", "batched sync", "per-field async", "batched async", "C per-field", "C batched"}

// ratio is batched/per-field of one mode, paired: its estimate and 95%
// interval.
type ratio struct {
	Est, Low, High float64
}

// row is one document of the sweep: one K.
type row struct {
	K        int
	NsEvent  map[string]float64 // by series name: median ns per event over the blocks
	Saving   map[string]ratio   // "sync", "async", "C": batched/per-field, paired
	CPU, Day string             // the machine and when (the documents say neither: filled by the caller)
}

type document struct {
	Options struct {
		PerEvent  int    `json:"per_event"`
		HostCalls string `json:"host_calls"`
	} `json:"options"`
	Paired *struct {
		Cells []struct {
			Name   string     `json:"name"`
			Blocks []*float64 `json:"block_ns_per_extraction"`
		} `json:"cells"`
		Ratios []struct {
			Name     string   `json:"name"`
			Estimate *float64 `json:"estimate"`
			Low      *float64 `json:"low"`
			High     *float64 `json:"high"`
		} `json:"ratios"`
	} `json:"paired"`
}

func val(p *float64) float64 {
	if p == nil {
		return math.NaN()
	}
	return *p
}

func median(x []*float64) float64 {
	var v []float64
	for _, p := range x {
		if p != nil && !math.IsNaN(*p) {
			v = append(v, *p)
		}
	}
	if len(v) == 0 {
		return math.NaN()
	}
	sort.Float64s(v)
	if len(v)%2 == 1 {
		return v[len(v)/2]
	}
	return (v[len(v)/2-1] + v[len(v)/2]) / 2
}

// part is the value of key= in a cell name ("lib=archive/mode=sync/...").
func part(name, key string) string {
	for _, p := range strings.Split(name, "/") {
		if strings.HasPrefix(p, key+"=") {
			return strings.TrimPrefix(p, key+"=")
		}
	}
	return ""
}

// seriesOf names a paired cell's series: the Go mock (archive or shared)
// by host calls and mode, the C plugin (libcmock) by host calls.
func seriesOf(name string) string {
	hc, mode := part(name, "host-calls"), part(name, "mode")
	if hc == "" {
		return ""
	}
	if strings.HasPrefix(part(name, "lib"), "libcmock") {
		return "C " + hc
	}
	return hc + " " + mode
}

// readRow reads one document of bench --per-event K --host-calls both.
func readRow(r io.Reader) (row, error) {
	var d document
	if err := json.NewDecoder(r).Decode(&d); err != nil {
		return row{}, fmt.Errorf("not a bench JSON document: %v", err)
	}
	if d.Options.PerEvent < 1 || d.Options.HostCalls != "both" || d.Paired == nil {
		return row{}, fmt.Errorf("not a paired run of --per-event K --host-calls both (per_event %d, host_calls %q)",
			d.Options.PerEvent, d.Options.HostCalls)
	}
	out := row{K: d.Options.PerEvent, NsEvent: map[string]float64{}, Saving: map[string]ratio{}}
	for _, c := range d.Paired.Cells {
		if s := seriesOf(c.Name); s != "" {
			out.NsEvent[s] = median(c.Blocks)
		}
	}
	for _, x := range d.Paired.Ratios {
		if !strings.HasPrefix(x.Name, "batched/per-field ") {
			continue
		}
		key := "sync"
		switch {
		case strings.Contains(x.Name, " bench-host "):
			key = "C"
		case strings.Contains(x.Name, " async "):
			key = "async"
		}
		out.Saving[key] = ratio{val(x.Estimate), val(x.Low), val(x.High)}
	}
	if len(out.NsEvent) == 0 {
		return row{}, fmt.Errorf("no per-event cells")
	}
	return out, nil
}

// sortRows orders the rows by K; two documents of one K are refused.
func sortRows(rows []row) ([]row, error) {
	sort.Slice(rows, func(i, j int) bool { return rows[i].K < rows[j].K })
	for i := 1; i < len(rows); i++ {
		if rows[i].K == rows[i-1].K {
			return nil, fmt.Errorf("two documents of K = %d", rows[i].K)
		}
	}
	return rows, nil
}

// halvingK is the smallest K whose paired batched/per-field estimate of
// key is at most 0.5, and whether the whole interval is; 0 when none is.
func halvingK(rows []row, key string) (k int, sure bool) {
	for _, r := range rows {
		if s, ok := r.Saving[key]; ok && s.Est <= 0.5 {
			return r.K, s.High <= 0.5
		}
	}
	return 0, false
}

// asyncWins lists the K and host calls at which async cost less per event
// than sync (medians over blocks).
func asyncWins(rows []row) []string {
	var out []string
	for _, r := range rows {
		for _, hc := range []string{"per-field", "batched"} {
			s, a := r.NsEvent[hc+" sync"], r.NsEvent[hc+" async"]
			if s > 0 && a > 0 && a < s {
				out = append(out, fmt.Sprintf("K = %d %s", r.K, hc))
			}
		}
	}
	return out
}

func fmtNs(v float64) string {
	if math.IsNaN(v) || v <= 0 {
		return "n/a"
	}
	return fmt.Sprintf("%.1f", v)
}

func fmtRatio(r ratio, ok bool) string {
	if !ok || math.IsNaN(r.Est) {
		return "n/a"
	}
	if math.IsNaN(r.Low) || math.IsNaN(r.High) {
		return fmt.Sprintf("%.3f", r.Est)
	}
	return fmt.Sprintf("%.3f [%.3f, %.3f]", r.Est, r.Low, r.High)
}

// table is the sweep in Markdown: ns per event of every series, the paired
// saving per mode, then the reading.
func table(rows []row) string {
	var b strings.Builder
	b.WriteString("| K | " + strings.Join(seriesNames, " | ") +
		" | batched/per-field sync | batched/per-field async | batched/per-field C |\n")
	b.WriteString("|---" + strings.Repeat("|---", len(seriesNames)+3) + "|\n")
	for _, r := range rows {
		fmt.Fprintf(&b, "| %d", r.K)
		for _, s := range seriesNames {
			fmt.Fprintf(&b, " | %s", fmtNs(r.NsEvent[s]))
		}
		for _, key := range []string{"sync", "async", "C"} {
			s, ok := r.Saving[key]
			fmt.Fprintf(&b, " | %s", fmtRatio(s, ok))
		}
		b.WriteString(" |\n")
	}
	b.WriteString("\nns per event: median over the paired blocks; batched/per-field: paired estimate [95% interval] over generations.\n")
	for _, key := range []string{"sync", "async", "C"} {
		k, sure := halvingK(rows, key)
		switch {
		case k == 0:
			fmt.Fprintf(&b, "%s: batching never halves the per-event cost in this sweep.\n", key)
		case sure:
			fmt.Fprintf(&b, "%s: batching halves the per-event cost from K = %d (the whole interval at or below 0.5).\n", key, k)
		case math.IsNaN(rows[0].Saving[key].High):
			fmt.Fprintf(&b, "%s: batching halves the per-event cost from K = %d (estimate; too few generations for an interval).\n", key, k)
		default:
			fmt.Fprintf(&b, "%s: batching halves the per-event cost from K = %d (estimate; the interval reaches above 0.5).\n", key, k)
		}
	}
	if w := asyncWins(rows); len(w) > 0 {
		fmt.Fprintf(&b, "async costs less per event than sync at: %s.\n", strings.Join(w, ", "))
	} else {
		b.WriteString("async never costs less per event than sync in this sweep.\n")
	}
	return b.String()
}
