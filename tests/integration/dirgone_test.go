package integration

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"
)

// runRemovingDir runs bench with args and removes dir while its launches
// run (once a launch of its own is seen beside it): a write at the end of
// the run then finds its directory gone. The run's stdout, stderr and exit
// status.
func runRemovingDir(t *testing.T, dir string, args ...string) result {
	t.Helper()
	bench := filepath.Join(buildDir(t), "bench")
	mark := fmt.Sprintf("CGOCOST_TEST_RUN=gone-%d", time.Now().UnixNano())
	cmd := exec.Command(bench, args...)
	cmd.Env = append(os.Environ(), mark)
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	for deadline := time.Now().Add(30 * time.Second); len(processesOf(mark)) < 2 && time.Now().Before(deadline); {
		time.Sleep(20 * time.Millisecond)
	}
	os.RemoveAll(dir)
	code := 0
	if err := cmd.Wait(); err != nil {
		var ee *exec.ExitError
		if !errors.As(err, &ee) {
			t.Fatal(err)
		}
		code = ee.ExitCode()
	}
	return result{out.String(), errb.String(), code}
}
