// Package testbuild is what the Go test packages that run the built
// executables share (tests/integration, tests/schema, tests/docs): where the
// repository and the build directory are, and how an executable is run and
// its outputs and exit status caught.
package testbuild

import (
	"bytes"
	"context"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"syscall"
	"testing"
	"time"
)

// BuildEnv names the build directory make built into; unset, it is the
// repository's build/.
const BuildEnv = "CGOCOST_BUILD"

// Root is the repository root: the nearest directory above the test's
// working directory (its package's folder) that holds go.mod.
func Root(t testing.TB) string {
	t.Helper()
	dir, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			return dir
		}
		up := filepath.Dir(dir)
		if up == dir {
			t.Fatalf("no go.mod above the test's directory")
		}
		dir = up
	}
}

// Dir is the absolute build directory ($CGOCOST_BUILD, or the repository's
// build/), and fails the test unless bench and bench-shared are built there.
func Dir(t testing.TB) string {
	t.Helper()
	dir := os.Getenv(BuildEnv)
	if dir == "" {
		dir = filepath.Join(Root(t), "build")
	}
	abs, err := filepath.Abs(dir)
	if err != nil {
		t.Fatal(err)
	}
	for _, exe := range []string{"bench", "bench-shared"} {
		if _, err := os.Stat(filepath.Join(abs, exe)); err != nil {
			t.Fatalf("%s not built in %s (run make first): %v", exe, abs, err)
		}
	}
	return abs
}

// Result is what one run printed and how it ended.
type Result struct {
	Stdout, Stderr string
	Code           int
}

// Run is how an executable is run: Env is added to the test's environment
// (nil: the environment as it is), Dir is the working directory ("" the
// test's own), and a Timeout above zero fails the test if the executable is
// still running then (a hang fails instead of blocking the test).
type Run struct {
	Env     []string
	Dir     string
	Timeout time.Duration
}

// Exec runs exe with args as r says and returns its outputs and exit
// status; an executable that cannot be started fails the test.
func (r Run) Exec(t testing.TB, exe string, args ...string) Result {
	t.Helper()
	ctx := context.Background()
	if r.Timeout > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, r.Timeout)
		defer cancel()
	}
	cmd := exec.CommandContext(ctx, exe, args...)
	if r.Env != nil {
		cmd.Env = append(os.Environ(), r.Env...)
	}
	cmd.Dir = r.Dir
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	err := cmd.Run()
	if r.Timeout > 0 && ctx.Err() != nil {
		t.Fatalf("%s %v: still running after %v (hangs)", exe, args, r.Timeout)
	}
	code := 0
	var ee *exec.ExitError
	if errors.As(err, &ee) {
		code = ee.ExitCode()
	} else if err != nil {
		t.Fatalf("%s %v: %v", exe, args, err)
	}
	return Result{out.String(), errb.String(), code}
}

// Shell runs text with bash -c in dir, with exactly env (and PWD), in its
// own process group, which is killed as a whole when the timeout expires.
// It returns the exit status and stdout and stderr together; a timeout is
// an error (status -1), not a failed test, so that the caller can say which
// command it was.
func Shell(dir string, env []string, text string, timeout time.Duration) (int, []byte, error) {
	ctx, cancel := context.WithTimeout(context.Background(), timeout)
	defer cancel()
	c := exec.CommandContext(ctx, "bash", "-c", text)
	c.Dir = dir
	c.Env = append(env, "PWD="+dir)
	c.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	c.Cancel = func() error { return syscall.Kill(-c.Process.Pid, syscall.SIGKILL) }
	c.WaitDelay = 5 * time.Second
	var out bytes.Buffer
	c.Stdout, c.Stderr = &out, &out
	err := c.Run()
	if ctx.Err() != nil {
		return -1, out.Bytes(), errors.New("timed out after " + timeout.String())
	}
	var ee *exec.ExitError
	if errors.As(err, &ee) {
		return ee.ExitCode(), out.Bytes(), nil
	}
	return 0, out.Bytes(), err
}
