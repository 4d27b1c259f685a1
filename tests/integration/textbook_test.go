package integration

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"strings"
	"testing"
	"time"
)

// blockReply is timing/blockmsg.h's struct block_reply, as it crosses the pipe.
type blockReply struct {
	Status, AsyncInEffect                        int32
	Ns, CPUNs, Calls, LeadNs, LeadCalls, FirstNs uint64
}

// readReply reads one reply within d, or fails the test.
func readReply(t *testing.T, r io.Reader, d time.Duration, what string) blockReply {
	t.Helper()
	got := make(chan error, 1)
	var rep blockReply
	go func() { got <- binary.Read(r, binary.NativeEndian, &rep) }()
	select {
	case err := <-got:
		if err != nil {
			t.Fatalf("%s: no reply: %v", what, err)
		}
	case <-time.After(d):
		t.Fatalf("%s: no reply within %v", what, d)
	}
	return rep
}

// bench-textbook speaks the paired coordinator's protocol itself: ready
// with its calls a block and the mode it found at its probe, on its own
// calling thread (async_in_effect 1 only when Extract ran elsewhere), a
// block with its lead-in on command, its end on BLOCK_END with the seed
// and mode lines over the blocks; and it says which thread called.
func TestTextbookServesBlocks(t *testing.T) {
	exe := filepath.Join(buildDir(t), "bench-textbook")
	for _, c := range []struct {
		args   []string
		async  int32
		caller string
	}{
		{nil, 0, "a pthread"},
		{[]string{"-a", "-c", "0"}, 1, "a pthread"},
		{[]string{"-a", "-c", "0", "-m"}, 1, "the main thread"},
	} {
		if len(c.args) > 1 && c.args[1] == "-c" && runtime.NumCPU() < 2 {
			continue // the placement needs a CPU besides the caller's
		}
		cmdR, cmdW, err := os.Pipe()
		if err != nil {
			t.Fatal(err)
		}
		repR, repW, err := os.Pipe()
		if err != nil {
			t.Fatal(err)
		}
		var stdout, stderr bytes.Buffer
		cmd := exec.Command(exe, append(c.args, "-n", "1000", "--serve-blocks", "0")...)
		cmd.ExtraFiles = []*os.File{cmdR, repW} // fds 3 and 4
		cmd.Stdout, cmd.Stderr = &stdout, &stderr
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		cmdR.Close()
		repW.Close()
		what := strings.Join(c.args, " ")
		ready := readReply(t, repR, 2*time.Minute, what+" ready") // a warm-up of 1000 calls: milliseconds each beside busy loops
		if ready.Status != 0 || ready.AsyncInEffect != c.async || ready.Calls != 1000 {
			t.Fatalf("%s: ready %+v, want async_in_effect %d and 1000 calls a block", what, ready, c.async)
		}
		if len(c.args) > 1 && c.args[1] == "-c" {
			placedOn0(t, cmd.Process.Pid)
		}
		binary.Write(cmdW, binary.NativeEndian, struct {
			Op, Pad  uint32
			LeadInNs uint64
		}{1, 0, 200000}) // BLOCK_RUN, a 200 us lead-in
		b := readReply(t, repR, 2*time.Minute, what+" block")
		if b.Status != 0 || b.Calls != 1000 || b.Ns == 0 || b.LeadCalls < 1 || b.LeadNs < 200000 || b.FirstNs > b.LeadNs {
			t.Fatalf("%s: block %+v", what, b)
		}
		binary.Write(cmdW, binary.NativeEndian, struct {
			Op, Pad  uint32
			LeadInNs uint64
		}{2, 0, 0}) // BLOCK_END
		cmdW.Close()
		err = cmd.Wait()
		repR.Close()
		mode := map[int32]string{0: "sync", 1: "async"}[c.async]
		if err != nil || !strings.HasPrefix(stdout.String(), "plugin 1: ") ||
			!strings.Contains(stdout.String(), "extractions 1000)\n") ||
			!strings.Contains(stdout.String(), "# mode: "+mode+" requested, "+mode+" in effect") ||
			!strings.Contains(stdout.String(), c.caller+")") {
			t.Fatalf("%s: %v\n%s%s", what, err, stdout.String(), stderr.String())
		}
	}
	// a bad count is bad input, before anything runs
	if r := run(t, exe, nil, "--serve-blocks", "x"); r.code != 2 || !strings.Contains(r.stderr, "usage: bench-textbook") {
		t.Fatalf("--serve-blocks x: exit %d: %s", r.code, r.stderr)
	}
}

// placedOn0: once ready, a child placed with -c 0 has its caller alone on
// CPU 0 and every other thread (the async worker, the runtime's, the main
// thread waiting for the caller) allowed elsewhere only.
func placedOn0(t *testing.T, pid int) {
	t.Helper()
	tasks, err := filepath.Glob(fmt.Sprintf("/proc/%d/task/*/status", pid))
	if err != nil || len(tasks) < 2 {
		t.Fatalf("threads of %d: %v %v", pid, tasks, err)
	}
	on0 := 0
	for _, f := range tasks {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		m := regexp.MustCompile(`(?m)^Cpus_allowed_list:\s*(\S+)$`).FindSubmatch(b)
		if m == nil {
			t.Fatalf("%s: no Cpus_allowed_list", f)
		}
		list := string(m[1])
		if list == "0" {
			on0++
		} else if strings.HasPrefix(list, "0-") || strings.HasPrefix(list, "0,") {
			t.Errorf("%s: a thread other than the caller may run on CPU 0 (%s)", f, list)
		}
	}
	if on0 != 1 {
		t.Errorf("%d threads pinned to CPU 0, want the caller alone", on0)
	}
}

// -P: the textbook loop's probe asks for bench's eight probe fields, so
// that the SDK's per-instance map of field IDs holds what bench's does
// (the paired harness check passes it); the loop checks mock.calls among
// them against the calls it made, and says so. Without -P no such line.
func TestTextbookProbesAsBenchDoes(t *testing.T) {
	exe := filepath.Join(buildDir(t), "bench-textbook")
	line := regexp.MustCompile(`(?m)^# probe: bench's 8 probe fields, served \(-P\): the SDK's field map holds 9 field IDs`)
	for _, args := range [][]string{{"-P", "-n", "2000"}, {"-P", "-a", "-n", "2000"}} {
		r := runTimeout(t, time.Minute, exe, args...)
		if r.code != 0 || !line.MatchString(r.stdout) {
			t.Errorf("bench-textbook %v: exit %d, want 0 and the probe line in:\n%s%s", args, r.code, r.stdout, r.stderr)
		}
	}
	if r := runTimeout(t, time.Minute, exe, "-n", "2000"); r.code != 0 || line.MatchString(r.stdout) {
		t.Errorf("bench-textbook without -P: exit %d, and the probe line must be absent:\n%s", r.code, r.stdout)
	}
}
