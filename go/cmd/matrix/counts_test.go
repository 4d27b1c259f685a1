package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// Real `bench --count all -n 100000 --format json` documents of two of the
// toolchains of fixtures; go1.27.3 has none, as a run before counts.
var countFixtures = []string{"testdata/go1.19.8.counts.json", "testdata/go1.26.8.counts.json"}

// countsFile is the counts part of build/matrix.json, as a reader sees it.
type countsFile struct {
	Rows []struct {
		GoVersion string `json:"go_version"`
		Counts    *struct {
			Source       string  `json:"source"`
			NShort       *int    `json:"n_short"`
			Pairs        *int    `json:"pairs"`
			Instructions *figure `json:"instructions"`
			Syscalls     *figure `json:"syscalls"`
			ByName       []named `json:"syscalls_by_name"`
			Tool         *string `json:"instructions_tool"`
		} `json:"counts"`
	} `json:"rows"`
}

type figure struct {
	Median *float64 `json:"median"`
	Min    *float64 `json:"min"`
	Max    *float64 `json:"max"`
}

type named struct {
	Name string `json:"name"`
	figure
}

// fixtureCounts reads a counts fixture's instructions and system calls per
// extraction, the figures the matrix must carry unchanged.
func fixtureCounts(t *testing.T, path string) (instr, calls figure) {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var d struct {
		Cells []struct {
			Counts struct {
				Instructions struct {
					PerExtraction figure `json:"per_extraction"`
				} `json:"instructions"`
				Syscalls struct {
					PerExtraction figure `json:"per_extraction"`
				} `json:"syscalls"`
			} `json:"counts"`
		} `json:"cells"`
	}
	if err := json.Unmarshal(data, &d); err != nil || len(d.Cells) != 1 {
		t.Fatalf("%s: %v, %d cells", path, err, len(d.Cells))
	}
	c := d.Cells[0].Counts
	return c.Instructions.PerExtraction, c.Syscalls.PerExtraction
}

func readCounts(t *testing.T, path string) countsFile {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var m countsFile
	if err := json.Unmarshal(data, &m); err != nil {
		t.Fatal(err)
	}
	return m
}

func eqFig(a, b *float64) bool { return a != nil && b != nil && *a == *b }

func TestReportCarriesCounts(t *testing.T) {
	out := t.TempDir()
	args := append([]string{"report", "-out", out}, countFixtures[1], fixtures[0], countFixtures[0], fixtures[1], fixtures[2])
	code, stdout, stderr := runMain(t, args...)
	if code != 0 {
		t.Fatalf("exit %d, stderr %q", code, stderr)
	}
	m := readCounts(t, filepath.Join(out, "matrix.json"))
	if len(m.Rows) != 3 {
		t.Fatalf("%d rows, want 3: a counts document is not a row of its own", len(m.Rows))
	}
	for i, path := range countFixtures {
		r := m.Rows[i] // go1.19.8, go1.26.8
		instr, calls := fixtureCounts(t, path)
		c := r.Counts
		if c == nil {
			t.Fatalf("%s: counts null, want those of %s", r.GoVersion, path)
		}
		if c.Source != path || c.NShort == nil || *c.NShort != 100000 || c.Pairs == nil || *c.Pairs != 3 {
			t.Errorf("%s: source %q n_short %v pairs %v", r.GoVersion, c.Source, c.NShort, c.Pairs)
		}
		if c.Instructions == nil || !eqFig(c.Instructions.Median, instr.Median) ||
			!eqFig(c.Instructions.Min, instr.Min) || !eqFig(c.Instructions.Max, instr.Max) {
			t.Errorf("%s: instructions %+v, want the document's %+v", r.GoVersion, c.Instructions, instr)
		}
		if c.Syscalls == nil || !eqFig(c.Syscalls.Median, calls.Median) {
			t.Errorf("%s: system calls %+v, want the document's %+v", r.GoVersion, c.Syscalls, calls)
		}
		if c.Tool == nil || !strings.Contains(*c.Tool, "cachegrind") {
			t.Errorf("%s: instructions tool %v", r.GoVersion, c.Tool)
		}
		// Every name the document gives, largest first.
		if len(c.ByName) < 3 {
			t.Fatalf("%s: %d system calls by name", r.GoVersion, len(c.ByName))
		}
		for j := 1; j < len(c.ByName); j++ {
			if *c.ByName[j].Median > *c.ByName[j-1].Median {
				t.Errorf("%s: by name not largest first: %s %v after %s %v", r.GoVersion,
					c.ByName[j].Name, *c.ByName[j].Median, c.ByName[j-1].Name, *c.ByName[j-1].Median)
			}
		}
	}
	// Go 1.19's cliff is in the fixture: nine system calls, the signal mask's first.
	old := m.Rows[0].Counts
	if *old.Syscalls.Median < 8 || old.ByName[0].Name != "rt_sigprocmask" || old.ByName[1].Name != "sigaltstack" {
		t.Errorf("go1.19.8: %v system calls, by name %+v", *old.Syscalls.Median, old.ByName[:2])
	}
	// A toolchain whose run has no counts document is still a row, counts null.
	if m.Rows[2].GoVersion != "go1.27.3" || m.Rows[2].Counts != nil {
		t.Errorf("row 3 %s counts %+v, want go1.27.3 with null counts", m.Rows[2].GoVersion, m.Rows[2].Counts)
	}
	raw, _ := os.ReadFile(filepath.Join(out, "matrix.json"))
	if !strings.Contains(string(raw), `"counts": null`) {
		t.Error("matrix.json does not write a toolchain without counts as null")
	}

	block := stdout[strings.Index(stdout, "\ncounts per sync extraction")+1:]
	if !strings.HasPrefix(block, "counts per sync extraction (lib=archive/mode=sync, bench --count all -n 100000:") {
		t.Fatalf("no counts block under the times:\n%s", stdout)
	}
	lines := map[string]string{}
	for _, l := range strings.Split(block, "\n") {
		if f := strings.Fields(l); len(f) > 0 {
			lines[f[0]] = l
		}
	}
	instr, _ := fixtureCounts(t, countFixtures[0])
	want := countText(instr.Median) + " [" + countText(instr.Min) + ", " + countText(instr.Max) + "]"
	if l := lines["go1.19.8"]; !strings.Contains(l, want) || !strings.Contains(l, "rt_sigprocmask 5.00, sigaltstack 3.00, gettid 1.00") {
		t.Errorf("go1.19.8 counts line %q, want %q and the calls by name", l, want)
	}
	// Names below one in a thousand are start-up or timers: not shown.
	if l := lines["go1.26.8"]; !strings.Contains(l, "none") || strings.Contains(l, "rt_sigprocmask") {
		t.Errorf("go1.26.8 counts line %q, want no system call by name", l)
	}
	if l := lines["go1.27.3"]; !strings.Contains(l, "not counted") {
		t.Errorf("go1.27.3 counts line %q, want not counted", l)
	}

	svg, err := os.ReadFile(filepath.Join(out, "matrix.svg"))
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range []string{"instructions per extraction", "rt_sigprocmask 5.00", "not counted", "ns per extraction (log scale)"} {
		if !strings.Contains(string(svg), s) {
			t.Errorf("matrix.svg has no %q", s)
		}
	}
}

// Documents without counts (every run before them) give the same report
// as before: no counts block, no counts panel, counts null.
func TestReportWithoutCounts(t *testing.T) {
	out := t.TempDir()
	code, stdout, stderr := runMain(t, append([]string{"report", "-out", out}, fixtures...)...)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	if strings.Contains(stdout, "counts per sync extraction") {
		t.Errorf("a counts block with nothing counted:\n%s", stdout)
	}
	for _, r := range readCounts(t, filepath.Join(out, "matrix.json")).Rows {
		if r.Counts != nil {
			t.Errorf("%s: counts %+v, want null", r.GoVersion, r.Counts)
		}
	}
	svg, _ := os.ReadFile(filepath.Join(out, "matrix.svg"))
	if strings.Contains(string(svg), "instructions per extraction") {
		t.Error("matrix.svg draws a counts panel with nothing counted")
	}
}

func TestCountsBadInputExitsTwo(t *testing.T) {
	dir := t.TempDir()
	counts, err := os.ReadFile(countFixtures[1])
	if err != nil {
		t.Fatal(err)
	}
	edit := func(name, old, new string) string {
		if !strings.Contains(string(counts), old) {
			t.Fatalf("counts fixture has no %q", old)
		}
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(strings.Replace(string(counts), old, new, 1)), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	cases := map[string][]string{
		"counts alone":            {"report", countFixtures[1]},
		"counts of no row":        {"report", fixtures[0], countFixtures[1]},
		"two counts of a row":     {"report", fixtures[2], countFixtures[1], edit("again.json", `"n_short"`, `"n_short"`)},
		"one cell without counts": {"report", fixtures[2], edit("none.json", `"counts": {`, `"counts": null, "x": {`)},
		"counts of another cell":  {"report", fixtures[2], edit("async.json", `"requested": "sync"`, `"requested": "async"`)},
		"another SDK":             {"report", fixtures[2], edit("sdk.json", `"sdk_version": "v0.8.3"`, `"sdk_version": "v0.8.2"`)},
		"bad -count-n":            {"run", "-count-n", "-1", "go"},
	}
	for name, args := range cases {
		code, stdout, stderr := runMain(t, args...)
		if code != 2 {
			t.Errorf("%s: exit %d, want 2 (stderr %q)", name, code, stderr)
			continue
		}
		if first := strings.SplitN(stderr, "\n", 2)[0]; !strings.HasPrefix(first, "matrix: ") || len(first) < 20 {
			t.Errorf("%s: message %q, want one line naming the problem", name, first)
		}
		if stdout != "" {
			t.Errorf("%s: printed %q on stdout", name, stdout)
		}
	}
}

func TestCountText(t *testing.T) {
	v := func(x float64) *float64 { return &x }
	cases := map[string]*float64{
		"3006": v(3005.97), "1079": v(1079.24), "9.02": v(9.0154), "0.0003": v(0.00031),
		"-0.0003": v(-0.0003), "-": nil, "12.35": v(12.3456),
	}
	for want, x := range cases {
		if got := countText(x); got != want {
			t.Errorf("countText(%v) = %q, want %q", x, got, want)
		}
	}
	rc := &rowCounts{SyscallsByName: []namedCount{
		{Name: "futex", countFigure: countFigure{Median: v(0.0004)}},
		{Name: "gettid", countFigure: countFigure{Median: v(1)}},
		{Name: "madvise", countFigure: countFigure{Median: v(-0.002)}},
		{Name: "other", countFigure: countFigure{}},
	}}
	if got := namesText(rc.shownNames()); got != "gettid 1.00, madvise -0.0020" {
		t.Errorf("names %q: want those at least one in a thousand either way, in order", got)
	}
	if got := namesText(nil); got != "none" {
		t.Errorf("no names: %q", got)
	}
}
