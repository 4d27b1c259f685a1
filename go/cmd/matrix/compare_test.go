package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
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
	// machine too loaded for an honest run, exit 3 with one of the two
	// reasons a loaded machine gives and no document: the floors failed
	// their checks, or an async launch's caller waited so long for its
	// worker to be scheduled that the watchdog or the bound ended it
	// (checked, then tried once more: it is the reading that this test is
	// about; with four busy loops on 2 CPUs, each async extraction waits
	// for a time slice).
	var out []byte
	for try := 1; ; try++ {
		var err error
		var se bytes.Buffer
		cmd := exec.Command(exe, compareArgs(1, 2000)...)
		cmd.Stderr = &se
		if out, err = cmd.Output(); err == nil {
			break
		}
		why := loadedFailureOnly(t, err, out, se.String())
		if try == 2 {
			t.Skipf("no document in both runs (a loaded machine): %s", why)
		}
		t.Logf("no document (a loaded machine): %s", why)
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

// stalledFailure is the last line of a run of bench whose launch stalled
// in all its tries (the watchdog's reason) or outlasted its bound, and
// stalledRetry a line of each try before it.
var (
	stalledFailure = regexp.MustCompile(`^bench: launch of \S+ (failed: bench[-a-z]*: plugin [0-9]+ made no progress for [0-9]+ s .*|was still running after [0-9]+ s, .*: killed)$`)
	stalledRetry   = regexp.MustCompile(`^bench: warning: \S+ stalled \(.+\); running that launch again$`)
)

// loadedFailureOnly fails the test unless a run of bench ended the way
// only a loaded machine ends it: exit 3, nothing on stdout, and on stderr
// either the one line of a launch whose floors failed their checks, or
// the retries of a stalled launch and its last reason. It returns that
// last line.
func loadedFailureOnly(t *testing.T, err error, stdout []byte, stderr string) string {
	t.Helper()
	var ee *exec.ExitError
	if !errors.As(err, &ee) || ee.ExitCode() != 3 {
		t.Fatalf("bench %v: %v, stderr %q", compareArgs(1, 2000), err, stderr)
	}
	if len(stdout) != 0 {
		t.Fatalf("a run that failed printed %q", stdout)
	}
	lines := strings.Split(strings.TrimRight(stderr, "\n"), "\n")
	last := lines[len(lines)-1]
	switch {
	case len(lines) == 1 && floorsFailure.MatchString(last):
	case stalledFailure.MatchString(last):
		for _, l := range lines[:len(lines)-1] {
			if !stalledRetry.MatchString(l) {
				t.Fatalf("a stalled run with a line that is no retry: %q in %q", l, stderr)
			}
		}
	default:
		t.Fatalf("exit 3 without the one line of a floor that failed its checks or the lines of a stalled launch: %q", stderr)
	}
	return last
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

// The lines TestReadsTheRealCompare accepts as a loaded machine's, as a
// run of bench under four busy loops printed them, and lines it must not.
func TestLoadedMachineLines(t *testing.T) {
	retry := "bench: warning: /w/build/bench stalled (launch of /w/build/bench failed: bench: plugin 1 made no progress for 20 s in the warm-up (a caller spinning on an async worker that is not scheduled looks like this); goroutine stacks: /tmp/cgocost-stall-15737-ELOBVI.txt; giving up (see --stall-timeout)); running that launch again"
	for _, c := range []struct {
		line           string
		retry, failure bool
	}{
		{retry, true, false},
		{"bench: launch of /w/build/bench-shared was still running after 76 s, the most its options allow (2 x --stall-timeout + 10 s + its extractions, then as long as it used CPU): killed", false, true},
		{"bench: launch of /w/build/bench was still running after 240 s, though it kept using CPU (3 x its bound of 80 s, the most a launch may take): killed", false, true},
		{"bench: launch of /w/build/bench failed: bench: plugin 1 made no progress for 20 s in the warm-up (a caller spinning on an async worker that is not scheduled looks like this); goroutine stacks: /tmp/x.txt; giving up (see --stall-timeout)", false, true},
		{"bench: launch of /w/build/bench failed: exit 3: bench: out of memory for 1 plugins", false, false},
		{"bench: launch of /w/build/bench printed a bad document", false, false},
		{"bench: warning: /w/build/bench stalled; running that launch again", false, false},
	} {
		if got := stalledRetry.MatchString(c.line); got != c.retry {
			t.Errorf("retry %v, want %v: %q", got, c.retry, c.line)
		}
		if got := stalledFailure.MatchString(c.line); got != c.failure {
			t.Errorf("failure %v, want %v: %q", got, c.failure, c.line)
		}
	}
}
