package integration

import (
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

var lifecycleLine = regexp.MustCompile(`(?m)^(alloc|reuse) plugin (\d+): \d+\.\d\d ns/iteration \(elapsed time \d+ns, iterations (\d+)\)$`)

func TestLifecycleBothModesBothLibraries(t *testing.T) {
	dir := buildDir(t)
	for _, exe := range []string{"bench", "bench-shared"} {
		for _, async := range []bool{false, true} {
			args := []string{"--scenario", "lifecycle", "-n", "40", "-r", "4", "--warmup", "5", "--work", "u64"}
			mode := "sync"
			if async {
				args = append(args, "-a")
				mode = "async"
			}
			r := run(t, filepath.Join(dir, exe), nil, args...)
			if r.code != 0 {
				t.Fatalf("%s %v: exit %d: %s", exe, args, r.code, r.stderr)
			}
			m := lifecycleLine.FindAllStringSubmatch(r.stdout, -1)
			if len(m) != 2 || m[0][1] != "alloc" || m[1][1] != "reuse" || m[0][3] != "40" || m[1][3] != "40" {
				t.Fatalf("%s %v: lifecycle lines %v in\n%s", exe, args, m, r.stdout)
			}
			if !strings.Contains(r.stdout, "# ratio reuse/alloc lib=") || !strings.Contains(r.stdout, "# reuse saves ") {
				t.Fatalf("%s: no saving reported:\n%s", exe, r.stdout)
			}
			if async && !strings.Contains(r.stdout, "every iteration starts and stops the SDK's async worker") {
				t.Fatalf("%s: async alloc does not say it restarts the worker:\n%s", exe, r.stdout)
			}
			d := parseDoc(t, run(t, filepath.Join(dir, exe), nil, append(args, "--format", "json")...).stdout)
			if len(d.Cells) != 2 || !strings.Contains(d.Cells[0].Name, "scenario=alloc") ||
				!strings.Contains(d.Cells[1].Name, "scenario=reuse") || d.Cells[0].Mode.InEffect != mode {
				t.Fatalf("%s: cells %+v", exe, d.Cells)
			}
		}
	}
}

// A pool of one shared by two threads: they take turns, never share.
func TestLifecyclePoolOfOneUnderTwoThreads(t *testing.T) {
	dir := buildDir(t)
	r := run(t, filepath.Join(dir, "bench"), nil, "--scenario", "lifecycle", "-p", "2", "--pool", "1",
		"-n", "200", "-r", "2", "--warmup", "10", "--work", "str")
	if r.code != 0 {
		t.Fatalf("exit %d: %s", r.code, r.stderr)
	}
	if n := len(lifecycleLine.FindAllString(r.stdout, -1)); n != 4 {
		t.Fatalf("%d lifecycle lines, want 4 (2 plugins x alloc, reuse):\n%s", n, r.stdout)
	}
	if !strings.Contains(r.stdout, "taken from a pool of 1") {
		t.Fatalf("pool size not reported:\n%s", r.stdout)
	}
	if r := run(t, filepath.Join(dir, "bench"), nil, "--pool", "2"); r.code != 2 {
		t.Fatalf("--pool without the lifecycle scenario: exit %d", r.code)
	}
	if r := run(t, filepath.Join(dir, "bench"), nil, "--scenario", "churn"); r.code != 2 {
		t.Fatalf("unknown scenario: exit %d", r.code)
	}
}

func TestMallocMissingOrUnknownExitsTwo(t *testing.T) {
	dir := buildDir(t)
	r := run(t, filepath.Join(dir, "bench"), []string{"CGOCOST_JEMALLOC=libcgocost-no-such-allocator.so.9"}, "--malloc", "jemalloc", "-n", "100")
	if r.code != 2 || !strings.Contains(r.stderr, "cannot find libcgocost-no-such-allocator.so.9") {
		t.Fatalf("missing allocator: exit %d stderr %q", r.code, r.stderr)
	}
	r = run(t, filepath.Join(dir, "bench"), nil, "--malloc", "hoard", "-n", "100")
	if r.code != 2 || strings.Count(strings.TrimSpace(r.stderr), "\n") != 0 {
		t.Fatalf("unknown allocator: exit %d stderr %q", r.code, r.stderr)
	}
}

// Each allocator the machine has is the one serving malloc in the run.
func TestAllocatorInEffectIsVerified(t *testing.T) {
	swapsMalloc(t)
	dir := buildDir(t)
	libs := map[string]string{"glibc": "libc.so", "jemalloc": "libjemalloc", "tcmalloc": "libtcmalloc", "mimalloc": "libmimalloc"}
	for name, file := range libs {
		for _, exe := range []string{"bench", "bench-shared"} {
			r := run(t, filepath.Join(dir, exe), nil, "--malloc", name, "-n", "500", "-r", "2", "--warmup", "10")
			if r.code == 2 && strings.Contains(r.stderr, "cannot find") {
				t.Logf("%s is not installed here: %s", name, r.stderr)
				continue
			}
			if r.code != 0 {
				t.Fatalf("%s --malloc %s: exit %d: %s", exe, name, r.code, r.stderr)
			}
			want := "# allocator: " + name + " (malloc served by "
			if !strings.Contains(r.stdout, want) || !strings.Contains(r.stdout, file) {
				t.Fatalf("%s --malloc %s: no %q naming %s:\n%s", exe, name, want, file, r.stdout)
			}
		}
	}
}

// The extraction loop allocates nothing on either side (noop work).
func TestExtractionLoopAllocatesNothing(t *testing.T) {
	swapsMalloc(t)
	dir := buildDir(t)
	for _, exe := range []string{"bench", "bench-shared"} {
		for _, a := range []string{"", "-a"} {
			args := []string{"-n", "20000", "-r", "4", "--warmup", "1000", "--count-allocs"}
			if a != "" {
				args = append(args, a)
			}
			r := run(t, filepath.Join(dir, exe), nil, args...)
			if r.code != 0 {
				t.Fatalf("%s %v: exit %d: %s", exe, args, r.code, r.stderr)
			}
			if !strings.Contains(r.stdout, "# c allocations: 0 mallocs, 0 frees over the timed batches") {
				t.Fatalf("%s %v: C-side allocations in the extraction loop:\n%s", exe, args, r.stdout)
			}
			if !strings.Contains(r.stdout, "# go allocations: 0 objects, 0 bytes over the timed batches") {
				t.Fatalf("%s %v: Go-side allocations in the extraction loop:\n%s", exe, args, r.stdout)
			}
		}
	}
}

// The counter sees allocations where there are some: creating instances.
func TestCountAllocsSeesLifecycleAllocations(t *testing.T) {
	swapsMalloc(t)
	dir := buildDir(t)
	r := run(t, filepath.Join(dir, "bench"), nil, "--scenario", "lifecycle", "-n", "50", "-r", "2", "--warmup", "5", "--count-allocs")
	if r.code != 0 {
		t.Fatalf("exit %d: %s", r.code, r.stderr)
	}
	m := regexp.MustCompile(`# alloc: C-side (\d+\.\d+) mallocs`).FindStringSubmatch(r.stdout)
	if m == nil || m[1] == "0.000" {
		t.Fatalf("no C-side allocations counted for alloc:\n%s", r.stdout)
	}
}
