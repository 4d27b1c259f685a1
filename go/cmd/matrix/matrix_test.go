package main

import (
	"bytes"
	"encoding/json"
	"encoding/xml"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

var fixtures = []string{"testdata/go1.27.3.json", "testdata/go1.19.8.json", "testdata/go1.26.8.json"}

// runMain runs the program as a user would and returns its exit status and
// outputs.
func runMain(t *testing.T, args ...string) (int, string, string) {
	t.Helper()
	var so, se bytes.Buffer
	code := realMain(args, &so, &se)
	return code, so.String(), se.String()
}

// matrixFile is the part of build/matrix.json the tests read.
type matrixFile struct {
	SchemaVersion int    `json:"schema_version"`
	SDKVersion    string `json:"sdk_version"`
	Rows          []struct {
		GoVersion string `json:"go_version"`
		Cells     []struct {
			Lib       string   `json:"lib"`
			Requested string   `json:"requested"`
			InEffect  string   `json:"in_effect"`
			Median    *float64 `json:"median"`
			CILow     *float64 `json:"ci_low"`
		} `json:"cells"`
		RawCrossingNs *float64 `json:"raw_crossing_ns"`
		HandoffNs     *float64 `json:"handoff_ns"`
		Ratios        []struct {
			Kind   string   `json:"kind"`
			Fixed  string   `json:"fixed"`
			Metric string   `json:"metric"`
			Median *float64 `json:"median"`
			Note   *string  `json:"note"`
		} `json:"ratios"`
	} `json:"rows"`
}

func readMatrix(t *testing.T, path string) (matrixFile, []byte) {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var m matrixFile
	if err := json.Unmarshal(data, &m); err != nil {
		t.Fatalf("%s is not JSON: %v", path, err)
	}
	return m, data
}

func TestReportWritesOneRowPerToolchain(t *testing.T) {
	out := t.TempDir()
	code, stdout, stderr := runMain(t, append([]string{"report", "-out", out}, fixtures...)...)
	if code != 0 {
		t.Fatalf("exit %d, stderr %q", code, stderr)
	}
	m, raw := readMatrix(t, filepath.Join(out, "matrix.json"))
	var got []string
	for _, r := range m.Rows {
		got = append(got, r.GoVersion)
	}
	// One row per document, in Go version order whatever the argument order.
	if strings.Join(got, " ") != "go1.19.8 go1.26.8 go1.27.3" {
		t.Fatalf("rows %v, want go1.19.8 go1.26.8 go1.27.3", got)
	}
	if m.SchemaVersion != 1 || m.SDKVersion != "v0.8.3" {
		t.Errorf("schema_version %d, sdk_version %q", m.SchemaVersion, m.SDKVersion)
	}
	r := m.Rows[1]
	if len(r.Cells) != 4 || r.Cells[0].Lib != "archive" || r.Cells[0].Requested != "sync" ||
		r.Cells[0].Median == nil || *r.Cells[0].Median != 68.1 {
		t.Errorf("go1.26.8 cells %+v, want archive sync first with median 68.1", r.Cells)
	}
	if r.RawCrossingNs == nil || *r.RawCrossingNs != 45.9 || r.HandoffNs == nil || *r.HandoffNs != 91.4 {
		t.Errorf("go1.26.8 floors: raw %v handoff %v, want the archive sync cell's 45.9 and 91.4", r.RawCrossingNs, r.HandoffNs)
	}
	// Undefined stays null: no handoff floor, an interval that is not there.
	if m.Rows[2].HandoffNs != nil {
		t.Errorf("go1.27.3 handoff %v, want null", *m.Rows[2].HandoffNs)
	}
	if m.Rows[2].Cells[3].CILow != nil {
		t.Errorf("go1.27.3 shared async ci_low %v, want null", *m.Rows[2].Cells[3].CILow)
	}
	if !bytes.Contains(raw, []byte(`"handoff_ns": null`)) {
		t.Error("matrix.json does not write an undefined handoff floor as null")
	}
	for _, v := range []string{"go1.19.8", "go1.26.8", "go1.27.3"} {
		if !strings.Contains(stdout, "\n"+v+" ") {
			t.Errorf("table has no row for %s:\n%s", v, stdout)
		}
	}
	if !strings.Contains(stdout, "68.1 [68.0, 68.4]") || !strings.Contains(stdout, "3.55 [3.47, 3.66]") {
		t.Errorf("table does not show the go1.26.8 archive sync cell or its async/sync ratio:\n%s", stdout)
	}
	entries, _ := os.ReadDir(out)
	for _, e := range entries {
		if e.Name() != "matrix.json" && e.Name() != "matrix.svg" {
			t.Errorf("left %s behind in the output directory", e.Name())
		}
	}
}

func TestChartIsWellFormedSVG(t *testing.T) {
	out := t.TempDir()
	if code, _, stderr := runMain(t, append([]string{"report", "-out", out}, fixtures...)...); code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	f, err := os.Open(filepath.Join(out, "matrix.svg"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	dec := xml.NewDecoder(f)
	var root string
	var text strings.Builder
	depth := 0
	for {
		tok, err := dec.Token()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatalf("matrix.svg is not well-formed XML: %v", err)
		}
		switch tk := tok.(type) {
		case xml.StartElement:
			if depth == 0 {
				if root != "" {
					t.Fatalf("second root element <%s>", tk.Name.Local)
				}
				root = tk.Name.Local
			}
			depth++
		case xml.EndElement:
			depth--
		case xml.CharData:
			text.Write(tk)
		}
	}
	if root != "svg" || depth != 0 {
		t.Fatalf("root element <%s>, depth at end %d; want one <svg>", root, depth)
	}
	// What a reader needs: every Go version, the axis title, the legend.
	for _, want := range []string{"go1.19.8", "go1.26.8", "go1.27.3", "ns per extraction (log scale)",
		"handoff floor", "archive async"} {
		if !strings.Contains(text.String(), want) {
			t.Errorf("matrix.svg has no text %q", want)
		}
	}
}

// A cell that asked for async but ran sync must never read as async.
func TestAsyncNotInEffectIsShownAndHasNoRatio(t *testing.T) {
	out := t.TempDir()
	code, stdout, stderr := runMain(t, "report", "-out", out, "testdata/async-not-in-effect.json")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	lines := strings.Split(stdout, "\n")
	var row string
	for _, l := range lines {
		if strings.HasPrefix(l, "go1.26.8 ") {
			row = l
		}
	}
	if strings.Count(row, "ran sync:") < 2 {
		t.Errorf("row does not mark both async cells as ran sync: %q", row)
	}
	if !strings.Contains(stdout, "GOMAXPROCS=1 < 2") {
		t.Errorf("table does not say why async was not in effect:\n%s", stdout)
	}
	m, _ := readMatrix(t, filepath.Join(out, "matrix.json"))
	for _, x := range m.Rows[0].Ratios {
		undefined := x.Kind == "async/sync" || (x.Kind == "shared/archive" && x.Fixed == "async")
		if undefined && (x.Median != nil || x.Note == nil) {
			t.Errorf("ratio %s %s %s = %v, want null with a note", x.Kind, x.Fixed, x.Metric, x.Median)
		}
		if !undefined && x.Median == nil {
			t.Errorf("ratio %s %s %s lost its value", x.Kind, x.Fixed, x.Metric)
		}
	}
	if c := m.Rows[0].Cells[1]; c.Requested != "async" || c.InEffect != "sync" {
		t.Errorf("archive async cell %+v, want requested async, in effect sync", c)
	}
}

func TestBadInputExitsTwoWithOneLine(t *testing.T) {
	dir := t.TempDir()
	fixture, err := os.ReadFile("testdata/go1.26.8.json")
	if err != nil {
		t.Fatal(err)
	}
	write := func(name, s string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(s), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	edit := func(name, old, new string) string {
		if !bytes.Contains(fixture, []byte(old)) {
			t.Fatalf("fixture has no %q", old)
		}
		return write(name, strings.Replace(string(fixture), old, new, 1))
	}
	cases := map[string][]string{
		"no command":      {},
		"unknown command": {"plot"},
		"no document":     {"report"},
		"missing file":    {"report", filepath.Join(dir, "absent.json")},
		"not JSON":        {"report", write("text.json", "plugin 1: 68.1 ns/extraction\n")},
		"schema 4":        {"report", edit("v4.json", `"schema_version":1`, `"schema_version":4`)},
		"a cell missing":  {"report", edit("three.json", `"lib":"shared","executable":"/abs/build/bench-shared",`+"\n"+`   "go_version":"go1.26.8","sdk_version":"v0.8.3","gomaxprocs":2,"max_handle":255,`+"\n"+`   "mode":{"requested":"async"`, `"lib":"archive","executable":"/abs/build/bench-shared",`+"\n"+`   "go_version":"go1.26.8","sdk_version":"v0.8.3","gomaxprocs":2,"max_handle":255,`+"\n"+`   "mode":{"requested":"async"`)},
		"two Go versions": {"report", edit("mixed.json", `"go_version":"go1.26.8"`, `"go_version":"go1.25.0"`)},
		"same toolchain":  {"report", "testdata/go1.26.8.json", "testdata/go1.26.8.json"},
		"bad flag":        {"run", "-launches", "0", "go"},
		"no toolchain":    {"run"},
	}
	// The "other SDK" document: every cell of go1.19.8 on another SDK.
	other, _ := os.ReadFile("testdata/go1.19.8.json")
	cases["other SDK"] = []string{"report", "testdata/go1.26.8.json",
		write("sdk.json", strings.ReplaceAll(string(other), `"v0.8.3"`, `"v0.8.2"`))}
	for name, args := range cases {
		code, stdout, stderr := runMain(t, args...)
		if code != 2 {
			t.Errorf("%s: exit %d, want 2 (stderr %q)", name, code, stderr)
			continue
		}
		first := strings.SplitN(stderr, "\n", 2)[0]
		if !strings.HasPrefix(first, "matrix: ") || len(first) < 20 {
			t.Errorf("%s: message %q, want one line naming the problem", name, first)
		}
		if stdout != "" {
			t.Errorf("%s: printed %q on stdout", name, stdout)
		}
	}
}

// A toolchain that cannot be had is skipped with one line; with none left
// the run has failed.
func TestRunSkipsMissingToolchains(t *testing.T) {
	out := t.TempDir()
	code, stdout, stderr := runMain(t, "run", "-out", out, "-make", "false",
		filepath.Join(out, "no-such-go"), "no-such-go-command")
	if code != 3 {
		t.Fatalf("exit %d, want 3 (stderr %q)", code, stderr)
	}
	var skips int
	for _, l := range strings.Split(strings.TrimSpace(stderr), "\n") {
		if strings.HasPrefix(l, "matrix: skipping ") {
			skips++
		}
	}
	if skips != 2 || !strings.Contains(stderr, "not installed") || !strings.Contains(stderr, "not on PATH") {
		t.Errorf("want two skip lines saying why, got:\n%s", stderr)
	}
	if !strings.Contains(stderr, "no toolchain was measured") || stdout != "" {
		t.Errorf("stdout %q stderr %q", stdout, stderr)
	}
}

func TestVersionOrder(t *testing.T) {
	want := []string{"go1.9", "go1.19.8", "go1.21rc2", "go1.21.0", "go1.26.8", "go1.27.3", "devel go1.28"}
	for i := range want {
		for j := range want {
			if got := versionLess(want[i], want[j]); got != (i < j) {
				t.Errorf("versionLess(%q, %q) = %v", want[i], want[j], got)
			}
		}
	}
}

func TestProgressOnlyOnATerminal(t *testing.T) {
	var buf bytes.Buffer
	p := newProgress(&buf)
	p.stage(0, 3, "go1.19.8", "building")
	stop := p.watch(os.Getpid(), 0, 3, "go1.19.8", 10)
	stop()
	p.clear()
	if buf.Len() != 0 {
		t.Fatalf("progress wrote %q to a non-terminal", buf.String())
	}
}
