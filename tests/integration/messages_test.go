package integration

import (
	"path/filepath"
	"strings"
	"testing"
)

// A library that hangs while it is loaded is named with the call it hangs
// in: plugin_init, the first extraction, plugin_destroy of the first
// instance (it used to be "hung while loading a plugin library" for all).
func TestLoadHangNamesTheCall(t *testing.T) {
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
