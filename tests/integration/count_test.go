package integration

// --count: instructions (valgrind) and system calls (perf) per extraction,
// counted in child runs at two lengths. Counts, not times: no assertion
// here depends on a quiet machine.

import (
	"bytes"
	"encoding/json"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/santhosh-tekuri/jsonschema/v6"
)

// needsTool skips a test whose counting tool is not installed (make setup
// installs both), or that would run a sanitized build under valgrind.
func needsTool(t *testing.T, tool string) {
	t.Helper()
	if _, err := exec.LookPath(tool); err != nil {
		t.Skipf("%s is not installed (make setup installs it)", tool)
	}
	if tool == "valgrind" && os.Getenv("CGOCOST_SANITIZER") != "" {
		t.Skip("a sanitized build does not run under valgrind")
	}
}

var countFigure = regexp.MustCompile(`^#   instructions\s+(-?[0-9.]+) \[(-?[0-9.]+) \.\. (-?[0-9.]+)\] \(range [0-9.]+%\)  Valgrind-[0-9.]+ cachegrind, 6 runs in [0-9.]+ s$`)

// The sync mock's instructions per extraction: a positive count with the
// range of its three pairs, after the times; the seed line first, as
// always; nothing left running.
func TestCountInstructionsSync(t *testing.T) {
	needsTool(t, "valgrind")
	m := mark("count-instructions")
	r := run(t, filepath.Join(buildDir(t), "bench"), []string{m}, "--count", "instructions", "-n", "20000", "--warmup", "1237")
	if r.code != 0 {
		t.Fatalf("exit %d\n%s", r.code, r.stderr)
	}
	seedLines(t, r, 1, "20000")
	lines := strings.Split(r.stdout, "\n")
	var counts, times int
	var fig []string
	for i, l := range lines {
		if strings.HasPrefix(l, "# time:") {
			times = i
		}
		if strings.HasPrefix(l, "# counts: per extraction, no clock: -n 40000 less -n 20000 (the same warm-up, 1237)") {
			counts = i
		}
		if m := countFigure.FindStringSubmatch(l); m != nil {
			fig = m
		}
	}
	if counts == 0 || counts < times || fig == nil {
		t.Fatalf("no counts: block with the instructions after the times:\n%s", r.stdout)
	}
	med, _ := strconv.ParseFloat(fig[1], 64)
	lo, _ := strconv.ParseFloat(fig[2], 64)
	hi, _ := strconv.ParseFloat(fig[3], 64)
	// the crossing alone is hundreds of instructions; the whole driver
	// and runtime per call far fewer than 100000
	if !(med > 100 && med < 100000 && lo <= med && med <= hi) {
		t.Errorf("instructions per extraction %v [%v .. %v]: not a positive count with its range", med, lo, hi)
	}
	if strings.Contains(r.stdout, "system calls") {
		t.Errorf("--count instructions counted system calls too:\n%s", r.stdout)
	}
	// the mark is in the environment of the run's every process, valgrind's
	// and perf's too, and in no other run's (make test's other build)
	if left := processesOf(m); len(left) > 0 {
		t.Errorf("processes left behind: %v", left)
	}
}

// What cannot be counted as asked is refused before anything is measured,
// exit 2, the reason named: an async cell (its worker spins), -p > 1, and
// a run that is no single launch.
func TestCountRefusals(t *testing.T) {
	bench := filepath.Join(buildDir(t), "bench")
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"--count", "instructions", "-a"}, "worker's spinning"},
		{[]string{"--count", "all", "-a"}, "worker's spinning"},
		{[]string{"--count", "instructions", "-p", "2"}, "-p 2 callers would run one at a time under valgrind"},
		{[]string{"--count", "syscalls", "--launches", "3"}, "--count counts the cell of a single launch"},
		// a whole --compare takes async cells (their instructions left
		// out), not -p > 1
		{[]string{"--count", "instructions", "--compare", "-p", "2"}, "-p 2 callers would run one at a time under valgrind"},
		{[]string{"--count", "syscalls", "--rate", "1000"}, "not --rate or --gap-us"},
		{[]string{"--count", "cycles"}, "--count: 'cycles' is not one of instructions, syscalls, all"},
	} {
		r := run(t, bench, nil, c.args...)
		if r.code != 2 || !strings.Contains(r.stderr, c.want) || r.stdout != "" ||
			strings.Count(strings.TrimRight(r.stderr, "\n"), "\n") != 0 {
			t.Errorf("%v: exit %d, want 2 with one line saying %q; stdout %q, stderr %q", c.args, r.code, c.want, r.stdout, r.stderr)
		}
	}
}

type countFig struct {
	Median, Min, Max *float64
	Pairs            []*float64
}

type countDoc struct {
	Cells []struct {
		Counts *struct {
			Extractions  uint64
			Instructions *json.RawMessage
			Syscalls     *struct {
				Tool          string
				PerExtraction countFig `json:"per_extraction"`
				ByName        []struct {
					Name          string
					PerExtraction countFig `json:"per_extraction"`
				} `json:"by_name"`
				ContextSwitches countFig `json:"context_switches"`
				PageFaults      countFig `json:"page_faults"`
			}
		}
	}
}

func finiteFig(f countFig) bool {
	return finitePairs(f, 3)
}

// finitePairs: a finite figure of n pairs, its median within its range.
func finitePairs(f countFig, n int) bool {
	if f.Median == nil || f.Min == nil || f.Max == nil || len(f.Pairs) != n {
		return false
	}
	for _, v := range append(f.Pairs, f.Median, f.Min, f.Max) {
		if v == nil || math.IsNaN(*v) || math.IsInf(*v, 0) {
			return false
		}
	}
	return *f.Min <= *f.Median && *f.Median <= *f.Max
}

// System calls per extraction of an async cell (allowed: perf counts
// calls, not spinning): a finite count with its range, by name, with the
// context switches and page faults, in the JSON document.
func TestCountSyscalls(t *testing.T) {
	needsTool(t, "perf")
	m := mark("count-syscalls")
	r := run(t, filepath.Join(buildDir(t), "bench"), []string{m}, "--count", "syscalls", "-a", "-n", "20000", "--warmup", "1238", "--format", "json")
	if r.code == 3 && strings.Contains(r.stderr, "perf") {
		t.Skipf("perf cannot count here: %s", r.stderr)
	}
	if r.code != 0 {
		t.Fatalf("exit %d\n%s", r.code, r.stderr)
	}
	var d countDoc
	if err := json.Unmarshal([]byte(r.stdout), &d); err != nil {
		t.Fatal(err)
	}
	if len(d.Cells) != 1 || d.Cells[0].Counts == nil || d.Cells[0].Counts.Syscalls == nil {
		t.Fatalf("no counts.syscalls in the cell:\n%s", r.stdout)
	}
	c := d.Cells[0].Counts
	if c.Extractions != 20000 || c.Instructions != nil && string(*c.Instructions) != "null" {
		t.Errorf("extractions %d (want 20000), instructions %v (want null: not asked for)", c.Extractions, c.Instructions)
	}
	s := c.Syscalls
	if !finiteFig(s.PerExtraction) || !finiteFig(s.ContextSwitches) || !finiteFig(s.PageFaults) {
		t.Errorf("not a finite count with its range: %+v", s)
	}
	names := map[string]bool{}
	for _, n := range s.ByName {
		names[n.Name] = true
		if !finiteFig(n.PerExtraction) {
			t.Errorf("%s: not a finite count", n.Name)
		}
	}
	for _, want := range []string{"rt_sigprocmask", "sigaltstack", "futex", "nanosleep", "other"} {
		if !names[want] {
			t.Errorf("no %s among the names %v", want, names)
		}
	}
	// the mark is in the environment of the run's every process, valgrind's
	// and perf's too, and in no other run's (make test's other build)
	if left := processesOf(m); len(left) > 0 {
		t.Errorf("processes left behind: %v", left)
	}
}

// A counting tool missing from PATH: one line naming it and exit 3, found
// before anything runs (it was found after the timed run, whose report
// was then printed): nothing on stdout, at once. The counting gate too.
func TestCountToolMissing(t *testing.T) {
	bench := filepath.Join(buildDir(t), "bench")
	for _, c := range []struct {
		what, tool string
		args       []string
	}{
		{"instructions", "valgrind", []string{"-n", "2000000"}},
		{"syscalls", "perf", []string{"-n", "2000000"}},
		{"all", "valgrind", []string{"-n", "2000000"}},
		{"instructions", "valgrind", []string{"--against", bench}},
	} {
		args := append([]string{"--count", c.what}, c.args...)
		start := time.Now()
		r := run(t, bench, []string{"PATH=" + t.TempDir()}, args...)
		oneLine(t, r, 3, c.tool+" is not in PATH: nothing was measured or counted", args)
		if took := time.Since(start); took > 5*time.Second {
			t.Errorf("%v: took %v: the tool is looked for before anything runs", args, took)
		}
	}
}

type planCounts struct {
	Name   string
	Counts *struct {
		Extractions            uint64
		InstructionsNotCounted string `json:"instructions_not_counted"`
		Instructions           *struct {
			PerExtraction countFig `json:"per_extraction"`
		}
		Syscalls *struct {
			PerExtraction countFig `json:"per_extraction"`
		}
	}
}

type planDoc struct {
	Cells       []planCounts
	FloorCounts map[string]struct {
		Extractions  uint64
		Instructions *struct {
			PerExtraction countFig `json:"per_extraction"`
		}
	} `json:"floor_counts"`
}

// readPlanDoc reads a counted plan's document, valid against
// docs/schema.json (its counts, floor_counts and instructions_not_counted
// among the rest: tests/schema runs no counted plan, too long for it).
func readPlanDoc(t *testing.T, path string) planDoc {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	raw, err := os.ReadFile(filepath.Join("..", "..", "docs", "schema.json"))
	if err != nil {
		t.Fatal(err)
	}
	sdoc, err := jsonschema.UnmarshalJSON(bytes.NewReader(raw))
	if err != nil {
		t.Fatal(err)
	}
	c := jsonschema.NewCompiler()
	if err := c.AddResource("schema.json", sdoc); err != nil {
		t.Fatal(err)
	}
	sch, err := c.Compile("schema.json")
	if err != nil {
		t.Fatal(err)
	}
	inst, err := jsonschema.UnmarshalJSON(bytes.NewReader(data))
	if err != nil {
		t.Fatal(err)
	}
	if err := sch.Validate(inst); err != nil {
		t.Errorf("%s does not match docs/schema.json: %v", path, err)
	}
	var d planDoc
	if err := json.Unmarshal(data, &d); err != nil {
		t.Fatal(err)
	}
	return d
}

// --anatomy --count instructions: every sync step and the minimal driver
// counted (positive; str, which writes and checks a string, above bare),
// every async cell "not counted" with the reason, not an error; the C
// call floor far below the raw C->Go call; in the text table, the JSON and
// the markdown.
func TestCountAnatomy(t *testing.T) {
	needsTool(t, "valgrind")
	m := mark("count-anatomy")
	// one pair a cell (the test hook): 16 counted runs, not 48
	env := []string{m, "CGOCOST_TEST_COUNT_PAIRS=1"}
	dir := t.TempDir()
	js, md := filepath.Join(dir, "a.json"), filepath.Join(dir, "a.md")
	r := run(t, filepath.Join(buildDir(t), "bench"), env, "--anatomy", "--count", "instructions", "-n", "5000",
		"--launches", "1", "-r", "2", "--warmup", "500", "--export", "json="+js, "--export", "markdown="+md)
	if r.code != 0 {
		t.Fatalf("exit %d\n%s", r.code, r.stderr)
	}
	d := readPlanDoc(t, js)
	per := map[string]float64{}
	for _, c := range d.Cells {
		if c.Counts == nil {
			t.Fatalf("%s: no counts", c.Name)
		}
		if strings.Contains(c.Name, "mode=async") {
			if c.Counts.Instructions != nil || !strings.Contains(c.Counts.InstructionsNotCounted, "spin") {
				t.Errorf("%s: instructions %v, reason %q: want none, and the worker's spinning named", c.Name, c.Counts.Instructions, c.Counts.InstructionsNotCounted)
			}
			continue
		}
		if c.Counts.Instructions == nil || !finitePairs(c.Counts.Instructions.PerExtraction, 1) {
			t.Errorf("%s: no finite instruction count", c.Name)
			continue
		}
		per[c.Name] = *c.Counts.Instructions.PerExtraction.Median
	}
	if len(per) != 6 {
		t.Fatalf("counted sync cells %v: want the five steps and the minimal driver", per)
	}
	for name, v := range per {
		if !(v > 100) {
			t.Errorf("%s: %v instructions per extraction, want a positive count of a crossing (hundreds)", name, v)
		}
	}
	bare, str := per["lib=archive/mode=sync/work=bare/p=1"], per["lib=archive/mode=sync/work=str/p=1"]
	if !(str > bare+100) {
		t.Errorf("str %v instructions, bare %v: the string's writing and checking should add well over 100", str, bare)
	}
	cc, raw := d.FloorCounts["c_call"], d.FloorCounts["go_raw"]
	if cc.Instructions == nil || raw.Instructions == nil || !finitePairs(cc.Instructions.PerExtraction, 1) || !finitePairs(raw.Instructions.PerExtraction, 1) {
		t.Fatalf("floor counts %+v: want both floors' instructions", d.FloorCounts)
	}
	c, g := *cc.Instructions.PerExtraction.Median, *raw.Instructions.PerExtraction.Median
	if !(c > 0 && c < 50 && g > 10*c) {
		t.Errorf("C call %v, raw C->Go %v instructions per call: want a few for the C call, ten times more for C->Go", c, g)
	}
	for _, want := range []string{"counts per extraction (a floor: per call), no clock: -n 10000 less -n 5000",
		"\nsync   str ", "\nsync   minimal ", "\nasync  bare         not counted", "\nfloor  C call ", "\nfloor  raw C->Go ",
		"instructions of the async cells: not counted, by design (async: its worker spins"} {
		if !strings.Contains(r.stdout, want) {
			t.Errorf("the text has no %q:\n%s", want, r.stdout)
		}
	}
	mdText, err := os.ReadFile(md)
	if err != nil || !strings.Contains(string(mdText), "## Counts") || !strings.Contains(string(mdText), "| async | str | not counted |") {
		t.Errorf("the markdown has no counts table (%v):\n%s", err, mdText)
	}
	if left := processesOf(m); len(left) > 0 {
		t.Errorf("processes left behind: %v", left)
	}
}

// --compare --count syscalls: every cell counted, sync and async, the
// shared build and the C plugin in bench-host too.
func TestCountCompareSyscalls(t *testing.T) {
	needsTool(t, "perf")
	m := mark("count-compare")
	env := []string{m, "CGOCOST_TEST_COUNT_PAIRS=1"}
	js := filepath.Join(t.TempDir(), "c.json")
	r := run(t, filepath.Join(buildDir(t), "bench"), env, "--compare", "--count", "syscalls", "-n", "5000", "--time", "1",
		"--export", "json="+js)
	if r.code == 3 && strings.Contains(r.stderr, "perf") {
		t.Skipf("perf cannot count here: %s", r.stderr)
	}
	if r.code != 0 {
		t.Fatalf("exit %d\n%s", r.code, r.stderr)
	}
	d := readPlanDoc(t, js)
	if len(d.Cells) < 4 {
		t.Fatalf("%d cells, want the four of archive/shared x sync/async at least", len(d.Cells))
	}
	for _, c := range d.Cells {
		if c.Counts == nil || c.Counts.Syscalls == nil || !finitePairs(c.Counts.Syscalls.PerExtraction, 1) || c.Counts.Extractions != 5000 {
			t.Errorf("%s: counts %+v: want the system calls over 5000 extractions", c.Name, c.Counts)
		}
	}
	if !strings.Contains(r.stdout, "\nasync  shared ") || !strings.Contains(r.stdout, "\nsync   archive ") {
		t.Errorf("the text's counts table lacks a cell:\n%s", r.stdout)
	}
	if left := processesOf(m); len(left) > 0 {
		t.Errorf("processes left behind: %v", left)
	}
}

// A whole plan without perf: one line naming it, exit 3, before the plan
// runs (it was found after the measurement): nothing on stdout.
func TestCountPlanToolMissing(t *testing.T) {
	args := []string{"--compare", "--count", "syscalls", "-n", "2000", "--time", "1"}
	oneLine(t, run(t, filepath.Join(buildDir(t), "bench"), []string{"PATH=" + t.TempDir()}, args...), 3,
		"perf is not in PATH: nothing was measured or counted", args)
}

// A perf that hangs (here a script of that name first in PATH) was waited
// for without a bound after the timed run; each counted run is killed at
// a launch's bound with its warm-up and extractions taken 50 times
// (--stall-timeout 2: 14 s, and 12 s for the warm-up of 10000 and -n
// 2000) with its group, the pair's other run with it: exit 3 naming the
// hang, the times reported with the count "not counted", nothing left
// running.
func TestCountToolHangs(t *testing.T) {
	t.Parallel() // it waits for a hang to be cut: beside the other waiting tests
	tools := t.TempDir()
	script(t, tools, "perf", "sleep 1000\n")
	m := mark("count-perf-hangs")
	bench := filepath.Join(buildDir(t), "bench")
	cmd := []string{"env", "PATH=" + tools + ":" + os.Getenv("PATH"), bench, "--count", "syscalls", "-n", "2000",
		"--stall-timeout", "2"}
	r := runMarked(t, 2*time.Minute, m, t.TempDir(), cmd[0], cmd[1:]...)
	if r.code != 3 || !strings.Contains(r.stderr, tools+"/perf was still running at -n") {
		t.Errorf("exit %d (want 3, the hung perf killed), stderr:\n%s", r.code, r.stderr)
	}
	if r.took > 60*time.Second {
		t.Errorf("took %v: the bound is about 26 s", r.took)
	}
	if !strings.Contains(r.stdout, "not counted") {
		t.Errorf("want the times, and the count 'not counted':\n%s", r.stdout)
	}
	if left := processesOf(m); len(left) > 0 {
		t.Errorf("left running: %v", left)
	}
}
