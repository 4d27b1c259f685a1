package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
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
	// Two outcomes are right: a document, read in full below; or, on a
	// machine too loaded for an honest floor, exit 3 with the floors'
	// reason and no document (checked, then tried once more: it is the
	// reading that this test is about).
	var out []byte
	for try := 1; ; try++ {
		var err error
		var se bytes.Buffer
		cmd := exec.Command(exe, compareArgs(1, 2000)...)
		cmd.Stderr = &se
		if out, err = cmd.Output(); err == nil {
			break
		}
		floorsFailedOnly(t, err, out, se.String())
		if try == 2 {
			t.Skipf("the floors failed their checks in both runs (a loaded machine): %s", strings.TrimSpace(se.String()))
		}
		t.Logf("the floors failed their checks (a loaded machine): %s", strings.TrimSpace(se.String()))
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

// floorsFailedOnly fails the test unless a run of bench ended as a launch
// whose floors failed their checks does: exit 3, nothing on stdout, and
// one line on stderr, the launch's and then the floors' reason.
func floorsFailedOnly(t *testing.T, err error, stdout []byte, stderr string) {
	t.Helper()
	var ee *exec.ExitError
	if !errors.As(err, &ee) || ee.ExitCode() != 3 {
		t.Fatalf("bench %v: %v, stderr %q", compareArgs(1, 2000), err, stderr)
	}
	if msg := strings.TrimRight(stderr, "\n"); strings.Contains(msg, "\n") || !floorsFailure.MatchString(msg) {
		t.Fatalf("exit 3 without the one line of a floor that failed its checks: %q", stderr)
	}
	if len(stdout) != 0 {
		t.Fatalf("a run whose floors failed printed %q", stdout)
	}
}

// A toolchain whose floors fail (forced here: a worker that blocks at once
// takes the sleep path in every batch) is one failure of the run, said as
// such, not as a broken build: the floors' own reason, the hint to run
// again, and the kept stderr; the real --compare of the build, as the
// matrix runs it.
func TestFailedFloorsSaySo(t *testing.T) {
	root := os.Getenv("CGOCOST_ROOT")
	if root == "" {
		t.Skip("CGOCOST_ROOT unset: run through make test-matrix")
	}
	exe := filepath.Join(root, "build", "bench")
	t.Setenv("CGOCOST_TEST_REF_SPIN_ROUNDS", "0")
	stderrPath := filepath.Join(t.TempDir(), "go1.x.stderr")
	_, err := measure(exe, compareArgs(1, 2000), stderrPath, newProgress(io.Discard), 0, 1, "go1.x", 1)
	want := "bench --compare measured no figures: its floors: the reference handoff failed its checks in 3 attempts, " +
		"so it is no figure: the reference handoff (bare): only "
	if err == nil || !strings.HasPrefix(err.Error(), want) ||
		!strings.HasSuffix(err.Error(), "(a loaded machine fails the floors' checks; run make matrix again on a quieter one) (stderr: "+stderrPath+")") {
		t.Fatalf("got %v, want %q...", err, want)
	}
	kept, _ := os.ReadFile(stderrPath)
	if !floorsFailure.Match(bytes.TrimRight(kept, "\n")) {
		t.Fatalf("stderr kept: %q", kept)
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
