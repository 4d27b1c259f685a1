package main

import (
	"fmt"
	"sort"
	"strconv"
	"strings"
)

// matrix is what the report prints, writes as build/matrix.json and draws:
// one row per Go toolchain.
type matrix struct {
	SchemaVersion int          `json:"schema_version"`
	Generator     string       `json:"generator"`
	Unit          string       `json:"unit"`
	Interval      string       `json:"interval"`
	SDKVersion    string       `json:"sdk_version"`
	Machine       benchMachine `json:"machine"`
	Rows          []row        `json:"rows"`
	Skipped       []skip       `json:"skipped"`
}

// skip is a toolchain that could not be had, and why.
type skip struct {
	Toolchain string `json:"toolchain"`
	Reason    string `json:"reason"`
}

type row struct {
	GoVersion  string `json:"go_version"`
	SDKVersion string `json:"sdk_version"`
	Source     string `json:"source"`
	Launches   *int   `json:"launches"`
	N          *int   `json:"n"`
	Work       string `json:"work"`
	Plugins    *int   `json:"plugins"`
	GOMAXPROCS *int   `json:"gomaxprocs"`
	// Cells in the order of cellKeys.
	Cells []rowCell `json:"cells"`
	// The raw //export no-op crossing and its first call on a new C thread,
	// from the archive sync cell's floors.
	RawCrossingNs     *float64   `json:"raw_crossing_ns"`
	RawCrossingColdNs *float64   `json:"raw_crossing_cold_ns"`
	CCallNs           *float64   `json:"c_call_ns"`
	HandoffNs         *float64   `json:"handoff_ns"`
	HandoffCPUs       []int      `json:"handoff_cpus"`
	Ratios            []rowRatio `json:"ratios"`
	// Notes say what a reader must know about this row: a mode not in
	// effect, a mode not verified.
	Notes []string `json:"notes"`
	// Instructions and system calls per sync extraction (counts.go); null
	// when the toolchain was not counted.
	Counts *rowCounts `json:"counts"`
}

type rowCell struct {
	Name      string  `json:"name"`
	Lib       string  `json:"lib"`
	Requested string  `json:"requested"`
	InEffect  string  `json:"in_effect"`
	Verified  bool    `json:"verified"`
	Reason    *string `json:"reason"`
	interval
	Samples *int     `json:"samples"`
	ColdNs  *float64 `json:"cold_ns_median"`
	Stalled *int     `json:"stalled_batches"`
	Batches *int     `json:"batches"`
}

// honest tells whether the cell ran in the mode it stands for.
func (c rowCell) honest() bool { return c.InEffect == c.Requested }

// rowRatio is one of the document's ratios. Kind is "async/sync" (Fixed
// names the library) or "shared/archive" (Fixed names the mode); Metric is
// "wall" or "cpu". A ratio whose cells did not run in the mode they stand
// for has null statistics and a Note.
type rowRatio struct {
	Name        string `json:"name"`
	Kind        string `json:"kind"`
	Fixed       string `json:"fixed"`
	Metric      string `json:"metric"`
	Numerator   string `json:"numerator"`
	Denominator string `json:"denominator"`
	interval
	Note *string `json:"note"`
}

func (r *row) cell(k cellKey) *rowCell {
	for i := range r.Cells {
		if r.Cells[i].Lib == k.lib && r.Cells[i].Requested == k.mode {
			return &r.Cells[i]
		}
	}
	return nil
}

func (r *row) ratio(kind, fixed, metric string) *rowRatio {
	for i := range r.Ratios {
		x := &r.Ratios[i]
		if x.Kind == kind && x.Fixed == fixed && x.Metric == metric {
			return x
		}
	}
	return nil
}

func buildMatrix(docs []loaded, counts []counted, skipped []skip) (*matrix, error) {
	m := &matrix{
		SchemaVersion: 1,
		Generator:     "cgocost matrix",
		Unit:          "ns/extraction",
		Interval:      "distribution-free interval of the median across launches (level per value in ci_level)",
		Rows:          []row{},
		Skipped:       skipped,
	}
	if m.Skipped == nil {
		m.Skipped = []skip{}
	}
	byVersion := map[string]string{}
	for _, l := range docs {
		r := makeRow(l)
		if prev, dup := byVersion[r.GoVersion]; dup {
			return nil, badInput("%s and %s were both built by %s: one document per toolchain", prev, l.path, r.GoVersion)
		}
		byVersion[r.GoVersion] = l.path
		if m.SDKVersion == "" {
			m.SDKVersion = r.SDKVersion
			m.Machine = l.doc.Machine
		} else if r.SDKVersion != m.SDKVersion {
			return nil, badInput("%s uses plugin SDK %s, another document %s: every toolchain must measure the same SDK",
				l.path, r.SDKVersion, m.SDKVersion)
		}
		m.Rows = append(m.Rows, r)
	}
	sort.SliceStable(m.Rows, func(i, j int) bool {
		return versionLess(m.Rows[i].GoVersion, m.Rows[j].GoVersion)
	})
	if err := attachCounts(m, counts); err != nil {
		return nil, err
	}
	return m, nil
}

func makeRow(l loaded) row {
	d := &l.doc
	first := d.cell(cellKeys[0])
	r := row{
		GoVersion:  first.GoVersion,
		SDKVersion: first.SDKVersion,
		Source:     l.path,
		Launches:   d.Options.Launches,
		N:          d.Options.N,
		Work:       d.Options.Work,
		Plugins:    d.Options.Plugins,
		GOMAXPROCS: first.GOMAXPROCS,
		Notes:      []string{},
		Ratios:     []rowRatio{},
	}
	for _, k := range cellKeys {
		c := d.cell(k)
		rc := rowCell{
			Name: c.Name, Lib: c.Lib, Requested: c.Mode.Requested, InEffect: c.Mode.InEffect,
			Verified: c.Mode.Verified, Reason: c.Mode.Reason,
			ColdNs: c.ColdNs, Stalled: c.Stalled, Batches: c.Batches,
		}
		if s := c.Statistics; s != nil {
			rc.interval, rc.Samples = s.interval, s.N
		}
		if !rc.honest() {
			why := "no reason given"
			if c.Mode.Reason != nil && *c.Mode.Reason != "" {
				why = *c.Mode.Reason
			}
			r.Notes = append(r.Notes, fmt.Sprintf("%s: %s requested, ran %s: %s", k, rc.Requested, rc.InEffect, why))
		} else if !rc.Verified {
			r.Notes = append(r.Notes, fmt.Sprintf("%s: the mode in effect was not verified", k))
		}
		r.Cells = append(r.Cells, rc)
	}
	// Floors: the archive sync cell's, or else the first cell that has each.
	for _, k := range cellKeys {
		f := d.cell(k).Floors
		if f == nil {
			continue
		}
		fill(&r.RawCrossingNs, f.GoRawNs)
		fill(&r.RawCrossingColdNs, f.GoRawColdNs)
		fill(&r.CCallNs, f.CCallNs)
		if r.HandoffNs == nil && f.HandoffNs != nil {
			r.HandoffNs = f.HandoffNs
			r.HandoffCPUs = f.HandoffCPUs
		}
	}
	for _, x := range d.Ratios {
		r.Ratios = append(r.Ratios, makeRatio(d, x))
	}
	return r
}

func fill(dst **float64, v *float64) {
	if *dst == nil && v != nil {
		*dst = v
	}
}

// makeRatio classifies a ratio by its cells and drops its statistics when
// a cell did not run in the mode it stands for: the ratio of two sync runs
// must not be printed as async/sync.
func makeRatio(d *benchDoc, x benchRatio) rowRatio {
	rr := rowRatio{Name: x.Name, Metric: x.Metric, Numerator: x.Numerator, Denominator: x.Denominator}
	num, den := d.cellByName(x.Numerator), d.cellByName(x.Denominator)
	if num == nil || den == nil {
		note := "a cell it names is not in the document"
		rr.Note = &note
		return rr
	}
	switch {
	case num.Lib == den.Lib && num.Mode.Requested == "async" && den.Mode.Requested == "sync":
		rr.Kind, rr.Fixed = "async/sync", num.Lib
	case num.Mode.Requested == den.Mode.Requested && num.Lib == "shared" && den.Lib == "archive":
		rr.Kind, rr.Fixed = "shared/archive", num.Mode.Requested
	}
	for _, c := range []*benchCell{num, den} {
		if c.Mode.InEffect != c.Mode.Requested {
			note := fmt.Sprintf("undefined: %s ran %s", c.Name, c.Mode.InEffect)
			rr.Note = &note
			return rr
		}
	}
	if s := x.Statistics; s != nil {
		rr.interval = s.interval
	}
	return rr
}

// versionLess orders go1.9 < go1.19.8 < go1.27.3; anything that is not a
// go1.N version comes last, by name.
func versionLess(a, b string) bool {
	va, oka := parseGoVersion(a)
	vb, okb := parseGoVersion(b)
	if oka != okb {
		return oka
	}
	if !oka {
		return a < b
	}
	for i := 0; i < 3; i++ {
		if va[i] != vb[i] {
			return va[i] < vb[i]
		}
	}
	return a < b
}

// parseGoVersion reads go1.N[.P]; a pre-release (go1.21rc2) sorts before
// its first release (go1.21.0).
func parseGoVersion(s string) ([3]int, bool) {
	var v [3]int
	rest, ok := strings.CutPrefix(s, "go")
	if !ok {
		return v, false
	}
	parts := strings.SplitN(rest, ".", 3)
	if len(parts) < 2 {
		return v, false
	}
	for i, p := range parts {
		end := 0
		for end < len(p) && p[end] >= '0' && p[end] <= '9' {
			end++
		}
		n, err := strconv.Atoi(p[:end])
		if err != nil {
			return v, false
		}
		v[i] = n
		if end < len(p) {
			if i == 1 && len(parts) == 2 {
				v[2] = -1 // go1.21rc2, go1.21beta1
			}
			break
		}
	}
	return v, true
}
