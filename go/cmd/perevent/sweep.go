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
	K       int
	Work    string             // --work: a json row is the realistic field, the others the sweep
	Payload int                // --payload-size: the json document's bytes
	NsEvent map[string]float64 // by series name: median ns per event over the blocks
	Saving  map[string]ratio   // "sync", "async", "C": batched/per-field, paired
}

type document struct {
	Options struct {
		PerEvent    int    `json:"per_event"`
		HostCalls   string `json:"host_calls"`
		Work        string `json:"work"`
		PayloadSize int    `json:"payload_size"`
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
	out := row{K: d.Options.PerEvent, Work: d.Options.Work, Payload: d.Options.PayloadSize,
		NsEvent: map[string]float64{}, Saving: map[string]ratio{}}
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

// sortRows orders the rows: the sweep by K, then the json rows by payload
// size; two documents of one K (or one json size) are refused.
func sortRows(rows []row) ([]row, error) {
	sort.Slice(rows, func(i, j int) bool {
		a, b := rows[i], rows[j]
		if (a.Work == "json") != (b.Work == "json") {
			return b.Work == "json"
		}
		if a.Work == "json" {
			return a.Payload < b.Payload
		}
		return a.K < b.K
	})
	for i := 1; i < len(rows); i++ {
		a, b := rows[i-1], rows[i]
		if a.Work == "json" && b.Work == "json" && a.Payload == b.Payload {
			return nil, fmt.Errorf("two json documents of %d bytes", a.Payload)
		}
		if a.Work != "json" && b.Work != "json" && a.K == b.K {
			return nil, fmt.Errorf("two documents of K = %d", a.K)
		}
	}
	return rows, nil
}

// split returns the K sweep and the json rows.
func split(rows []row) (sweep, js []row) {
	for _, r := range rows {
		if r.Work == "json" {
			js = append(js, r)
		} else {
			sweep = append(sweep, r)
		}
	}
	return sweep, js
}

// The series a json row is read in: one call of one field (batched at
// K = 1, the per-field loop's own cost left out).
var jsonSeries = []struct{ name, label string }{
	{"batched sync", "Go sync"}, {"batched async", "Go async"}, {"C batched", "C"},
}

// crossingShare is, for one series, what a field that does nothing but
// return a value (the sweep's K = 1 row) costs over what the json field
// costs: the share of the json field's cost that is the crossing. NaN when
// either is missing.
func crossingShare(base, js row, series string) float64 {
	b, j := base.NsEvent[series], js.NsEvent[series]
	if !(b > 0) || !(j > 0) || js.K != 1 {
		return math.NaN()
	}
	return b / j
}

// jsonTable is the realistic field at each payload size beside the K = 1
// row of the sweep.
func jsonTable(sweep, js []row) string {
	var base row
	for _, r := range sweep {
		if r.K == 1 {
			base = r
		}
	}
	var b strings.Builder
	b.WriteString("\n| field, K = 1 |")
	for _, s := range jsonSeries {
		fmt.Fprintf(&b, " %s ns | crossing's share |", s.label)
	}
	b.WriteString("\n|---" + strings.Repeat("|---|---", len(jsonSeries)) + "|\n")
	if base.NsEvent != nil {
		fmt.Fprintf(&b, "| %s (no work) |", base.Work)
		for _, s := range jsonSeries {
			fmt.Fprintf(&b, " %s | 100%% |", fmtNs(base.NsEvent[s.name]))
		}
		b.WriteString("\n")
	}
	for _, r := range js {
		fmt.Fprintf(&b, "| json, %d-byte document |", r.Payload)
		for _, s := range jsonSeries {
			share := "n/a"
			if v := crossingShare(base, r, s.name); !math.IsNaN(v) {
				share = fmt.Sprintf("%.1f%%", 100*v)
			}
			fmt.Fprintf(&b, " %s | %s |", fmtNs(r.NsEvent[s.name]), share)
		}
		b.WriteString("\n")
	}
	b.WriteString("\ncrossing's share: the K = 1 field that only returns a value over the json field, same library and mode (medians of separate paired runs).\n")
	return b.String()
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
// saving per mode, then the reading; then the json field, if measured.
func table(all []row) string {
	var b strings.Builder
	rows, js := split(all)
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
	if len(js) > 0 {
		b.WriteString(jsonTable(rows, js))
	}
	return b.String()
}
