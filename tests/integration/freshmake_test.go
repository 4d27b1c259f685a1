package integration

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"cgocost/tests/testbuild"
)

// A plain make on a machine without jansson stops at once, before building
// anything, with one line naming the missing package and the command that
// installs it (mk/deps.mk). jansson is made "missing" by a pkg-config search
// path that holds nothing (PKG_CONFIG_LIBDIR), pkg-config by a PATH without
// it, so nothing is uninstalled.
// make setup and make help still run there; with the machine's own search
// path the same make goes ahead.
func TestFreshMachineMake(t *testing.T) {
	root := testbuild.Root(t)
	tmp := t.TempDir()
	empty := filepath.Join(tmp, "pkgconfig")
	if err := os.Mkdir(empty, 0o755); err != nil {
		t.Fatal(err)
	}
	build := filepath.Join(tmp, "build")
	env := testbuild.EnvOutsideMake("PKG_CONFIG_")
	missing := append(env[:len(env):len(env)], "PKG_CONFIG_LIBDIR="+empty)
	make := func(env []string, args string) (int, string) {
		t.Helper()
		code, out, err := testbuild.Shell(root, env, "make --no-print-directory BUILD="+build+" "+args, time.Minute)
		if err != nil {
			t.Fatalf("make %s: %v\n%s", args, err, out)
		}
		return code, string(out)
	}

	for _, goal := range []string{"", "all", "build/bench compare"} {
		start := time.Now()
		code, out := make(missing, goal)
		d := time.Since(start)
		msg := strings.TrimRight(out, "\n")
		if code != 2 || strings.Count(msg, "\n") != 0 || !strings.Contains(msg, "missing for the build: libjansson-dev") ||
			!strings.Contains(msg, "make setup") || !strings.Contains(msg, "apt-get install libjansson-dev") {
			t.Errorf("make %s without jansson: exit %d (want 2), output %q (want one line naming libjansson-dev and make setup)", goal, code, out)
		}
		if _, err := os.Stat(build); err == nil {
			t.Errorf("make %s without jansson built something in %s before stopping", goal, build)
		}
		if d > 10*time.Second {
			t.Errorf("make %s without jansson took %.1f s to stop: not at once", goal, d.Seconds())
		}
	}
	// no pkg-config at all (a PATH without it): both packages are named,
	// as jansson cannot be looked for
	bin := filepath.Join(tmp, "bin")
	if err := os.Mkdir(bin, 0o755); err != nil {
		t.Fatal(err)
	}
	for _, tool := range []string{"make", "sed", "cc", "go", "dpkg", "grep", "head"} {
		if p, err := exec.LookPath(tool); err == nil {
			if err := os.Symlink(p, filepath.Join(bin, tool)); err != nil {
				t.Fatal(err)
			}
		}
	}
	noPkgConfig := []string{"PATH=" + bin}
	for _, kv := range env {
		if !strings.HasPrefix(kv, "PATH=") {
			noPkgConfig = append(noPkgConfig, kv)
		}
	}
	if code, out := make(noPkgConfig, ""); code != 2 || strings.TrimRight(out, "\n") == "" || strings.Count(strings.TrimRight(out, "\n"), "\n") != 0 ||
		!strings.Contains(out, "missing for the build: pkg-config libjansson-dev") {
		t.Errorf("make without pkg-config on PATH: exit %d (want 2), output %q (want one line naming pkg-config and libjansson-dev)", code, out)
	}

	// the goals that build nothing, or install what is missing, still run
	if code, out := make(missing, "-n setup"); code != 0 || !strings.Contains(out, "scripts/setup.sh") {
		t.Errorf("make -n setup without jansson: exit %d, output %q", code, out)
	}
	if code, out := make(missing, "help"); code != 0 || !strings.Contains(out, "make all") {
		t.Errorf("make help without jansson: exit %d, output %q", code, out)
	}
	// with jansson found, the same make goes ahead (-n: nothing is built)
	if code, out := make(env, "-n all"); code != 0 || strings.Contains(out, "missing for the build") || !strings.Contains(out, "-o "+build+"/bench ") {
		t.Errorf("make -n all with jansson: exit %d, output %s", code, tailOf(out))
	}
}

// tailOf is the end of a long output, for a failure message.
func tailOf(s string) string {
	if len(s) > 2000 {
		return "..." + s[len(s)-2000:]
	}
	return s
}
