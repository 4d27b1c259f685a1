package integration

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// A library that hangs while it is loaded is named with the call it hangs
// in: plugin_init, the first extraction, plugin_destroy of the first
// instance (it used to be "hung while loading a plugin library" for all).
func TestLoadHangNamesTheCall(t *testing.T) {
	t.Parallel() // it waits for a hang to be cut: beside the other waiting tests
	dir := buildDir(t)
	src := "#include <unistd.h>\n" + fakePlugin("3.0.0", `[{"name":"x.val","type":"uint64","desc":"d"}]`)
	cases := []struct{ from, to, want string }{
		{"void plugin_destroy(void *s) { free(s); }", "void plugin_destroy(void *s) { free(s); for (;;) pause(); }",
			"in plugin_destroy of its first instance"},
		{"*rc = 0; return malloc(1); }", "*rc = 0; for (;;) pause(); }", "in plugin_init of its first instance"},
		{"(void)s; (void)evt;", "(void)s; (void)evt; for (;;) pause();", "in the first extraction"},
	}
	for _, c := range cases {
		if !strings.Contains(src, c.from) {
			t.Fatalf("the fake plugin's source has no %q", c.from)
		}
		lib := buildSharedLib(t, "hang", strings.Replace(src, c.from, c.to, 1))
		r := run(t, filepath.Join(dir, "bench-host"), nil, "--plugin", lib, "--field", "x.val", "-n", "200",
			"--stall-timeout", "2")
		if r.code != 3 || !strings.Contains(r.stderr, "hung while loading "+lib+", "+c.want) {
			t.Errorf("%s: exit %d, want 3 and %q named:\n%s", c.want, r.code, c.want, r.stderr)
		}
	}
}

// A C plugin whose extraction blocks after the load: the watchdog ends the
// run, and its message names neither an async worker nor goroutine stacks
// (there is no Go in the process); sync runs of the Go mock get no async
// hint either. With -a the hint and the stack file (in $TMPDIR, a fresh
// name) are there.
func TestStallMessageFitsThePlugin(t *testing.T) {
	t.Parallel() // it waits for a hang to be cut: beside the other waiting tests
	dir := buildDir(t)
	src := "#include <unistd.h>\nstatic int calls;\n" + fakePlugin("3.0.0", `[{"name":"x.val","type":"uint64","desc":"d"}]`)
	from := "(void)s; (void)evt;"
	if !strings.Contains(src, from) {
		t.Fatalf("the fake plugin's source has no %q", from)
	}
	lib := buildSharedLib(t, "blocks", strings.Replace(src, from, from+" if (++calls > 1) for (;;) pause();", 1))
	r := run(t, filepath.Join(dir, "bench-host"), nil, "--plugin", lib, "--field", "x.val", "-n", "200",
		"--warmup", "0", "--stall-timeout", "1")
	if r.code != 3 || !strings.Contains(r.stderr, "made no progress for") {
		t.Fatalf("exit %d, want 3 and the stall named:\n%s", r.code, r.stderr)
	}
	for _, word := range []string{"async", "goroutine", "Go runtime"} {
		if strings.Contains(r.stderr, word) {
			t.Errorf("a C plugin's stall mentions %q:\n%s", word, r.stderr)
		}
	}
	tmp := t.TempDir()
	for _, mode := range []string{"sync", "async"} {
		args := []string{"-n", "10", "-r", "1", "--warmup", "0", "--extra-ns", "300000000", "--stall-timeout", "1"}
		if mode == "async" {
			args = append(args, "-a")
		}
		r := run(t, filepath.Join(dir, "bench"), []string{"TMPDIR=" + tmp}, args...)
		if r.code != 3 || !strings.Contains(r.stderr, "made no progress for") {
			t.Fatalf("%s: exit %d, want 3 and the stall named:\n%s", mode, r.code, r.stderr)
		}
		if hint := strings.Contains(r.stderr, "async worker"); hint != (mode == "async") {
			t.Errorf("%s: the async hint is there: %v, want %v:\n%s", mode, hint, mode == "async", r.stderr)
		}
		if !strings.Contains(r.stderr, "goroutine stacks: "+tmp+"/cgocost-stall-") {
			t.Errorf("%s: no stack file in $TMPDIR named:\n%s", mode, r.stderr)
		}
	}
	files, _ := filepath.Glob(filepath.Join(tmp, "cgocost-stall-*.txt"))
	if len(files) != 2 {
		t.Errorf("stack files in $TMPDIR: %v, want 2", files)
	}
}

// --events from a pipe (<(cmd)) is read once by the parent: every launch
// and every library of one process reads all of it (the second launch, or
// the second library, used to find the pipe spent: "the file is empty",
// exit 2).
func TestEventsFromAPipeReadOnce(t *testing.T) {
	dir := buildDir(t)
	host := filepath.Join(dir, "bench-host")
	cmock := filepath.Join(dir, "libcmock.so")
	for _, c := range []struct {
		args           string
		launches, libs int
	}{
		{"--plugin " + cmock + " --launches 2", 2, 1},
		{"--plugin " + cmock + " --plugin " + cmock, 1, 2},
	} {
		cmd := exec.Command("bash", "-c", host+" -n 500 -r 2 --format json --events <(seq 1 7) "+c.args)
		var stderr strings.Builder
		cmd.Stderr = &stderr
		out, err := cmd.Output()
		if err != nil {
			t.Fatalf("%s: %v\n%s", c.args, err, stderr.String())
		}
		var d struct {
			Cells []struct {
				Launches []struct {
					Libraries []struct {
						Role string `json:"role"`
					} `json:"libraries"`
				} `json:"launches"`
			} `json:"cells"`
		}
		if err := json.Unmarshal(out, &d); err != nil || len(d.Cells) != 1 {
			t.Fatalf("%s: %v, %d cells\n%s", c.args, err, len(d.Cells), out)
		}
		if got := len(d.Cells[0].Launches); got != c.launches {
			t.Errorf("%s: %d launches, want %d", c.args, got, c.launches)
		}
		for _, l := range d.Cells[0].Launches {
			if len(l.Libraries) != c.libs {
				t.Errorf("%s: %d libraries in a launch, want %d", c.args, len(l.Libraries), c.libs)
			}
		}
	}
}

// An address-space limit too small for the Go runtime to start is said in
// one line, exit 2, before the runtime's 17-line fatal error; from a
// --plugin child it is the launch's failure, one line, exit 3.
func TestAddressSpaceLimitInOneLine(t *testing.T) {
	if os.Getenv("CGOCOST_SANITIZER") == "address" {
		t.Skip("ASan reserves terabytes of address space itself")
	}
	dir := buildDir(t)
	for _, c := range []struct {
		cmd  string
		code int
	}{
		{filepath.Join(dir, "bench") + " -n 100", 2},
		{filepath.Join(dir, "bench-shared") + " -n 100", 2},
		{filepath.Join(dir, "bench-host") + " --plugin " + filepath.Join(dir, "libmock.so") + " -n 100", 3},
	} {
		cmd := exec.Command("bash", "-c", "ulimit -v 300000 && exec "+c.cmd)
		var stdout, stderr strings.Builder
		cmd.Stdout, cmd.Stderr = &stdout, &stderr
		err := cmd.Run()
		code := -1
		if e, ok := err.(*exec.ExitError); ok {
			code = e.ExitCode()
		}
		lines := strings.Split(strings.TrimRight(stderr.String(), "\n"), "\n")
		if code != c.code || len(lines) != 1 || !strings.Contains(lines[0], "ulimit -v allows 292 MiB") {
			t.Errorf("%s: exit %d (want %d), stderr:\n%s", c.cmd, code, c.code, stderr.String())
		}
		if stdout.Len() != 0 {
			t.Errorf("%s: measured something under a limit it cannot run in: %q", c.cmd, stdout.String())
		}
	}
}

// A comparison that compared nothing (bench against bench-shared launch by
// launch, whose cells are named by their lib=) ends with exit 2, and its
// report names no verdict: it printed "verdict: no regression (exit
// status 0)" beside the exit 2.
func TestComparedNothingNamesNoStatus(t *testing.T) {
	dir := buildDir(t)
	r := run(t, filepath.Join(dir, "bench"), nil, "--against", filepath.Join(dir, "bench-shared"), "--interleave", "launches",
		"-n", "2000")
	if r.code != 2 || !strings.Contains(r.stderr, "none of its cells is one of this build's: nothing was compared") {
		t.Errorf("exit %d (want 2, nothing compared), stderr:\n%s", r.code, r.stderr)
	}
	if strings.Contains(r.stdout, "exit status") {
		t.Errorf("the report names an exit status, the run returned %d:\n%s", r.code, r.stdout)
	}
}

// A paired run of one generation (--time 0.001: its processes alone take
// longer) has no interval over generations: the table says n/a, never
// "nan", and no crossover is concluded from it (issue 36, defect 10).
func TestCompareOneGenerationSaysNA(t *testing.T) {
	r := run(t, filepath.Join(buildDir(t), "bench"), nil, "--compare", "--time", "0.001")
	if r.code != 0 {
		t.Fatalf("exit %d: %s", r.code, r.stderr)
	}
	for _, bad := range []string{"nan", "async would beat sync only where"} {
		if strings.Contains(strings.ToLower(r.stdout), bad) {
			t.Errorf("one generation printed %q:\n%s", bad, r.stdout)
		}
	}
	for _, want := range []string{"[n/a]", "no interval and no p from fewer than 6 generations",
		"no conclusion on where async would beat sync from 1 generation (6 are needed)"} {
		if !strings.Contains(r.stdout, want) {
			t.Errorf("no %q in:\n%s", want, r.stdout)
		}
	}
}

// --judge of two samples whose p is just below 0.05 prints it with the
// digits that show it: never "p = 0.05 < 0.05" (issue 36, defect 10).
func TestJudgePBesideAlpha(t *testing.T) {
	tmp := t.TempDir()
	a, b := filepath.Join(tmp, "a.txt"), filepath.Join(tmp, "b.txt")
	os.WriteFile(a, []byte("100\n101\n102\n103\n104\n105\n106\n107\n108\n109\n110\n111\n"), 0o644)
	os.WriteFile(b, []byte("103.09\n104.18\n105\n106.09\n107.18\n108\n109.09\n110.18\n111\n112.09\n113.18\n114\n"), 0o644)
	r := run(t, filepath.Join(buildDir(t), "bench"), nil, "--judge", a, b)
	if strings.Contains(r.stdout, "p = 0.05 <") || !strings.Contains(r.stdout, "p = 0.049 < 0.05") {
		t.Errorf("exit %d, want p = 0.049 < 0.05 in: %s%s", r.code, r.stdout, r.stderr)
	}
}

// --against an executable that only rejects bench's arguments
// (bench-minimal, the one-file textbook loop) is said to have refused them,
// with its own message, not to have crashed (issue 36, defect 10).
func TestAgainstRefusedArgumentsIsNoCrash(t *testing.T) {
	dir := buildDir(t)
	r := run(t, filepath.Join(dir, "bench"), nil, "-n", "1000", "--against", filepath.Join(dir, "bench-minimal"))
	if r.code != 3 || strings.Contains(r.stderr, "crashed") || strings.Contains(r.stderr, "Go runtime ended") ||
		!strings.Contains(r.stderr, "it refused its arguments (exit 2, no Go runtime error): usage: bench-minimal") {
		t.Errorf("exit %d, want 3 and its refusal named: %s", r.code, r.stderr)
	}
}
