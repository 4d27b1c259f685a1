// Package integration runs the built bench executables end to end: seed
// lines, the verified mode, exit codes and bad input. It measures nothing:
// counts are small and no assertion depends on a timing.
package integration

import (
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"cgocost/tests/testbuild"
)

var seedLine = regexp.MustCompile(`^plugin (\d+): \d+\.\d\d ns/extraction \(elapsed time \d+ns, extractions (\d+)\)$`)

// buildDir is where make put the executables (testbuild.Dir).
func buildDir(t *testing.T) string {
	t.Helper()
	return testbuild.Dir(t)
}

// swapsMalloc skips a test that swaps or counts malloc (--malloc,
// --allocators, --count-allocs) under AddressSanitizer, which replaces
// malloc itself; make sanitize runs those tests against a UBSan-only build.
func swapsMalloc(t *testing.T) {
	t.Helper()
	if os.Getenv("CGOCOST_SANITIZER") == "address" {
		t.Skip("ASan serves malloc itself: allocator swaps run in the UBSan-only build")
	}
}

// verdict says whether an exit status is one of a verdict's: 0 no
// regression, 1 regressed, 4 inconclusive (on a noisy machine any of the
// three is an honest verdict of an A/A or near-A/A run).
func verdict(code int) bool {
	return code == 0 || code == 1 || code == 4
}

type result struct {
	stdout, stderr string
	code           int
}

func run(t *testing.T, exe string, env []string, args ...string) result {
	t.Helper()
	// from a scratch directory: the executables run from any directory
	r := testbuild.Run{Env: env, Dir: t.TempDir()}.Exec(t, exe, args...)
	return result{r.Stdout, r.Stderr, r.Code}
}

// seedLines checks that stdout starts with exactly p seed lines, numbered
// 1..p, each reporting n extractions, and that every other line is a comment.
func seedLines(t *testing.T, r result, p int, n string) {
	t.Helper()
	lines := strings.Split(strings.TrimRight(r.stdout, "\n"), "\n")
	if len(lines) < p {
		t.Fatalf("want %d seed lines, got:\n%s", p, r.stdout)
	}
	for i := 0; i < p; i++ {
		m := seedLine.FindStringSubmatch(lines[i])
		if m == nil {
			t.Fatalf("line %d is not a seed line: %q", i+1, lines[i])
		}
		if m[1] != strconv.Itoa(i+1) || m[2] != n {
			t.Fatalf("line %d: plugin %s extractions %s, want plugin %d extractions %s", i+1, m[1], m[2], i+1, n)
		}
	}
	for _, l := range lines[p:] {
		if !strings.HasPrefix(l, "#") {
			t.Fatalf("non-comment line after the seed lines: %q", l)
		}
	}
}

func TestEveryModeAndWorkBothLibraries(t *testing.T) {
	dir := buildDir(t)
	for _, exe := range []string{"bench", "bench-shared"} {
		for _, mode := range []string{"sync", "async"} {
			for _, work := range []string{"bare", "event", "noop", "u64", "str"} {
				args := []string{"-n", "2000", "-r", "4", "--warmup", "200", "--work", work, "--fields", "3"}
				if mode == "async" {
					args = append(args, "-a")
				}
				r := run(t, filepath.Join(dir, exe), nil, args...)
				if r.code != 0 {
					t.Fatalf("%s %v: exit %d\n%s", exe, args, r.code, r.stderr)
				}
				seedLines(t, r, 1, "2000")
				want := "# mode: " + mode + " requested, " + mode + " in effect (verified"
				if !strings.Contains(r.stdout, want) {
					t.Fatalf("%s %v: no %q in\n%s", exe, args, want, r.stdout)
				}
				kind := map[string]string{"bench": "archive", "bench-shared": "shared"}[exe]
				if !strings.Contains(r.stdout, "# plugin: "+kind+" ") {
					t.Fatalf("%s: library kind %s not reported:\n%s", exe, kind, r.stdout)
				}
				if !strings.Contains(r.stdout, "go1.") || !strings.Contains(r.stdout, "plugin-sdk-go v") {
					t.Fatalf("%s: Go or SDK version missing:\n%s", exe, r.stdout)
				}
			}
		}
	}
}

// The SDK silently falls back to direct calls when GOMAXPROCS < 2: cgocost
// must never print "async" for such a run, and must say why.
func TestAsyncNotInEffectWithOneProc(t *testing.T) {
	dir := buildDir(t)
	r := run(t, filepath.Join(dir, "bench"), []string{"GOMAXPROCS=1"}, "-n", "1000", "-r", "2", "-a")
	if r.code != 0 {
		t.Fatalf("exit %d: %s", r.code, r.stderr)
	}
	seedLines(t, r, 1, "1000")
	if !strings.Contains(r.stdout, "# mode: async requested, sync in effect") {
		t.Fatalf("mode line wrong:\n%s", r.stdout)
	}
	if strings.Contains(r.stdout, "async in effect") {
		t.Fatalf("printed async in effect for a sync run:\n%s", r.stdout)
	}
	if !strings.Contains(r.stderr, "async was requested but is not in effect: GOMAXPROCS < 2") {
		t.Fatalf("no reason on stderr:\n%s", r.stderr)
	}
}

// A sync run that silently runs async is the worst bug: the driver must
// refuse to report it (exit 3).
func TestSyncRunThatRanAsyncFails(t *testing.T) {
	dir := buildDir(t)
	r := run(t, filepath.Join(dir, "bench"), nil, "-n", "1000", "-r", "2", "--plugin-config", "async")
	if r.code != 3 {
		t.Fatalf("exit %d, want 3\n%s%s", r.code, r.stdout, r.stderr)
	}
	if strings.Contains(r.stdout, "ns/extraction") || !strings.Contains(r.stderr, "sync was requested but Extract ran on thread") {
		t.Fatalf("stdout %q stderr %q", r.stdout, r.stderr)
	}
}

func TestParallelPluginsAndAggregate(t *testing.T) {
	dir := buildDir(t)
	for _, exe := range []string{"bench", "bench-shared"} {
		r := run(t, filepath.Join(dir, exe), nil, "-n", "2000", "-r", "2", "-p", "2", "--work", "u64")
		if r.code != 0 {
			t.Fatalf("%s: exit %d: %s", exe, r.code, r.stderr)
		}
		seedLines(t, r, 2, "2000")
		if !regexp.MustCompile(`(?m)^# aggregate: 2 plugins, [0-9.e+]+ extractions/s, wall time [0-9.]+ ms$`).MatchString(r.stdout) {
			t.Fatalf("%s: no aggregate line:\n%s", exe, r.stdout)
		}
	}
}

func TestOversubscriptionWarning(t *testing.T) {
	dir := buildDir(t)
	// -p 3 spins three callers: more than the two CPUs of the reference
	// machine; on a bigger machine the warning is rightly absent.
	r := run(t, filepath.Join(dir, "bench"), nil, "-n", "500", "-r", "1", "-p", "3")
	if r.code != 0 {
		t.Fatalf("exit %d: %s", r.code, r.stderr)
	}
	cpus := countOnlineCPUs(t)
	warned := strings.Contains(r.stderr, "warning: this run spins 3 threads")
	if (cpus < 3) != warned {
		t.Fatalf("%d CPUs, warned=%v:\n%s", cpus, warned, r.stderr)
	}
}

func countOnlineCPUs(t *testing.T) int {
	out, err := exec.Command("getconf", "_NPROCESSORS_ONLN").Output()
	if err != nil {
		t.Fatal(err)
	}
	n, err := strconv.Atoi(strings.TrimSpace(string(out)))
	if err != nil {
		t.Fatal(err)
	}
	return n
}

func TestPinnedCallerAndFloors(t *testing.T) {
	dir := buildDir(t)
	r := runFloors(t, filepath.Join(dir, "bench"), nil, "-n", "2000", "-r", "2", "--cpus", "0", "--floors")
	if r.code != 0 {
		t.Fatalf("exit %d: %s", r.code, r.stderr)
	}
	seedLines(t, r, 1, "2000")
	for _, want := range []string{"pinned to CPU 0", "on CPU 0..0", "# floors", "C call through a pointer", "C->Go raw //export no-op", "cache-line round trip"} {
		if !strings.Contains(r.stdout, want) {
			t.Fatalf("no %q in:\n%s", want, r.stdout)
		}
	}
}

func TestWrongValuesFailTheRun(t *testing.T) {
	dir := buildDir(t)
	r := run(t, filepath.Join(dir, "bench"), nil, "-n", "1000", "-r", "2", "--warmup", "0", "--work", "u64",
		"--plugin-config", `{"corrupt_every":700}`)
	if r.code != 3 || !strings.Contains(r.stderr, "returned a wrong or missing value") {
		t.Fatalf("exit %d stderr %q", r.code, r.stderr)
	}
	r = run(t, filepath.Join(dir, "bench-shared"), nil, "-n", "100", "-r", "1", "--plugin-config", `{"work":"nope"}`)
	if r.code != 3 || !strings.Contains(r.stderr, "plugin_init") {
		t.Fatalf("exit %d stderr %q", r.code, r.stderr)
	}
}

func TestBadInputExitsTwo(t *testing.T) {
	dir := buildDir(t)
	cases := [][]string{
		{"-n", "abc"}, {"-n", "0"}, {"-n", "-3"}, {"-n", "99999999999999999999999"}, {"-n", "100000000000"},
		{"-p", "0"}, {"-p", "x"}, {"-p", "-1"}, {"-p", "100000"}, {"-p", "256"},
		{"--fields", "0"}, {"--fields", "100000"}, {"--bogus"}, {"-z"}, {"-n"}, {"--work", "sleep"},
		{"--cpus", "0-1", "-p", "3"}, {"--cpus", "4095"}, {"-r", "50", "-n", "10"},
	}
	for _, args := range cases {
		r := run(t, filepath.Join(dir, "bench"), nil, args...)
		if r.code != 2 {
			t.Errorf("%v: exit %d, want 2 (stderr %q)", args, r.code, r.stderr)
			continue
		}
		msg := strings.TrimRight(r.stderr, "\n")
		if strings.Count(msg, "\n") != 0 || !strings.HasPrefix(msg, "bench: ") || !strings.Contains(msg, "--help") {
			t.Errorf("%v: want a one-line message with a hint, got %q", args, r.stderr)
		}
		if r.stdout != "" {
			t.Errorf("%v: printed %q on stdout", args, r.stdout)
		}
	}
	if r := run(t, filepath.Join(dir, "bench"), nil, "-p", "256"); !strings.Contains(r.stderr, "255") {
		t.Errorf("-p 256 does not name the SDK's limit: %q", r.stderr)
	}
}

func TestHelp(t *testing.T) {
	dir := buildDir(t)
	for _, a := range []string{"-h", "--help"} {
		r := run(t, filepath.Join(dir, "bench"), nil, a)
		if r.code != 0 || !strings.Contains(r.stdout, "--async") || !strings.Contains(r.stdout, "Exit status") {
			t.Fatalf("%s: exit %d\n%s", a, r.code, r.stdout)
		}
	}
}

// bench-shared finds its library through an rpath relative to itself.
func TestSharedLinkage(t *testing.T) {
	dir := buildDir(t)
	out, err := exec.Command("ldd", filepath.Join(dir, "bench-shared")).Output()
	if err != nil || !strings.Contains(string(out), "libmock.so") {
		t.Fatalf("ldd bench-shared: %v\n%s", err, out)
	}
	out, err = exec.Command("ldd", filepath.Join(dir, "bench")).Output()
	if err != nil || strings.Contains(string(out), "libmock") {
		t.Fatalf("ldd bench names the plugin library: %v\n%s", err, out)
	}
	// moved together to another directory, it still runs
	tmp := t.TempDir()
	for _, f := range []string{"bench-shared", "libmock.so"} {
		data, err := os.ReadFile(filepath.Join(dir, f))
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(tmp, f), data, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	r := run(t, filepath.Join(tmp, "bench-shared"), nil, "-n", "100", "-r", "1")
	if r.code != 0 || !strings.Contains(r.stdout, filepath.Join(tmp, "libmock.so")) {
		t.Fatalf("moved bench-shared: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
}

// A caller that makes no progress ends the run with a diagnosis instead of
// hanging: here every extraction busy-loops for 30 ms of CPU time against
// a 1 s limit, so the one batch of 100 extractions burns 3 s of CPU, and
// its wall time can never be shorter than that, loaded machine or not. The
// cold extraction before it, timed alone, needs 30 ms: it ends within the
// limit even on a loaded machine (with 0.3 s a call and 10 calls, it did
// not at a load of 5, and the stall was found in the cold phase).
func TestStallTimeoutEndsAStuckRun(t *testing.T) {
	dir := buildDir(t)
	r := run(t, filepath.Join(dir, "bench"), nil, "-n", "100", "-r", "1", "--warmup", "0",
		"--extra-ns", "30000000", "--stall-timeout", "1")
	if r.code != 3 || !strings.Contains(r.stderr, "made no progress for") || !strings.Contains(r.stderr, "timed batch") {
		t.Fatalf("exit %d stderr %q", r.code, r.stderr)
	}
}

// The minimal reference driver: built beside bench, both modes, the seed
// line, and the mode it verified. No timing is asserted.
func TestMinimalDriver(t *testing.T) {
	dir := buildDir(t)
	for _, mode := range []string{"sync", "async"} {
		args := []string{"-n", "20000"}
		if mode == "async" {
			args = append(args, "-a")
		}
		r := run(t, filepath.Join(dir, "bench-minimal"), nil, args...)
		if r.code != 0 {
			t.Fatalf("bench-minimal %v: exit %d\n%s", args, r.code, r.stderr)
		}
		seedLines(t, r, 1, "20000")
		if want := "# mode: " + mode + " requested, " + mode + " in effect (verified"; !strings.Contains(r.stdout, want) {
			t.Fatalf("bench-minimal %v: no %q in\n%s", args, want, r.stdout)
		}
		if !regexp.MustCompile(`(?m)^# built: go1\.[0-9.]+, plugin-sdk-go v[0-9.]+$`).MatchString(r.stdout) {
			t.Fatalf("bench-minimal %v: no '# built: go..., plugin-sdk-go v...' line in\n%s", args, r.stdout)
		}
	}
	if r := run(t, filepath.Join(dir, "bench-minimal"), nil, "-n", "0"); r.code != 2 {
		t.Fatalf("bench-minimal -n 0: exit %d, want 2", r.code)
	}
}

// --anatomy: every step in both modes, the minimal driver beside bare, the
// per-round increments and the harness check, from one short run.
func TestAnatomy(t *testing.T) {
	dir := buildDir(t)
	r := run(t, filepath.Join(dir, "bench"), nil, "--anatomy", "-n", "4000", "-r", "2", "--warmup", "200", "--launches", "2", "--verbose")
	if r.code != 0 {
		t.Fatalf("exit %d\n%s", r.code, r.stderr)
	}
	// --verbose: the noise per cell, not summarised (two launches are too
	// few for an interval in each of the anatomy's cells)
	if n := strings.Count(r.stderr, " samples are too few for a 95% interval"); n < 10 || strings.Contains(r.stderr, "cells are too few") {
		t.Errorf("--verbose: %d too-few lines, want one per cell (10 and more), none summarised:\n%s", n, r.stderr)
	}
	for _, want := range []string{"# cgocost anatomy:", "harness check, bench --work bare / bench-minimal",
		"reading: sync: moving the event and the result adds", "reading: async:"} {
		if !strings.Contains(r.stdout, want) {
			t.Fatalf("no %q in\n%s", want, r.stdout)
		}
	}
	for _, mode := range []string{"sync", "async"} {
		for _, step := range []string{"bare", "event", "noop", "u64", "str"} {
			if !regexp.MustCompile(`(?m)^` + mode + ` +` + step + ` +\d`).MatchString(r.stdout) {
				t.Errorf("no %s %s row in\n%s", mode, step, r.stdout)
			}
		}
	}
	for _, bad := range [][]string{{"--anatomy", "--compare"}, {"--anatomy", "--fields", "2"}, {"--work", "sleepy"}} {
		if r := run(t, filepath.Join(dir, "bench"), nil, bad...); r.code != 2 {
			t.Errorf("%v: exit %d, want 2", bad, r.code)
		}
	}
}
