package integration

// Faults of the children a coordinator runs (--against, paired or launch
// by launch): a base that measures other cells, a child that hangs, dies,
// stops, writes garbage, exits 0 early or floods its pipe, and a signal to
// the coordinator. Each ends the run with its status and one line naming
// the cell; no process of the run outlives it, no temporary file is left
// and a baseline saved before is untouched. Nothing here is timed closely:
// the bounds are minutes where the old behaviour was unbounded.

import (
	"bytes"
	"crypto/sha256"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// script writes an executable shell script into dir.
func script(t *testing.T, dir, name, body string) string {
	t.Helper()
	p := filepath.Join(dir, name)
	if err := os.WriteFile(p, []byte("#!/bin/sh\n"+body), 0o755); err != nil {
		t.Fatal(err)
	}
	return p
}

// faultRun is one run of bench, marked in its environment (which every
// process it starts inherits) and with its own TMPDIR; it fails the test
// if the run is still going after limit.
type faultRun struct {
	code           int
	stdout, stderr string
	took           time.Duration
}

func runMarked(t *testing.T, limit time.Duration, mark, tmpdir, exe string, args ...string) faultRun {
	t.Helper()
	cmd := exec.Command(exe, args...)
	cmd.Env = append(os.Environ(), mark, "TMPDIR="+tmpdir)
	cmd.Dir = t.TempDir()
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	start := time.Now()
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	var err error
	select {
	case err = <-done:
	case <-time.After(limit):
		cmd.Process.Kill()
		<-done
		for _, pid := range processesOf(mark) {
			syscall.Kill(pid, syscall.SIGKILL)
		}
		t.Fatalf("%s %v: still running after %v (hangs); stderr %q", exe, args, limit, errb.String())
	}
	r := faultRun{stdout: out.String(), stderr: errb.String(), took: time.Since(start)}
	var ee *exec.ExitError
	if errors.As(err, &ee) {
		r.code = ee.ExitCode()
		if ws, ok := ee.Sys().(syscall.WaitStatus); ok && ws.Signaled() {
			r.code = 128 + int(ws.Signal())
		}
	} else if err != nil {
		t.Fatal(err)
	}
	return r
}

// failedNamed checks a failed run: exit 3, a last line on stderr holding
// want, no verdict on stdout.
func failedNamed(t *testing.T, what string, r faultRun, want string) {
	t.Helper()
	msg := strings.TrimRight(r.stderr, "\n")
	last := msg[strings.LastIndex(msg, "\n")+1:]
	if r.code != 3 || !strings.Contains(last, want) {
		t.Errorf("%s: exit %d, want 3 with a last line holding %q; stderr %q", what, r.code, want, r.stderr)
	}
	if strings.Contains(r.stdout, "verdict") {
		t.Errorf("%s: a verdict from a failed run: %q", what, r.stdout)
	}
}

func emptyDir(t *testing.T, what, dir string) {
	t.Helper()
	if files, _ := os.ReadDir(dir); len(files) != 0 {
		var names []string
		for _, f := range files {
			names = append(names, f.Name())
		}
		t.Errorf("%s: left in TMPDIR: %v", what, names)
	}
}

func sha(t *testing.T, path string) [32]byte {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return sha256.Sum256(data)
}

func mark(name string) string {
	return fmt.Sprintf("CGOCOST_TEST_RUN=faults-%s-%d", name, time.Now().UnixNano())
}

// --against a build that measures another cell than the one asked (a
// wrapper adding --work bare or --fields 4) is a failed run, paired or
// launch by launch, with one line naming the cell and the option that
// differs, and no verdict: it was judged "regressed +7.5%" (exit 1) or
// "improved -47%" (exit 0) paired, and printed "verdict: no regression"
// launch by launch before exiting 2. Exit 3, not 2: the difference shows
// only in what the children ran, once they ran (bad input is what is
// found before anything is measured).
func TestAgainstCellsMustMatch(t *testing.T) {
	dir := buildDir(t)
	bench := filepath.Join(dir, "bench")
	tmp := t.TempDir()
	for _, w := range []struct{ name, extra, want string }{
		{"bare", "--work bare", `--work "bare", not "noop"`},
		{"fields4", "--fields 4", "--fields 4, not 1"},
	} {
		wrapper := script(t, tmp, w.name+".sh", fmt.Sprintf("exec %s \"$@\" %s\n", bench, w.extra))
		for _, mode := range [][]string{{"--time", "2.4", "--launches", "12"}, {"--interleave", "launches", "--launches", "12"}} {
			args := append([]string{"-n", "2000", "--against", wrapper}, mode...)
			m := mark("cells-" + w.name)
			r := runMarked(t, 2*time.Minute, m, t.TempDir(), bench, args...)
			what := fmt.Sprintf("%s %v", w.name, mode)
			failedNamed(t, what, r, "did not measure the cell lib=archive/mode=sync/work=noop/p=1 of this build: it ran "+w.want)
			if r.stdout != "" {
				t.Errorf("%s: printed %q", what, r.stdout)
			}
			noneLeft(t, what, m)
		}
	}
	// the same build on both sides still compares (the slowdown injected
	// into this build only is no difference of cells)
	r := runMarked(t, 2*time.Minute, mark("cells-same"), t.TempDir(), bench, "-n", "2000", "--against", bench,
		"--interleave", "launches", "--launches", "12", "--extra-ns", "5")
	if !verdict(r.code) {
		t.Errorf("the same build: exit %d: %s", r.code, r.stderr)
	}
}

// handoffPlugin is the source of two C plugins that hand over through a
// file, MARK_PATH.<pid> (the process's own: a stalled launch is run again,
// in a new process): the "blocking" one's extraction never returns after
// its first call (the one made when it is loaded), and creates the file as
// it blocks; the "gated" one's second extraction (its first after the
// load) waits for the file, at most 60 s. As --busy and --plugin, the run's
// callers then cannot end before the --busy thread has blocked, however
// the machine schedules it, and a few thousand calls make the run.
const handoffPlugin = `#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>
typedef struct { uint64_t *u64; } res_t;
typedef struct { res_t res; uint64_t res_len; uint32_t field_id; const char *field; const char *arg_key;
	uint64_t arg_index; uint8_t arg_present; uint32_t ftype; uint8_t flist; } field_t;
typedef struct { uint32_t num_fields; field_t *fields; } input_t;
static uint64_t seven = 7;
static unsigned long calls;
const char *plugin_get_required_api_version(void) { return "3.0.0"; }
const char *plugin_get_fields(void) { return "[{\"name\":\"mock.noop.0\",\"type\":\"uint64\",\"desc\":\"d\"},{\"name\":\"mock.u64.0\",\"type\":\"uint64\",\"desc\":\"d\"}]"; }
void *plugin_init(const void *in, int32_t *rc) { (void)in; *rc = 0; return malloc(1); }
void plugin_destroy(void *s) { free(s); }
const char *plugin_get_last_error(void *s) { (void)s; return ""; }
int32_t plugin_extract_fields(void *s, const void *evt, const input_t *in) {
	char mark[4200];
	(void)s; (void)evt;
	snprintf(mark, sizeof(mark), "%s.%d", MARK_PATH, (int)getpid());
#ifdef BLOCKING
	if (++calls > 1) { /* the first is the load's; the --busy thread's never returns */
		int fd = open(mark, O_CREAT | O_WRONLY, 0600);
		if (fd >= 0)
			close(fd);
		for (;;)
			pause();
	}
#else
	if (++calls == 2)
		for (int i = 0; i < 6000 && access(mark, F_OK) != 0; i++)
			usleep(10000);
#endif
	for (uint32_t i = 0; i < in->num_fields; i++) { in->fields[i].res.u64 = &seven; in->fields[i].res_len = 1; }
	return 0;
}
`

// handoffPlugins builds the blocking and the gated plugin of handoffPlugin
// around one mark file.
func handoffPlugins(t *testing.T) (blocking, gated string) {
	t.Helper()
	mark := strconv.Quote(filepath.Join(t.TempDir(), "blocked"))
	src := strings.ReplaceAll(handoffPlugin, "MARK_PATH", mark)
	return buildSharedLib(t, "blocking", "#define BLOCKING 1\n"+src), buildSharedLib(t, "gated", src)
}

// The hangs --stall-timeout did not end: a --busy library whose extraction
// never returns (the run waited to join its thread, for ever); an
// --against executable that sleeps, launch by launch (for ever) and paired
// (its start-up waited --stall-timeout + 60 s: 65 s here). A child is now
// bounded by 2 x --stall-timeout + 10 s + its extractions
// (orchestrate/plan.h): with --stall-timeout 5, about 20 s (5 s, not less,
// so that this build's own child does not stall first on a loaded
// machine); the test allows a minute.
func TestStallTimeoutEndsEveryHang(t *testing.T) {
	// mostly waiting for children to hang, stall or die: beside the other
	// such tests (their marks, temporary directories and sleeps are their own)
	t.Parallel()
	dir := buildDir(t)
	bench, host := filepath.Join(dir, "bench"), filepath.Join(dir, "bench-host")
	tmp := t.TempDir()
	sleeper := script(t, tmp, "sleeper.sh", "exec sleep 4321\n")
	blocking, gated := handoffPlugins(t)
	for _, c := range []struct {
		name string
		exe  string
		args []string
		want string
	}{
		// the gated plugin's callers wait for the --busy thread to block
		// (at 2e6 calls of the C plugin instead, a loaded machine could
		// leave it unscheduled until the end; at 2e8, the run's length
		// grew with the load: 67 s once)
		{"busy", host, []string{"--plugin", gated, "--field", "mock.u64.0", "-n", "2000",
			"--busy", blocking, "--stall-timeout", "3"}, "the --busy library " + blocking + " made no progress for --stall-timeout"},
		{"launches", bench, []string{"-n", "2000", "--against", sleeper, "--interleave", "launches", "--launches", "12",
			"--stall-timeout", "5"}, "launch of " + sleeper + " was still running after"},
		{"paired", bench, []string{"-n", "2000", "--against", sleeper, "--time", "2.4", "--launches", "12", "--stall-timeout", "5"},
			"paired launch of " + sleeper + " (sync) stalled before its first block: not ready after"},
	} {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			m := mark("hang-" + c.name)
			r := runMarked(t, 3*time.Minute, m, t.TempDir(), c.exe, c.args...)
			failedNamed(t, c.name, r, c.want)
			if r.took > time.Minute {
				t.Errorf("%s: took %v", c.name, r.took)
			}
			noneLeft(t, c.name, m)
		})
	}
}

// sleepsOf lists the processes running "sleep arg".
func sleepsOf(arg string) []int {
	var pids []int
	entries, _ := os.ReadDir("/proc")
	for _, e := range entries {
		pid, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		cmd, err := os.ReadFile(filepath.Join("/proc", e.Name(), "cmdline"))
		if err == nil && bytes.Equal(cmd, []byte("sleep\x00"+arg+"\x00")) {
			pids = append(pids, pid)
		}
	}
	return pids
}

// A coordinator whose --against wrapper leaves a `sleep N &` behind in
// every child's process group, or outside it (`setsid sleep N &`, out of
// reach of a group's kill: it was left to init, at every child's end and
// on a signal): on SIGTERM mid-run, exit 143 and no sleep of any child is
// left; run to its end, none is left either.
func TestSignalKillsEveryChildGroup(t *testing.T) {
	// mostly waiting for children to hang, stall or die: beside the other
	// such tests (their marks, temporary directories and sleeps are their own)
	t.Parallel()
	dir := buildDir(t)
	bench := filepath.Join(dir, "bench")
	if _, err := exec.LookPath("setsid"); err != nil {
		t.Skip("no setsid")
	}
	for k, leave := range []string{"sleep %s &", "setsid sleep %s &"} {
		t.Run(strings.Fields(leave)[0], func(t *testing.T) {
			t.Parallel()
			arg := strconv.Itoa(50000 + 2*(os.Getpid()%10000) + k)
			wrapper := script(t, t.TempDir(), "wrapper.sh", fmt.Sprintf(leave+"\nexec %s \"$@\"\n", arg, bench))
			noSleep := func(what string) {
				t.Helper()
				var left []int
				for wait := 0; wait < 50; wait++ {
					if left = sleepsOf(arg); len(left) == 0 {
						return
					}
					time.Sleep(40 * time.Millisecond)
				}
				t.Errorf("%s: sleep %s left: %v", what, arg, left)
				for _, pid := range left {
					syscall.Kill(pid, syscall.SIGKILL)
				}
			}
			for _, args := range [][]string{
				{"-n", "2000", "--against", wrapper, "--time", "30"},
				{"-n", "200000", "--against", wrapper, "--interleave", "launches", "--launches", "50"},
			} {
				what := fmt.Sprintf("%q %v", leave, args)
				m := mark("sigterm")
				cmd, errb, children := startMarked(t, bench, m, 2, 1500*time.Millisecond, args...)
				if len(children) == 0 {
					t.Fatalf("%s: no child", what)
				}
				cmd.Process.Signal(syscall.SIGTERM)
				err := cmd.Wait()
				var ee *exec.ExitError
				if !errors.As(err, &ee) || ee.ExitCode() != 143 {
					t.Errorf("%s: %v, want exit 143; stderr %q", what, err, errb.String())
				}
				noSleep(what + " SIGTERM")
				noneLeft(t, what+" SIGTERM", m)
			}
			for _, args := range [][]string{
				{"-n", "2000", "--against", wrapper, "--time", "2.4", "--launches", "12"},
				{"-n", "2000", "--against", wrapper, "--interleave", "launches", "--launches", "12"},
			} {
				what := fmt.Sprintf("%q %v", leave, args)
				m := mark("ends")
				if r := runMarked(t, 2*time.Minute, m, t.TempDir(), bench, args...); !verdict(r.code) {
					t.Errorf("%s: exit %d: %s", what, r.code, r.stderr)
				}
				noSleep(what)
				noneLeft(t, what, m)
			}
		})
	}
}

// A coordinator whose --against child misbehaves: it dies in the middle
// of its blocks (or its launch), stops answering, writes garbage on its
// replies pipe or its stdout, exits 0 early, or floods its replies pipe.
// Each ends the run with exit 3 and a line naming the child's cell, no
// process left, TMPDIR (where a paired child's output files live) empty,
// and, launch by launch (a paired run takes no baseline), the baseline
// given to --save-baseline untouched.
func TestCoordinatorChildFaults(t *testing.T) {
	// mostly waiting for children to hang, stall or die: beside the other
	// such tests (their marks, temporary directories and sleeps are their own)
	t.Parallel()
	dir := buildDir(t)
	bench := filepath.Join(dir, "bench")
	tmp := t.TempDir()
	// misbehave only as the child asked for (a paired one serves blocks, a
	// launch emits its document); the real bench runs in the background
	// where it must die or stop in the middle
	child := func(name, as, body string) string {
		return script(t, tmp, name+".sh", fmt.Sprintf("B=%s\ncase \" $* \" in *\" %s \"*) ;; *) exec $B \"$@\";; esac\n%s", bench, as, body))
	}
	const dies = "$B \"$@\" & p=$!\nsleep 1\nkill -KILL $p\nwait $p\n"
	const stops = "$B \"$@\" & p=$!\nsleep 1\nkill -STOP $p\nwait $p\n"
	const stopsAtOnce = "$B \"$@\" & p=$!\nkill -STOP $p\nwait $p\n"
	const exits0 = "$B \"$@\" & p=$!\nsleep 1\nkill -KILL $p\nexit 0\n"
	const garbageOut = "echo 'garbage, not a document'\nexec $B \"$@\"\n"
	// generations of 4 s (12, the fewest a verdict may come from): a fault
	// 1 s after the start falls inside the first
	paired := []string{"-n", "2000", "--time", "48", "--launches", "12"}
	// launches of several seconds, so that a fault after 1 s falls inside
	// one; a stopped launch is bounded by 2 x --stall-timeout + 10 s + its
	// extractions at 20 us (plan.h): a short one, stopped at once
	launches := []string{"-n", "20000000", "--interleave", "launches", "--launches", "12"}
	short := []string{"-n", "200000", "--interleave", "launches", "--launches", "12"}
	cases := []coordinatorCase{
		{"paired dies", child("p-dies", "--serve-blocks", dies), paired, "paired launch of %s (sync) failed"},
		{"paired stops", child("p-stops", "--serve-blocks", stops), paired, "paired launch of %s (sync) stalled"},
		{"paired garbage replies", child("p-garbage", "--serve-blocks", "printf 'garbage garbage garbage garbage garbage garbage garbage garbage\\n' >&4\nexec sleep 1000\n"),
			paired, "paired launch of %s (sync) failed: its first reply is not one of the blocks protocol"},
		{"paired garbage stdout", child("p-garbage-out", "--serve-blocks", garbageOut), paired, "paired launch of %s printed no valid document"},
		{"paired exits 0 early", child("p-exits0", "--serve-blocks", exits0), paired, "paired launch of %s (sync) failed"},
		{"paired floods", child("p-floods", "--serve-blocks", "yes flood >&4 &\nexec $B \"$@\"\n"), paired, "paired launch of %s (sync) failed: its first reply is not one of the blocks protocol"},
		{"launch dies", child("l-dies", "--emit-launch", dies), launches, "launch of %s failed: exit 137"},
		{"launch stops", child("l-stops", "--emit-launch", stopsAtOnce), short, "launch of %s was still running after"},
		{"launch garbage stdout", child("l-garbage-out", "--emit-launch", garbageOut), short, "launch of %s printed no valid document"},
		{"launch exits 0 early", child("l-exits0", "--emit-launch", exits0), launches, "launch of %s printed no valid document"},
	}
	for _, c := range cases {
		t.Run(strings.ReplaceAll(c.name, " ", "-"), func(t *testing.T) {
			t.Parallel()
			coordinatorFault(t, bench, c)
		})
	}
}

// A case of TestCoordinatorChildFaults: bench --against exe in mode fails
// as want says (%s: exe).
type coordinatorCase struct {
	name, exe string
	mode      []string
	want      string
}

// Runs case c: it must fail as it says, leaving no process, no file in
// TMPDIR and the baseline as it was.
func coordinatorFault(t *testing.T, bench string, c coordinatorCase) {
	m := mark(strings.ReplaceAll(c.name, " ", "-"))
	tmpdir := t.TempDir()
	// a stall is what ends a stopped child; the others must not stall
	// on a loaded machine
	stall := "10"
	if strings.HasSuffix(c.name, "stops") {
		stall = "2"
	}
	args := append([]string{"--against", c.exe, "--stall-timeout", stall}, c.mode...)
	var base string
	var before [32]byte
	if c.mode[2] != "--time" {
		base = filepath.Join(t.TempDir(), "base.json")
		if err := os.WriteFile(base, []byte(`{"precious": true}`+"\n"), 0o644); err != nil {
			t.Fatal(err)
		}
		before = sha(t, base)
		args = append(args, "--save-baseline", base)
	}
	r := runMarked(t, 2*time.Minute, m, tmpdir, bench, args...)
	failedNamed(t, c.name, r, fmt.Sprintf(c.want, c.exe))
	noneLeft(t, c.name, m)
	emptyDir(t, c.name, tmpdir)
	if base != "" && sha(t, base) != before {
		t.Errorf("%s: the baseline changed", c.name)
	}
	t.Logf("%-24s exit %d in %v: %s", c.name, r.code, r.took.Round(100*time.Millisecond), strings.TrimSpace(r.stderr))
}

// A paired child whose start-up outlasts its bound while it works (here a
// wrapper burning CPU for 3 s past it, once: a loaded machine slows an
// async warm-up so) is waited for, not killed: the run ends as a verdict
// does, exit 0 or 1. A child that sleeps through its start-up is killed at
// the bound (TestStallTimeoutEndsEveryHang, "paired").
func TestSlowStartThatWorksIsWaitedFor(t *testing.T) {
	t.Parallel()
	dir := buildDir(t)
	bench := filepath.Join(dir, "bench")
	if _, err := exec.LookPath("timeout"); err != nil {
		t.Skip("no timeout")
	}
	tmp := t.TempDir()
	// --stall-timeout 5 (not less: it is also the child's alarm while it
	// loads the plugin, on a loaded machine): the start-up's bound is 2 x 5 s
	// + 10 s + 10000 warm-up calls at 20 us, 20.2 s; the burn lasts 23 s, in
	// the child's process group (timeout --foreground stays in it)
	wrapper := script(t, tmp, "slow.sh", fmt.Sprintf(`B=%s
case " $* " in *" --serve-blocks "*) ;; *) exec $B "$@";; esac
if mkdir %s/burnt 2>/dev/null; then
	timeout --foreground 23 sh -c 'while :; do :; done'
fi
exec $B "$@"
`, bench, tmp))
	m := mark("slow-start")
	r := runMarked(t, 3*time.Minute, m, t.TempDir(), bench, "-n", "2000", "--against", wrapper, "--time", "2.4",
		"--launches", "12", "--stall-timeout", "5")
	if !verdict(r.code) {
		t.Errorf("exit %d, want a verdict (0, 1 or 4); stderr %q", r.code, r.stderr)
	}
	if strings.Contains(r.stderr, "not ready") {
		t.Errorf("the slow start was killed: %q", r.stderr)
	}
	if r.took < 23*time.Second {
		t.Errorf("took %v: the burn of 23 s did not happen", r.took)
	}
	noneLeft(t, "slow start", m)
}

// The same launch by launch: a launch that outlasts its bound while it
// works (a wrapper burning CPU for 23 s before its first launch, past the
// bound of 2 x 5 s + 10 s + 12000 calls at 20 us, 20.24 s) is waited for,
// as every child is (orchestrate/child.h, its deadline), not killed "still
// running after 21 s". A launch that sleeps is killed at its bound
// (TestStallTimeoutEndsEveryHang, "launches").
func TestSlowLaunchThatWorksIsWaitedFor(t *testing.T) {
	t.Parallel()
	dir := buildDir(t)
	bench := filepath.Join(dir, "bench")
	if _, err := exec.LookPath("timeout"); err != nil {
		t.Skip("no timeout")
	}
	tmp := t.TempDir()
	wrapper := script(t, tmp, "slow.sh", fmt.Sprintf(`B=%s
case " $* " in *" --emit-launch "*) ;; *) exec $B "$@";; esac
if mkdir %s/burnt 2>/dev/null; then
	timeout --foreground 23 sh -c 'while :; do :; done'
fi
exec $B "$@"
`, bench, tmp))
	m := mark("slow-launch")
	r := runMarked(t, 4*time.Minute, m, t.TempDir(), bench, "-n", "2000", "--against", wrapper, "--interleave", "launches",
		"--launches", "12", "--stall-timeout", "5")
	if !verdict(r.code) {
		t.Errorf("exit %d, want a verdict (0, 1 or 4); stderr %q", r.code, r.stderr)
	}
	if strings.Contains(r.stderr, "still running after") {
		t.Errorf("the slow launch was killed: %q", r.stderr)
	}
	if _, err := os.Stat(filepath.Join(tmp, "burnt")); err != nil || r.took < 23*time.Second {
		t.Errorf("took %v (%v): the burn of 23 s did not happen", r.took, err)
	}
	noneLeft(t, "slow launch", m)
}
