// Package outputrule tests that a Go tool keeps the project's one rule for
// what it writes (go/internal/atomicfile, c/base/atomicfile.h): a path no
// file can be saved at (a directory, a missing directory, a symbolic link,
// a device, a FIFO) is refused with exit 2 and one line before anything is
// read, and left as it was; lost standard output (closed, or a full
// device) is exit 3. Used by the tools' tests only.
package outputrule

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// env makes the test binary run the tool's main instead of its tests.
const env = "CGOCOST_OUTPUTRULE_MAIN"

// Main runs main and exits when the test binary was started as the tool
// (by File or Stdout); call it first in the tool's TestMain.
func Main(main func()) {
	if os.Getenv(env) == "1" {
		main()
		os.Exit(0)
	}
}

type result struct {
	code           int
	stdout, stderr string
}

// run starts the test binary as the tool through sh, with redirect added
// to the command (">&-", "> /dev/full"); bounded, so that a tool blocked
// on a FIFO fails the test instead of hanging it.
func run(t *testing.T, redirect string, args []string) result {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	sh := append([]string{"-c", `exec "$0" "$@" ` + redirect, os.Args[0]}, args...)
	cmd := exec.CommandContext(ctx, "/bin/sh", sh...)
	cmd.Env = append(os.Environ(), env+"=1")
	var so, se strings.Builder
	if redirect == "" {
		cmd.Stdout = &so
	}
	cmd.Stderr = &se
	err := cmd.Run()
	if ctx.Err() != nil {
		t.Fatalf("%v: did not end within 60 s", args)
	}
	code := 0
	if ee, ok := err.(*exec.ExitError); ok {
		code = ee.ExitCode()
	} else if err != nil {
		t.Fatal(err)
	}
	return result{code, so.String(), se.String()}
}

// File checks the rule for the file a tool writes: args gives its command
// line writing to path (a file named name in a fresh directory). mkdirs:
// the tool makes a missing directory (matrix -out), which is then no
// refusal. The problem is named on the first line of stderr (matrix adds
// a second, its hint to -h).
func File(t *testing.T, name string, mkdirs bool, args func(path string) []string) {
	for _, c := range []struct {
		what string
		make func(path string) error // what is at path before the run
		want string                  // in the one line of exit 2
	}{
		{"a named FIFO", func(p string) error { return syscall.Mkfifo(p, 0o600) }, "named FIFO"},
		{"a device", func(p string) error {
			return syscall.Mknod(p, syscall.S_IFCHR|0o600, 1<<8|3) // /dev/null's numbers
		}, "a device"},
		{"a symbolic link to a file", func(p string) error {
			if err := os.WriteFile(p+".target", []byte("kept"), 0o644); err != nil {
				return err
			}
			return os.Symlink(filepath.Base(p)+".target", p)
		}, "symbolic link"},
		{"a dangling symbolic link", func(p string) error { return os.Symlink("nowhere", p) }, "symbolic link"},
		{"a looping symbolic link", func(p string) error { return os.Symlink(filepath.Base(p), p) }, "symbolic link"},
		{"a directory", func(p string) error { return os.Mkdir(p, 0o755) }, "is a directory"},
		{"a missing directory", nil, "no such file or directory"},
	} {
		dir := t.TempDir()
		path := filepath.Join(dir, name)
		if c.make == nil && mkdirs {
			continue
		}
		if c.make == nil {
			path = filepath.Join(dir, "missing", name)
		} else if err := c.make(path); err != nil {
			t.Logf("%s cannot be made here (%v): not tried", c.what, err)
			continue
		}
		before, _ := os.Lstat(path)
		r := run(t, "", args(path))
		first, _, _ := strings.Cut(r.stderr, "\n")
		if r.code != 2 || !strings.Contains(first, c.want) {
			t.Errorf("-o %s: exit %d, stderr %q; want 2 and a first line saying %q", c.what, r.code, r.stderr, c.want)
		}
		after, _ := os.Lstat(path)
		if before != nil && (after == nil || after.Mode() != before.Mode()) {
			t.Errorf("-o %s: it was replaced (%v, now %v)", c.what, before.Mode(), after)
		}
		if b, err := os.ReadFile(path + ".target"); err == nil && string(b) != "kept" {
			t.Errorf("-o %s: the link's file was written", c.what)
		}
	}
	// a regular file is replaced
	path := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(path, []byte("old"), 0o644); err != nil {
		t.Fatal(err)
	}
	if r := run(t, "", args(path)); r.code != 0 {
		t.Errorf("-o a regular file: exit %d: %s", r.code, r.stderr)
	} else if b, _ := os.ReadFile(path); string(b) == "old" {
		t.Errorf("-o a regular file: not replaced")
	}
}

// Stdout checks the rule for what a tool writes on standard output: args
// gives its command line, in a fresh directory for any file it writes too.
func Stdout(t *testing.T, args func(dir string) []string) {
	for _, c := range []struct {
		redirect string
		code     int
		want     string
	}{
		{">&-", 3, "standard output is closed"},
		{"> /dev/full", 3, "no space left on device"},
		{"> /dev/null", 0, ""}, // opened for writing only: an output kept
	} {
		r := run(t, c.redirect, args(t.TempDir()))
		if r.code != c.code || !strings.Contains(r.stderr, c.want) {
			t.Errorf("stdout %s: exit %d, stderr %q; want %d saying %q", c.redirect, r.code, r.stderr, c.code, c.want)
		}
	}
}
