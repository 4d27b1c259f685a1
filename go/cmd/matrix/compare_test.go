package main

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// The matrix reads what the current build's `bench --compare` writes, the
// C plugin's cell included: the real command, as the matrix runs it, with
// one launch of a few requests. (Its fixtures had drifted from the real
// output once: make matrix failed on every toolchain.) It runs from `make
// test-matrix`, which sets CGOCOST_ROOT, after `make all`.
func TestReadsTheRealCompare(t *testing.T) {
	root := os.Getenv("CGOCOST_ROOT")
	if root == "" {
		t.Skip("CGOCOST_ROOT unset: run through make test-matrix")
	}
	exe := filepath.Join(root, "build", "bench")
	if _, err := os.Stat(exe); err != nil {
		t.Fatalf("%s is not built (make all first): %v", exe, err)
	}
	cmd := exec.Command(exe, compareArgs(1, 2000)...)
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("%s %v: %v", exe, compareArgs(1, 2000), err)
	}
	d, err := parseDocument(out)
	if err != nil {
		t.Fatalf("the matrix cannot read the real --compare: %v", err)
	}
	for _, k := range cellKeys {
		c := d.cell(k)
		if c == nil || c.GoVersion == "" {
			t.Errorf("cell %s: %+v", k, c)
		}
	}
	if len(d.Cells) != len(cellKeys) {
		t.Errorf("%d Go cells read, want %d", len(d.Cells), len(cellKeys))
	}
	if _, err := os.Stat(filepath.Join(root, "build", "bench-host")); err == nil {
		var all struct{ Cells []benchCell }
		if err := json.Unmarshal(out, &all); err != nil {
			t.Fatal(err)
		}
		if len(all.Cells) != len(cellKeys)+2 {
			t.Errorf("the document holds %d cells, want the four, the C plugin's and the round trip (its async)", len(all.Cells))
		}
	}
}

// The same for the counts: the matrix reads what the current build's
// `bench --count all` writes, as `matrix run` runs it (at -n 2000: about
// 11 s under valgrind and perf; its figures are not checked, only read).
func TestReadsTheRealCounts(t *testing.T) {
	root := os.Getenv("CGOCOST_ROOT")
	if root == "" {
		t.Skip("CGOCOST_ROOT unset: run through make test-matrix")
	}
	exe := filepath.Join(root, "build", "bench")
	dir := t.TempDir()
	c, err := runCounts(exe, countArgs(2000), filepath.Join(dir, "counts.json"), filepath.Join(dir, "counts.stderr"))
	if err != nil {
		t.Fatalf("the matrix cannot read the real --count: %v", err)
	}
	if c.goVersion == "" || c.cell != "lib=archive/mode=sync/work=noop/p=1" {
		t.Errorf("counts of %q by %q", c.cell, c.goVersion)
	}
	rc := makeCounts(c)
	if rc.Instructions == nil || rc.Instructions.Median == nil || *rc.Instructions.Median <= 0 {
		t.Errorf("instructions %+v, want a positive median", rc.Instructions)
	}
	if rc.Syscalls == nil || rc.Syscalls.Median == nil || len(rc.SyscallsByName) == 0 {
		t.Errorf("system calls %+v by name %v", rc.Syscalls, rc.SyscallsByName)
	}
	if _, err := os.Stat(filepath.Join(dir, "counts.json")); err != nil {
		t.Errorf("the counts document was not kept: %v", err)
	}
}

// A paired --compare document also holds the harness check's cells (bench
// --work bare and the textbook loop, sync and async): the matrix reads the
// four cells of the run's own work and no "two cells" error.
func TestSkipsTheHarnessCheckCells(t *testing.T) {
	data, err := os.ReadFile("testdata/compare-c-plugin.json")
	if err != nil {
		t.Fatal(err)
	}
	var raw map[string]any
	if err := json.Unmarshal(data, &raw); err != nil {
		t.Fatal(err)
	}
	cells := raw["cells"].([]any)
	for _, name := range []string{"lib=archive/mode=sync/work=bare/p=1", "lib=archive/mode=sync/work=bare/p=1/driver=textbook"} {
		c := map[string]any{}
		for k, v := range cells[0].(map[string]any) {
			c[k] = v
		}
		c["name"] = name
		cells = append(cells, c)
	}
	raw["cells"] = cells
	if data, err = json.Marshal(raw); err != nil {
		t.Fatal(err)
	}
	d, err := parseDocument(data)
	if err != nil {
		t.Fatalf("a paired --compare with the harness cells: %v", err)
	}
	if len(d.Cells) != len(cellKeys) {
		t.Errorf("%d Go cells read, want %d", len(d.Cells), len(cellKeys))
	}
	for _, c := range d.Cells {
		if !strings.Contains(c.Name, "/work=noop/") {
			t.Errorf("cell %s read as a toolchain's", c.Name)
		}
	}
}
