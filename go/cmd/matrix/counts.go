package main

import (
	"fmt"
	"math"
	"sort"
)

// The counts of one sync extraction, from `bench --count all -n N --format
// json` on a toolchain's build (the archive sync cell, one launch): the
// "counts" of docs/schema.json. Only the keys the matrix reads are declared;
// tests/schema checks them against the schema like the rest of benchDoc.

type benchCounts struct {
	NShort       *int                `json:"n_short"`
	NLong        *int                `json:"n_long"`
	Extractions  *int                `json:"extractions"`
	Pairs        *int                `json:"pairs"`
	Instructions *benchInstructions  `json:"instructions"`
	Syscalls     *benchSyscallCounts `json:"syscalls"`
}

type benchInstructions struct {
	Tool          string       `json:"tool"`
	PerExtraction *countFigure `json:"per_extraction"`
}

type benchSyscallCounts struct {
	Tool            string             `json:"tool"`
	PerExtraction   *countFigure       `json:"per_extraction"`
	ByName          []benchSyscallName `json:"by_name"`
	ContextSwitches *countFigure       `json:"context_switches"`
	PageFaults      *countFigure       `json:"page_faults"`
}

type benchSyscallName struct {
	Name          string       `json:"name"`
	PerExtraction *countFigure `json:"per_extraction"`
}

// countFigure is a count per extraction: the median of the pairs' values
// with their smallest and largest (null where undefined). The matrix keeps
// the same three numbers in its rows.
type countFigure struct {
	Median *float64 `json:"median"`
	Min    *float64 `json:"min"`
	Max    *float64 `json:"max"`
}

// rowCounts is what a row of the matrix holds of its toolchain's counts;
// null in matrix.json when the toolchain was not counted (-count-n 0, an
// older run, or the count failed).
type rowCounts struct {
	Source      string `json:"source"`
	Cell        string `json:"cell"`
	NShort      *int   `json:"n_short"`
	NLong       *int   `json:"n_long"`
	Extractions *int   `json:"extractions"`
	Pairs       *int   `json:"pairs"`
	// Instructions per extraction (cachegrind): null when not taken.
	Instructions     *countFigure `json:"instructions"`
	InstructionsTool *string      `json:"instructions_tool"`
	// System calls per extraction (perf stat), in all and by name (every
	// name the document gives, largest first): null when not taken.
	Syscalls        *countFigure `json:"syscalls"`
	SyscallsTool    *string      `json:"syscalls_tool"`
	SyscallsByName  []namedCount `json:"syscalls_by_name"`
	ContextSwitches *countFigure `json:"context_switches"`
	PageFaults      *countFigure `json:"page_faults"`
}

type namedCount struct {
	Name string `json:"name"`
	countFigure
}

// counted is one counts document and where it came from.
type counted struct {
	path       string
	goVersion  string
	sdkVersion string
	cell       string
	counts     benchCounts
}

// classify tells a `bench --count` document (one Go cell, with counts) from
// a `bench --compare` one (the four cells) and checks the one it is,
// decoding it once.
func classify(data []byte) (doc *benchDoc, cnt *counted, err error) {
	d, err := decodeDocument(data)
	if err != nil {
		return nil, nil, err
	}
	if len(goCells(d.Cells)) == 1 {
		c, err := parseCounts(d)
		if err != nil {
			return nil, nil, err
		}
		return nil, &c, nil
	}
	if d, err = checkCompare(d); err != nil {
		return nil, nil, err
	}
	return &d, nil, nil
}

func goCells(cells []benchCell) []benchCell {
	var out []benchCell
	for _, c := range cells {
		if c.Lib != "loaded" {
			out = append(out, c)
		}
	}
	return out
}

// parseCounts checks a counts document: schema version 2, one cell, the
// archive sync cell, run sync, with counts.
func parseCounts(d benchDoc) (counted, error) {
	if v := *d.SchemaVersion; v != 2 && v != 3 {
		return counted{}, fmt.Errorf("schema_version %d: counts are in schema_version 2 and 3 documents", *d.SchemaVersion)
	}
	c := goCells(d.Cells)[0]
	if c.Counts == nil {
		return counted{}, fmt.Errorf("one cell (%s) and no counts: neither a bench --compare nor a bench --count document", c.Name)
	}
	if c.Lib != "archive" || c.Mode.Requested != "sync" || c.Mode.InEffect != "sync" {
		return counted{}, fmt.Errorf("counts of %s (ran %s): the matrix counts the archive sync cell", c.Name, c.Mode.InEffect)
	}
	if c.GoVersion == "" {
		return counted{}, fmt.Errorf("cell %s has no go_version", c.Name)
	}
	if c.Counts.Instructions == nil && c.Counts.Syscalls == nil {
		return counted{}, fmt.Errorf("cell %s: neither instructions nor system calls were counted", c.Name)
	}
	return counted{goVersion: c.GoVersion, sdkVersion: c.SDKVersion, cell: c.Name, counts: *c.Counts}, nil
}

// makeCounts is a row's counts from its document.
func makeCounts(c counted) *rowCounts {
	n := c.counts
	rc := &rowCounts{Source: c.path, Cell: c.cell, NShort: n.NShort, NLong: n.NLong,
		Extractions: n.Extractions, Pairs: n.Pairs, SyscallsByName: []namedCount{}}
	if in := n.Instructions; in != nil {
		rc.Instructions, rc.InstructionsTool = orEmpty(in.PerExtraction), strPtr(in.Tool)
	}
	if sc := n.Syscalls; sc != nil {
		rc.Syscalls, rc.SyscallsTool = orEmpty(sc.PerExtraction), strPtr(sc.Tool)
		rc.ContextSwitches, rc.PageFaults = sc.ContextSwitches, sc.PageFaults
		for _, x := range sc.ByName {
			rc.SyscallsByName = append(rc.SyscallsByName, namedCount{Name: x.Name, countFigure: *orEmpty(x.PerExtraction)})
		}
		sort.SliceStable(rc.SyscallsByName, func(i, j int) bool {
			return medianOf(rc.SyscallsByName[i].countFigure) > medianOf(rc.SyscallsByName[j].countFigure)
		})
	}
	return rc
}

func orEmpty(f *countFigure) *countFigure {
	if f == nil {
		return &countFigure{}
	}
	return f
}

func strPtr(s string) *string { return &s }

// medianOf orders undefined medians last.
func medianOf(f countFigure) float64 {
	if f.Median == nil {
		return math.Inf(-1)
	}
	return *f.Median
}

// nameThreshold: a system call by name is shown when it is made at least
// once in a thousand extractions; below that it is start-up or the
// runtime's timers, not the extraction.
const nameThreshold = 0.001

// shownNames are the system calls by name worth printing, largest first.
func (rc *rowCounts) shownNames() []namedCount {
	var out []namedCount
	for _, x := range rc.SyscallsByName {
		if x.Median != nil && math.Abs(*x.Median) >= nameThreshold {
			out = append(out, x)
		}
	}
	return out
}

// attachCounts puts each counts document on the row of its Go version.
func attachCounts(m *matrix, counts []counted) error {
	seen := map[string]string{}
	for _, c := range counts {
		if prev, dup := seen[c.goVersion]; dup {
			return badInput("%s and %s both count %s: one counts document per toolchain", prev, c.path, c.goVersion)
		}
		seen[c.goVersion] = c.path
		var r *row
		for i := range m.Rows {
			if m.Rows[i].GoVersion == c.goVersion {
				r = &m.Rows[i]
			}
		}
		if r == nil {
			return badInput("%s counts %s, but no --compare document of %s was given", c.path, c.goVersion, c.goVersion)
		}
		if c.sdkVersion != r.SDKVersion {
			return badInput("%s counts plugin SDK %s, its row measured %s", c.path, c.sdkVersion, r.SDKVersion)
		}
		r.Counts = makeCounts(c)
	}
	return nil
}
