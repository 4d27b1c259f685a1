package integration

// What a hostile or unlucky user meets: write errors on stdout, signals in
// the middle of a run, FIFOs and devices, corrupt samples, bad paths. Every
// case is refused with its exit status and a one-line message, before
// anything is measured where that can be known, and no process of the run
// outlives it.

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"cgocost/tests/testbuild"
)

// runTimeout is run with a deadline: a hang fails the test instead of
// blocking it.
func runTimeout(t *testing.T, d time.Duration, exe string, args ...string) result {
	t.Helper()
	r := testbuild.Run{Dir: t.TempDir(), Timeout: d}.Exec(t, exe, args...)
	return result{r.Stdout, r.Stderr, r.Code}
}

// oneLine checks a bad-input refusal: the status, one line naming the
// problem with the hint to --help, nothing on stdout.
func oneLine(t *testing.T, r result, code int, want string, args []string) {
	t.Helper()
	msg := strings.TrimRight(r.stderr, "\n")
	if r.code != code || strings.Count(msg, "\n") != 0 || !strings.Contains(msg, want) {
		t.Errorf("%v: exit %d (want %d), stderr %q (want one line with %q)", args, r.code, code, r.stderr, want)
	}
	if code == 2 && !strings.Contains(msg, "--help") {
		t.Errorf("%v: no hint to --help in %q", args, msg)
	}
	if r.stdout != "" {
		t.Errorf("%v: printed %q on stdout", args, r.stdout)
	}
}

// A report that could not be written is a failed run (exit 3), in every
// format, for --judge and --help too, and with stdout closed.
func TestWriteErrorsOnStdout(t *testing.T) {
	dir := buildDir(t)
	bench := filepath.Join(dir, "bench")
	tmp := t.TempDir()
	a, b := filepath.Join(tmp, "a.txt"), filepath.Join(tmp, "b.txt")
	os.WriteFile(a, []byte("100\n101\n102\n"), 0o644)
	os.WriteFile(b, []byte("100\n101\n103\n"), 0o644)
	cases := [][]string{
		{"-n", "2000", "-r", "2"},
		{"-n", "2000", "-r", "2", "--format", "json"},
		{"-n", "2000", "-r", "2", "--format", "gobench"},
		{"-n", "2000", "-r", "2", "--launches", "2"},
		{"--judge", a, b},
		{"--help"},
	}
	for _, args := range cases {
		for _, redirect := range []string{">/dev/full", "1>&-"} {
			cmd := exec.Command("sh", append([]string{"-c", `exec "$0" "$@" ` + redirect, bench}, args...)...)
			var errb bytes.Buffer
			cmd.Stderr = &errb
			err := cmd.Run()
			var ee *exec.ExitError
			if !errors.As(err, &ee) || ee.ExitCode() != 3 {
				t.Errorf("%v %s: %v, want exit 3 (stderr %q)", args, redirect, err, errb.String())
				continue
			}
			// closed stdout is seen at start-up; a write that fails says so
			if !strings.Contains(errb.String(), "cannot write") &&
				!(redirect == "1>&-" && strings.Contains(errb.String(), "stdout is closed")) {
				t.Errorf("%v %s: stderr %q says nothing of stdout", args, redirect, errb.String())
			}
		}
	}
}

// processesOf lists the processes whose environment carries mark.
func processesOf(mark string) []int {
	var pids []int
	entries, _ := os.ReadDir("/proc")
	for _, e := range entries {
		pid, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		env, err := os.ReadFile(filepath.Join("/proc", e.Name(), "environ"))
		if err == nil && bytes.Contains(env, []byte(mark)) {
			pids = append(pids, pid)
		}
	}
	return pids
}

// SIGINT, SIGTERM and SIGHUP in any parent kill and reap its running child
// launch, remove a half-written baseline and exit 128 + the signal with one
// line saying what was interrupted; no process of the run is left, and a
// baseline saved before is intact.
func TestSignalsLeaveNoProcess(t *testing.T) {
	unignore(t, syscall.SIGINT, syscall.SIGTERM, syscall.SIGHUP)
	dir := buildDir(t)
	bench := filepath.Join(dir, "bench")
	parents := map[string][]string{
		"launches":   {"--launches", "50"},
		"compare":    {"--compare", "--launches", "20"},
		"against":    {"--against", bench, "--launches", "20"},
		"allocators": {"--allocators", "glibc,jemalloc", "--launches", "20"},
	}
	signals := map[string]syscall.Signal{"SIGINT": syscall.SIGINT, "SIGTERM": syscall.SIGTERM, "SIGHUP": syscall.SIGHUP}
	for name, extra := range parents {
		if name == "allocators" && os.Getenv("CGOCOST_SANITIZER") == "address" {
			continue // ASan serves malloc itself: this one runs in the UBSan-only build
		}
		for sname, sig := range signals {
			tmp := t.TempDir()
			keep := filepath.Join(tmp, "base.json")
			os.WriteFile(keep, []byte("precious"), 0o644)
			mark := fmt.Sprintf("CGOCOST_TEST_RUN=%s-%s-%d", name, sname, time.Now().UnixNano())
			// A launch of 4e9 calls takes minutes on any machine, so the
			// run is still running when the signal comes, however slow or
			// fast the machine: the signal is sent once a child launch
			// exists, never after a deadline.
			args := append([]string{"-n", "1000000000", "-r", "4", "--warmup", "1000", "--save-baseline", keep}, extra...)
			cmd, errb, children := startMarked(t, bench, mark, 1, 0, args...)
			if len(children) == 0 {
				cmd.Process.Kill()
				cmd.Wait()
				t.Fatalf("%s %s: no child launch started within startMarked's deadline; stderr %q", name, sname, errb.String())
			}
			cmd.Process.Signal(sig)
			err := cmd.Wait()
			var ee *exec.ExitError
			if !errors.As(err, &ee) || ee.ExitCode() != 128+int(sig) {
				t.Errorf("%s %s: %v, want exit %d; stderr %q", name, sname, err, 128+int(sig), errb.String())
			}
			msg := strings.TrimRight(errb.String(), "\n")
			last := msg[strings.LastIndex(msg, "\n")+1:]
			if !strings.HasPrefix(last, "bench: interrupted by "+sname+" during launch ") {
				t.Errorf("%s %s: last line %q", name, sname, last)
			}
			var left []int
			for wait := 0; wait < 50; wait++ {
				if left = processesOf(mark); len(left) == 0 {
					break
				}
				time.Sleep(40 * time.Millisecond)
			}
			if len(left) != 0 {
				t.Errorf("%s %s: processes of the run left: %v", name, sname, left)
				for _, pid := range left {
					syscall.Kill(pid, syscall.SIGKILL)
				}
			}
			if data, _ := os.ReadFile(keep); string(data) != "precious" {
				t.Errorf("%s %s: the old baseline changed: %q", name, sname, data)
			}
			if files, _ := os.ReadDir(tmp); len(files) != 1 {
				t.Errorf("%s %s: files left beside the baseline: %v", name, sname, files)
			}
		}
	}
}

// unignore gives the children started during the test the default action
// of each of sigs that this process was started ignoring: bench keeps a
// signal its caller ignores ignored (nohup, a shell's background job;
// c/base/interrupt.c), so under `nohup make test` a SIGHUP sent to it did
// nothing and the test waited for a launch of minutes, then its timeout.
// A signal this process handles is reset to the default in a child it
// execs, where an ignored one stays ignored.
func unignore(t *testing.T, sigs ...syscall.Signal) {
	t.Helper()
	for _, s := range sigs {
		if signal.Ignored(s) {
			c := make(chan os.Signal, 1)
			signal.Notify(c, s)
			t.Cleanup(func() { signal.Stop(c) })
			t.Logf("%v was ignored by this process: handled during the test, so that its children get the default", s)
		}
	}
}

// makeFIFO makes a named FIFO nobody writes to, dir/name.
func makeFIFO(t *testing.T, dir, name string) string {
	t.Helper()
	fifo := filepath.Join(dir, name)
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Fatal(err)
	}
	return fifo
}

// A named FIFO nobody writes to, a device or a directory is refused at
// once; an anonymous pipe (a shell's <(cmd)) is read.
func TestNonRegularInputFiles(t *testing.T) {
	dir := buildDir(t)
	bench := filepath.Join(dir, "bench")
	tmp := t.TempDir()
	fifo := makeFIFO(t, tmp, "fifo")
	a := filepath.Join(tmp, "a.txt")
	os.WriteFile(a, []byte("100\n101\n102\n"), 0o644)
	cases := []struct {
		args []string
		want string
	}{
		{[]string{"--baseline", fifo}, "not a regular file (a named FIFO)"},
		{[]string{"--judge", a, fifo}, "not a regular file (a named FIFO)"},
		{[]string{"--judge", fifo, a}, "not a regular file (a named FIFO)"},
		{[]string{"--baseline", "/dev/zero"}, "not a regular file (a device)"},
		{[]string{"--judge", a, "/dev/zero"}, "not a regular file (a device)"},
		{[]string{"--baseline", tmp}, "not a regular file (a directory)"},
	}
	for _, c := range cases {
		oneLine(t, runTimeout(t, 20*time.Second, bench, c.args...), 2, c.want, c.args)
	}
	r := exec.Command("bash", "-c", `"$0" --judge <(seq 100 110) <(seq 200 210)`, bench)
	if err := r.Run(); err == nil || r.ProcessState.ExitCode() != 1 {
		t.Errorf("--judge on two process substitutions: %v, want exit 1", err)
	}
}

// --judge on a million lines a side ends (the interval there is the
// distribution-free one); an empty file and hex are bad input.
func TestJudgeScalesAndRefusesBadFiles(t *testing.T) {
	dir := buildDir(t)
	bench := filepath.Join(dir, "bench")
	tmp := t.TempDir()
	write := func(name string, n int, scale float64) string {
		var b strings.Builder
		for i := 0; i < n; i++ {
			fmt.Fprintf(&b, "%.3f\n", scale*(100+float64((i*7919)%1000)/100))
		}
		p := filepath.Join(tmp, name)
		if err := os.WriteFile(p, []byte(b.String()), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	base, slow := write("base.txt", 1000000, 1.0), write("slow.txt", 1000000, 1.1)
	r := runTimeout(t, 5*time.Minute, bench, "--judge", base, slow)
	if r.code != 1 || !strings.Contains(r.stdout, "Performance has regressed.") || !strings.Contains(r.stdout, "+10.0") {
		t.Fatalf("1M lines: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	empty := filepath.Join(tmp, "empty.txt")
	os.WriteFile(empty, nil, 0o644)
	hex := filepath.Join(tmp, "hex.txt")
	os.WriteFile(hex, []byte("0x10\n16\n"), 0o644)
	small := write("small.txt", 10, 1.0)
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"--judge", small, empty}, "0 samples, a verdict needs at least 2"},
		{[]string{"--judge", empty, small}, "0 samples"},
		{[]string{"--judge", small, hex}, "line 1 is not a positive decimal number: '0x10'"},
		{[]string{"--judge", small, small, "-a"}, "--judge measures nothing"},
		{[]string{"--judge", small, small, "--compare"}, "--judge measures nothing"},
	} {
		oneLine(t, runTimeout(t, time.Minute, bench, c.args...), 2, c.want, c.args)
	}
}

// A saved baseline with its samples edited: every corruption is bad input
// found before anything is measured (stdout stays empty).
func TestCorruptBaselineSamples(t *testing.T) {
	dir := buildDir(t)
	bench := filepath.Join(dir, "bench")
	tmp := t.TempDir()
	good := filepath.Join(tmp, "good.json")
	args := []string{"-n", "1000", "-r", "2", "--warmup", "100", "--launches", "2"}
	if r := run(t, bench, nil, append(args, "--save-baseline", good)...); r.code != 0 {
		t.Fatalf("save: exit %d: %s", r.code, r.stderr)
	}
	data, _ := os.ReadFile(good)
	text := string(data)
	at := strings.Index(text, `"samples": [`)
	if at < 0 {
		t.Fatalf("no samples in %s", text)
	}
	for _, c := range []struct{ insert, want string }{
		{`"7", `, "not an array of numbers"}, {`null, `, "samples[0] is null"}, {`true, `, "not an array of numbers"},
		{`{}, `, "not an array of numbers"}, {`[], `, "not an array of numbers"}, {`0, `, "samples[0] is zero"},
		{`-12.5, `, "samples[0] is negative"},
	} {
		p := filepath.Join(tmp, "bad.json")
		edited := text[:at+len(`"samples": [`)] + c.insert + text[at+len(`"samples": [`):]
		os.WriteFile(p, []byte(edited), 0o644)
		oneLine(t, run(t, bench, nil, append(args, "--baseline", p)...), 2, c.want, []string{c.insert})
	}
	// the version as found
	p := filepath.Join(tmp, "v.json")
	os.WriteFile(p, []byte(strings.Replace(text, `"schema_version": 3,`, `"schema_version": 1.5,`, 1)), 0o644)
	oneLine(t, run(t, bench, nil, append(args, "--baseline", p)...), 2, "schema_version 1.5, this cgocost reads 1 to 3", []string{"1.5"})
	// a version 1 baseline (before the paired section) is still read
	os.WriteFile(p, []byte(strings.Replace(text, `"schema_version": 3,`, `"schema_version": 1,`, 1)), 0o644)
	if r := run(t, bench, nil, append(args, "--baseline", p)...); !verdict(r.code) {
		t.Errorf("a version 1 baseline: exit %d: %s", r.code, r.stderr)
	}
	os.WriteFile(p, []byte(strings.Replace(text, `"schema_version": 3,`, `"schema_version": 4,`, 1)), 0o644)
	oneLine(t, run(t, bench, nil, append(args, "--baseline", p)...), 2, "schema_version 4, this cgocost reads 1 to 3", []string{"4"})
	// a baseline that names no cell this run measures compares nothing
	oneLine(t, run(t, bench, nil, append(args, "--work", "u64", "--baseline", good)...), 2,
		"nothing would be compared", []string{"--work u64"})
	// an --against build none of whose cells is this build's, launch by
	// launch (paired, cells are paired by position: archive vs shared)
	// (12 launches: the fewest a verdict against another build takes)
	r := run(t, bench, nil, "-n", "1000", "-r", "2", "--warmup", "100", "--launches", "12", "--interleave", "launches",
		"--against", filepath.Join(dir, "bench-shared"))
	if r.code != 2 || !strings.Contains(r.stderr, "--against") || !strings.Contains(r.stderr, "nothing was compared") {
		t.Errorf("--against bench-shared: exit %d: %s", r.code, r.stderr)
	}
}

// Paths that cannot work are bad input before anything is measured.
func TestBadPathsBeforeMeasuring(t *testing.T) {
	dir := buildDir(t)
	bench := filepath.Join(dir, "bench")
	tmp := t.TempDir()
	loop := filepath.Join(tmp, "loop")
	os.Symlink(loop+"2", loop)
	os.Symlink(loop, loop+"2")
	notExe := filepath.Join(tmp, "script")
	os.WriteFile(notExe, []byte("#!/bin/sh\n"), 0o644)
	for _, c := range []struct {
		args []string
		want string
	}{
		// (12 launches: with fewer, the budget of a verdict is refused first)
		{[]string{"--launches", "12", "--against", tmp}, "is not an executable file (a directory)"},
		{[]string{"--launches", "12", "--against", notExe}, "is not an executable file"},
		{[]string{"--launches", "12", "--against", filepath.Join(tmp, "missing")}, "(it does not exist)"},
		{[]string{"--launches", "12", "--against", loop}, "(Too many levels of symbolic links)"},
		{[]string{"--plugin", tmp}, "not a regular file (a directory)"},
		{[]string{"--save-baseline", ""}, "an empty file name"},
		{[]string{"--save-baseline", "/nonexistent/dir/x.json"}, "No such file or directory"},
		{[]string{"--save-baseline", tmp}, "is a directory"},
		{[]string{"--save-baseline", "/proc/cgocost.json"}, "cannot create a file in /proc"},
		{[]string{"--launches", "1", "--save-baseline", tmp + "/"}, "is a directory"},
		{[]string{"--allocators", "glibc,,jemalloc"}, "has an empty name"},
		{[]string{"--plugin", strings.Repeat("a", 100000)}, "arguments too long for a launch of"},
		{[]string{"--help=foo"}, "option --help takes no argument"},
	} {
		args := append([]string{"-n", "3000000", "--launches", "3"}, c.args...)
		oneLine(t, runTimeout(t, time.Minute, bench, args...), 2, c.want, c.args)
	}
}

// --save-baseline on a device node or a FIFO is bad input found before
// anything is measured, and the node stays what it was: as root, a save to
// /dev/null once replaced the device with a file. The device is a private
// copy of /dev/null's node (char 1:3), which mknod makes as root only.
func TestSaveBaselineKeepsDevicesAndFIFOs(t *testing.T) {
	dir := buildDir(t)
	bench := filepath.Join(dir, "bench")
	tmp := t.TempDir()
	fifo := makeFIFO(t, tmp, "fifo")
	nodes := map[string]uint32{fifo: syscall.S_IFIFO}
	dev := filepath.Join(tmp, "null")
	if err := syscall.Mknod(dev, syscall.S_IFCHR|0o666, 1<<8|3); err == nil {
		nodes[dev] = syscall.S_IFCHR
	} else {
		t.Logf("mknod: %v: the device case is not run", err)
	}
	for path, typ := range nodes {
		want := "not a regular file (a named FIFO)"
		if typ == syscall.S_IFCHR {
			want = "not a regular file (a device)"
		}
		args := []string{"-n", "3000000", "--launches", "3", "--save-baseline", path}
		oneLine(t, runTimeout(t, time.Minute, bench, args...), 2, want, args)
		var st syscall.Stat_t
		if err := syscall.Lstat(path, &st); err != nil || st.Mode&syscall.S_IFMT != typ {
			t.Errorf("%s: mode %o after the refusal (%v), want type %o", path, st.Mode, err, typ)
		}
	}
	if files, _ := os.ReadDir(tmp); len(files) != len(nodes) {
		t.Errorf("files left beside the nodes: %v", files)
	}
}

// A file-size limit (ulimit -f) fails the save and the report with a
// message and exit 3; it never kills the driver (SIGXFSZ, exit 153) and
// leaves no temporary file beside the baseline.
func TestFileSizeLimitIsAFailedWrite(t *testing.T) {
	dir := buildDir(t)
	bench := filepath.Join(dir, "bench")
	tmp := t.TempDir()
	for _, c := range []struct {
		limitKB int
		args    string
		want    string
	}{
		{8, "-n 2000 --save-baseline b.json > out.txt", "--save-baseline: b.json: cannot write temporary file: File too large"},
		{2, "-n 2000 --format json > out.json", "cannot write the report to stdout: File too large"},
	} {
		cmd := exec.Command("bash", "-c", fmt.Sprintf(`ulimit -f %d; "$0" %s`, c.limitKB, c.args), bench)
		cmd.Dir = tmp
		var errb strings.Builder
		cmd.Stderr = &errb
		err := cmd.Run()
		code := -1
		if cmd.ProcessState != nil {
			code = cmd.ProcessState.ExitCode()
		}
		if code != 3 || !strings.Contains(errb.String(), c.want) {
			t.Errorf("ulimit -f %d; bench %s: exit %d (%v), stderr %q; want exit 3 and %q", c.limitKB, c.args, code, err, errb.String(), c.want)
		}
	}
	files, _ := os.ReadDir(tmp)
	for _, f := range files {
		if strings.HasPrefix(f.Name(), ".") || f.Name() == "b.json" {
			t.Errorf("left behind: %s", f.Name())
		}
	}
}

// A save that fails after a multi-launch measurement keeps the report: the
// directory disappears while the launches run.
func TestFailedSaveKeepsTheReport(t *testing.T) {
	sub := filepath.Join(t.TempDir(), "gone")
	os.Mkdir(sub, 0o755)
	r := runRemovingDir(t, sub, "-n", "200000", "-r", "4", "--warmup", "1000", "--launches", "4",
		"--save-baseline", filepath.Join(sub, "base.json"))
	if r.code != 3 || !strings.Contains(r.stderr, "--save-baseline: ") {
		t.Fatalf("exit %d, want exit 3 with the save's error: %s", r.code, r.stderr)
	}
	seedLines(t, r, 1, "800000")
	if !strings.Contains(r.stdout, "# time:") {
		t.Fatalf("the report was thrown away:\n%s", r.stdout)
	}
}

// --count-allocs with --allocators: each launch preloads the counter and
// its allocator; every cell counts.
func TestCountAllocsWithAllocators(t *testing.T) {
	swapsMalloc(t)
	dir := buildDir(t)
	r := run(t, filepath.Join(dir, "bench"), nil, "-n", "1000", "-r", "2", "--warmup", "100", "--launches", "2",
		"--count-allocs", "--allocators", "glibc,jemalloc", "--scenario", "lifecycle", "--format", "json")
	if r.code != 0 {
		t.Fatalf("exit %d: %s", r.code, r.stderr)
	}
	if n := strings.Count(r.stdout, `"c_mallocs_per_iteration": null`); n != 0 {
		t.Fatalf("%d cells without C allocation counts:\n%s", n, r.stdout)
	}
	if n := strings.Count(r.stdout, `"c_mallocs_per_iteration": `); n != 4 {
		t.Fatalf("%d cells with C allocation counts, want 4 (2 allocators x alloc, reuse)", n)
	}
}

// An --against wrapper that leaves a process behind (`sleep … &`, then
// exec bench) neither holds the run up (the background process keeps the
// launch's stdout open) nor outlives it, launch by launch or paired.
func TestAgainstWrapperLeavesNothing(t *testing.T) {
	t.Parallel() // it waits for a hang to be cut: beside the other waiting tests
	dir := buildDir(t)
	bench := filepath.Join(dir, "bench")
	marker := fmt.Sprintf("%d.25", 4000+os.Getpid()%1000)
	wrapper := filepath.Join(t.TempDir(), "wrapper.sh")
	script := fmt.Sprintf("#!/bin/sh\nsleep %s &\nexec %s \"$@\"\n", marker, bench)
	if err := os.WriteFile(wrapper, []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	for _, args := range [][]string{
		{"-n", "2000", "--against", wrapper, "--interleave", "launches", "--launches", "12"},
		{"-n", "2000", "--against", wrapper, "--time", "2.4", "--launches", "12"},
	} {
		start := time.Now()
		r := runTimeout(t, 2*time.Minute, bench, args...)
		if !verdict(r.code) {
			t.Errorf("%v: exit %d: %s", args, r.code, r.stderr)
		}
		if d := time.Since(start); d > time.Minute {
			t.Errorf("%v: took %v: the wrapper's background process held the run", args, d)
		}
		time.Sleep(200 * time.Millisecond)
		if out, err := exec.Command("pgrep", "-f", "sleep "+marker).Output(); err == nil {
			t.Errorf("%v: left behind: pids %s", args, strings.TrimSpace(string(out)))
			exec.Command("pkill", "-f", "sleep "+marker).Run()
		}
	}
}

// A small stack (ulimit -s 256) runs every kind of run that plans child
// launches: the plan (24 variants of two paths each, 200 KB) lived on the
// stack and crashed the driver (SIGSEGV in plan_run). Not under ASan, whose
// own stack frames are larger by design.
func TestSmallStack(t *testing.T) {
	if os.Getenv("CGOCOST_SANITIZER") != "" {
		t.Skip("a sanitizer's frames need more stack")
	}
	dir := buildDir(t)
	bench := filepath.Join(dir, "bench")
	for _, args := range []string{"-n 2000 --launches 2", "-n 2000 --compare --time 1", "-n 2000 --against \"$0\" --time 2.4 --launches 12"} {
		cmd := exec.Command("bash", "-c", `ulimit -s 256; "$0" `+args+` > /dev/null`, bench)
		var errb strings.Builder
		cmd.Stderr = &errb
		err := cmd.Run()
		// the gate's verdict is the machine's (an A/A beside a loaded
		// machine can be inconclusive, exit 4): what is checked here is that
		// the driver ran to a verdict with a small stack, not which one
		var ee *exec.ExitError
		if err != nil && !(strings.Contains(args, "--against") && errors.As(err, &ee) && verdict(ee.ExitCode())) {
			t.Errorf("ulimit -s 256; bench %s: %v: %s", args, err, errb.String())
		}
	}
}

// When the handler kills the running launch, the thread that was waiting
// for that launch sees it gone; it must not report it as a failed launch
// nor exit 3 while the handler finishes. The signal goes to another thread
// than the waiting one, and the handler is made to linger after its line
// (a test hook), so that the waiting thread has all the time it needs: the
// exit is still 128 + the signal, the handler's line the last, and no line
// says a launch failed. Under load this happened by itself (the line
// "launch ... failed: could not run" after the handler's).
func TestInterruptOutlivesTheLaunchItKilled(t *testing.T) {
	bench := filepath.Join(buildDir(t), "bench")
	for name, extra := range map[string][]string{
		"launches": {"-n", "400000", "-r", "4", "--launches", "50"},
		"compare":  {"-n", "400000", "-r", "4", "--compare", "--interleave", "launches", "--launches", "20"},
		"against":  {"-n", "400000", "-r", "4", "--against", bench, "--interleave", "launches", "--launches", "20"},
		"paired":   {"--against", bench, "--time", "30"},
	} {
		mark := fmt.Sprintf("CGOCOST_TEST_RUN=linger-%s-%d", name, time.Now().UnixNano())
		cmd := exec.Command(bench, append([]string{"--warmup", "1000"}, extra...)...)
		cmd.Env = append(cmd.Environ(), mark, "CGOCOST_TEST_INTERRUPT_LINGER_MS=700")
		var errb bytes.Buffer
		cmd.Stderr = &errb
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		for deadline := time.Now().Add(30 * time.Second); len(processesOf(mark)) < 2 && time.Now().Before(deadline); {
			time.Sleep(20 * time.Millisecond)
		}
		// to a thread that is not the one waiting for the launch (the
		// kernel may choose any that does not block it: a Go runtime
		// thread of the plugin linked in, for one)
		// (the first that still exists: a thread may end meanwhile)
		pid := cmd.Process.Pid
		tasks, _ := os.ReadDir(fmt.Sprintf("/proc/%d/task", pid))
		sent := false
		for _, task := range tasks {
			if n, err := strconv.Atoi(task.Name()); err == nil && n != pid && !sent {
				sent = syscall.Tgkill(pid, n, syscall.SIGTERM) == nil
			}
		}
		if !sent {
			cmd.Process.Kill()
			cmd.Wait()
			t.Fatalf("%s: no thread of the driver but its main one took the signal (%d threads)", name, len(tasks))
		}
		err := cmd.Wait()
		var ee *exec.ExitError
		if !errors.As(err, &ee) || ee.ExitCode() != 143 {
			t.Errorf("%s: %v, want exit 143; stderr %q", name, err, errb.String())
		}
		msg := strings.TrimRight(errb.String(), "\n")
		if last := msg[strings.LastIndex(msg, "\n")+1:]; !strings.HasPrefix(last, "bench: interrupted by SIGTERM during ") {
			t.Errorf("%s: last line %q", name, last)
		}
		if strings.Contains(msg, "failed") {
			t.Errorf("%s: a launch reported as failed beside the interrupt: %q", name, msg)
		}
		noneLeft(t, name, mark)
	}
}
