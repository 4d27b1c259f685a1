package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"strings"
)

// The document `bench --compare --interleave launches --format json` prints
// (schema_version 1, or 2 and 3 with the paired section, which this program does
// not read),
// described in docs/schema.json and docs/schema.md. Only the keys the matrix
// reads are declared here; tests/schema checks that each of them is in the
// schema at the same path, with a type that holds every value the schema
// allows (a pointer wherever it may be null, i.e. undefined).

type benchDoc struct {
	SchemaVersion *int         `json:"schema_version"`
	Machine       benchMachine `json:"machine"`
	Options       benchOptions `json:"options"`
	Cells         []benchCell  `json:"cells"`
	Ratios        []benchRatio `json:"ratios"`
}

type benchMachine struct {
	CPUModel    string `json:"cpu_model"`
	OnlineCPUs  *int   `json:"online_cpus"`
	AllowedCPUs *int   `json:"allowed_cpus"`
	Kernel      string `json:"kernel"`
	Arch        string `json:"arch"`
}

type benchOptions struct {
	N        *int   `json:"n"`
	Plugins  *int   `json:"plugins"`
	Work     string `json:"work"`
	Launches *int   `json:"launches"`
}

type benchCell struct {
	Name       string      `json:"name"`
	Lib        string      `json:"lib"`
	GoVersion  string      `json:"go_version"`
	SDKVersion string      `json:"sdk_version"`
	GOMAXPROCS *int        `json:"gomaxprocs"`
	Mode       benchMode   `json:"mode"`
	Statistics *benchStats `json:"statistics"`
	ColdNs     *float64    `json:"cold_ns_median"`
	Stalled    *int        `json:"stalled_batches"`
	Batches    *int        `json:"batches"`
	Floors     *benchFloor `json:"floors"`
	// Only in a `bench --count` document (counts.go); null elsewhere.
	Counts *benchCounts `json:"counts"`
}

type benchMode struct {
	Requested string  `json:"requested"`
	InEffect  string  `json:"in_effect"`
	Verified  bool    `json:"verified"`
	Reason    *string `json:"reason"`
}

type benchStats struct {
	Unit string `json:"unit"`
	N    *int   `json:"n"`
	interval
}

// interval is a median with its interval, as the driver's statistics and
// this program's rows both carry it (null where undefined).
type interval struct {
	Median  *float64 `json:"median"`
	CILow   *float64 `json:"ci_low"`
	CIHigh  *float64 `json:"ci_high"`
	CILevel *float64 `json:"ci_level"`
}

type benchFloor struct {
	CCallNs     *float64 `json:"c_call_ns"`
	GoRawNs     *float64 `json:"go_raw_ns"`
	GoRawColdNs *float64 `json:"go_raw_cold_ns"`
	HandoffNs   *float64 `json:"handoff_ns"`
	HandoffCPUs []int    `json:"handoff_cpus"`
}

type benchRatio struct {
	Name        string      `json:"name"`
	Numerator   string      `json:"numerator"`
	Denominator string      `json:"denominator"`
	Metric      string      `json:"metric"`
	Statistics  *benchStats `json:"statistics"`
}

// loaded is one document and where it came from.
type loaded struct {
	path string
	doc  benchDoc
}

// maxDocBytes bounds what a document may weigh: a --compare document with a
// few dozen launches is well under a megabyte.
const maxDocBytes = 64 << 20

// loadDocument reads one document: a bench --compare document (doc) or a
// bench --count one (cnt), told apart by their cells.
func loadDocument(path string) (doc *loaded, cnt *counted, err error) {
	fi, err := os.Stat(path)
	if err != nil {
		return nil, nil, badInput("%s: %v", path, errUnwrapPath(err))
	}
	if fi.Size() > maxDocBytes {
		return nil, nil, badInput("%s: %d bytes, more than a bench document can be", path, fi.Size())
	}
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, nil, badInput("%s: %v", path, errUnwrapPath(err))
	}
	d, c, err := classify(data)
	if err != nil {
		return nil, nil, badInput("%s: %v", path, err)
	}
	if c != nil {
		c.path = path
		return nil, c, nil
	}
	return &loaded{path: path, doc: *d}, nil, nil
}

func errUnwrapPath(err error) error {
	if pe, ok := err.(*os.PathError); ok {
		return pe.Err
	}
	return err
}

// The four cells of a comparison, in table order.
var cellKeys = []cellKey{
	{"archive", "sync"}, {"archive", "async"}, {"shared", "sync"}, {"shared", "async"},
}

type cellKey struct{ lib, mode string }

func (k cellKey) String() string { return "lib=" + k.lib + "/mode=" + k.mode }

// decodeDocument decodes one bench document: exactly one JSON value, with
// a schema version.
func decodeDocument(data []byte) (benchDoc, error) {
	var d benchDoc
	dec := json.NewDecoder(bytes.NewReader(data))
	if err := dec.Decode(&d); err != nil {
		return d, fmt.Errorf("not a bench JSON document: %v", err)
	}
	if dec.More() {
		return d, fmt.Errorf("more than one JSON value")
	}
	if d.SchemaVersion == nil {
		return d, fmt.Errorf("no schema_version: not a bench JSON document")
	}
	return d, nil
}

// parseDocument decodes and checks one --compare document.
func parseDocument(data []byte) (benchDoc, error) {
	d, err := decodeDocument(data)
	if err != nil {
		return d, err
	}
	return checkCompare(d)
}

// checkCompare checks a decoded --compare document: the schema version,
// the four cells, one Go version and one SDK version throughout.
func checkCompare(d benchDoc) (benchDoc, error) {
	if v := *d.SchemaVersion; v < 1 || v > 3 {
		return d, fmt.Errorf("schema_version %d, this program reads 1 to 3", *d.SchemaVersion)
	}
	// --compare also measures the C plugin in bench-host (lib "loaded", no
	// Go runtime) and, paired, its harness check (bench --work bare beside
	// the textbook loop): references of their own, not cells of a toolchain.
	d.Cells = goCells(ownWork(d.Cells, d.Options.Work))
	seen := map[cellKey]bool{}
	for i, c := range d.Cells {
		k := cellKey{c.Lib, c.Mode.Requested}
		if c.Lib != "archive" && c.Lib != "shared" {
			return d, fmt.Errorf("cell %d (%s): lib %q, want archive or shared", i, c.Name, c.Lib)
		}
		if k.mode != "sync" && k.mode != "async" {
			return d, fmt.Errorf("cell %d (%s): requested mode %q, want sync or async", i, c.Name, k.mode)
		}
		if c.Mode.InEffect != "sync" && c.Mode.InEffect != "async" {
			return d, fmt.Errorf("cell %d (%s): mode in effect %q, want sync or async", i, c.Name, c.Mode.InEffect)
		}
		if seen[k] {
			return d, fmt.Errorf("two cells for %s", k)
		}
		seen[k] = true
		if c.GoVersion == "" {
			return d, fmt.Errorf("cell %s has no go_version", k)
		}
		if c.GoVersion != d.Cells[0].GoVersion {
			return d, fmt.Errorf("cells built by different Go versions (%s, %s)", d.Cells[0].GoVersion, c.GoVersion)
		}
		if c.SDKVersion != d.Cells[0].SDKVersion {
			return d, fmt.Errorf("cells built with different SDK versions (%s, %s)", d.Cells[0].SDKVersion, c.SDKVersion)
		}
		if c.Statistics != nil && c.Statistics.Unit != "" && c.Statistics.Unit != "ns/extraction" {
			return d, fmt.Errorf("cell %s: unit %q, want ns/extraction", k, c.Statistics.Unit)
		}
	}
	for _, k := range cellKeys {
		if !seen[k] {
			return d, fmt.Errorf("no cell for %s: not a --compare document", k)
		}
	}
	return d, nil
}

// ownWork keeps the cells of the run's own --work measured by bench
// itself: not a /driver= cell (the textbook loop), nor one of another work.
func ownWork(cells []benchCell, work string) []benchCell {
	var out []benchCell
	for _, c := range cells {
		if !strings.Contains(c.Name, "/driver=") && (work == "" || strings.Contains(c.Name, "/work="+work+"/")) {
			out = append(out, c)
		}
	}
	return out
}

// cell returns the document's cell for k; checkCompare made sure it exists.
func (d *benchDoc) cell(k cellKey) *benchCell {
	for i := range d.Cells {
		if d.Cells[i].Lib == k.lib && d.Cells[i].Mode.Requested == k.mode {
			return &d.Cells[i]
		}
	}
	return nil
}

func (d *benchDoc) cellByName(name string) *benchCell {
	for i := range d.Cells {
		if d.Cells[i].Name == name {
			return &d.Cells[i]
		}
	}
	return nil
}
