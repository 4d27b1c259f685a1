package integration

// Plugin libraries loaded with --plugin (docs/plugins.md): bench-host (no
// plugin, no Go runtime) with the C plugin and the Go mock in every work
// kind, two Go runtimes in one process, the built-in paths with --plugin,
// --repeat-load, a crash mid-run, and every bad input of the issue, each a
// one-line message naming the problem and exit 2.

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

var runtimesLine = regexp.MustCompile(`(?m)^# go runtimes in this process: (\d+)$`)

func goRuntimes(t *testing.T, r result) string {
	t.Helper()
	m := runtimesLine.FindStringSubmatch(r.stdout)
	if m == nil {
		t.Fatalf("no go runtimes line in:\n%s", r.stdout)
	}
	return m[1]
}

func TestBenchHostEveryWorkKind(t *testing.T) {
	dir := buildDir(t)
	host := filepath.Join(dir, "bench-host")
	for _, lib := range []string{"libcmock.so", "libmock.so"} {
		for _, work := range []string{"noop", "u64", "str"} {
			t.Run(lib+"/"+work, func(t *testing.T) {
				r := run(t, host, nil, "--plugin", filepath.Join(dir, lib), "-n", "2000", "--warmup", "100",
					"--work", work, "--fields", "2")
				if r.code != 0 {
					t.Fatalf("exit %d: %s", r.code, r.stderr)
				}
				seedLines(t, r, 1, "2000")
				want := map[string]string{"libcmock.so": "0", "libmock.so": "1"}[lib]
				if got := goRuntimes(t, r); got != want {
					t.Fatalf("go runtimes %s, want %s", got, want)
				}
				// both plugins expose mock.tid: the mode is verified
				if !strings.Contains(r.stdout, "# mode: sync requested, sync in effect (verified") {
					t.Fatalf("mode not verified:\n%s", r.stdout)
				}
				if !strings.Contains(r.stdout, "load ") || !strings.Contains(r.stdout, "RSS ") {
					t.Fatalf("no load cost:\n%s", r.stdout)
				}
			})
		}
	}
}

// The C plugin's async: every call handed to a worker thread of its own
// (a spin handoff in C), verified as async, its values still checked.
func TestCPluginAsync(t *testing.T) {
	dir := buildDir(t)
	for _, work := range []string{"bare", "u64", "str"} {
		r := run(t, filepath.Join(dir, "bench-host"), nil, "--plugin", filepath.Join(dir, "libcmock.so"), "-a",
			"-n", "20000", "--warmup", "100", "--work", work, "--fields", "2")
		if r.code != 0 {
			t.Fatalf("%s: exit %d: %s", work, r.code, r.stderr)
		}
		seedLines(t, r, 1, "20000")
		if !strings.Contains(r.stdout, "# mode: async requested, async in effect (verified") {
			t.Fatalf("%s: async not verified:\n%s", work, r.stdout)
		}
	}
}

// A plugin without cgocost's probe fields: the mode is never claimed.
func TestForeignFieldModeNotVerifiable(t *testing.T) {
	dir := buildDir(t)
	so := buildSharedLib(t, "noprobe", fakePlugin("3.0.0", `[{"name":"x.val","type":"uint64","desc":"d"}]`))
	r := run(t, filepath.Join(dir, "bench-host"), nil, "--plugin", so, "--field", "x.val", "-n", "1000",
		"--warmup", "10", "--events", writeFile(t, "events.txt", "one\ntwo\nthree\n"))
	if r.code != 0 {
		t.Fatalf("exit %d: %s", r.code, r.stderr)
	}
	seedLines(t, r, 1, "1000")
	if !strings.Contains(r.stdout, "mode in effect: not verifiable for this plugin") {
		t.Fatalf("want the mode said not verifiable:\n%s", r.stdout)
	}
	if strings.Contains(r.stdout, "sync in effect") || strings.Contains(r.stdout, "async in effect") {
		t.Fatalf("a mode was claimed for a plugin without probe fields:\n%s", r.stdout)
	}
}

func TestTwoGoRuntimesInOneProcess(t *testing.T) {
	dir := buildDir(t)
	r := run(t, filepath.Join(dir, "bench-host"), nil, "--plugin", filepath.Join(dir, "libmock.so"),
		"--plugin", filepath.Join(dir, "libmock-b.so"), "-n", "2000", "--warmup", "100")
	switch r.code {
	case 0:
		seedLines(t, r, 2, "2000")
		if got := goRuntimes(t, r); got != "2" {
			t.Fatalf("go runtimes %s, want 2", got)
		}
	case 3: // a crash of the two runtimes is a finding, reported
		if !strings.Contains(r.stderr, "crashed") {
			t.Fatalf("exit 3 without the crash reported: %s", r.stderr)
		}
	default:
		t.Fatalf("exit %d: %s", r.code, r.stderr)
	}
}

// The built-in executables with --plugin: how many runtimes they hold.
func TestBuiltinExecutablesWithPlugin(t *testing.T) {
	dir := buildDir(t)
	cases := []struct{ exe, lib, runtimes string }{
		{"bench", "libmock.so", "2"},        // the c-archive's runtime and the library's
		{"bench-shared", "libmock.so", "1"}, // dlopen returns the library already loaded
		{"bench-shared", "libmock-b.so", "2"},
		{"bench-shared", "libcmock.so", "1"},
	}
	for _, c := range cases {
		t.Run(c.exe+"+"+c.lib, func(t *testing.T) {
			r := run(t, filepath.Join(dir, c.exe), nil, "--plugin", filepath.Join(dir, c.lib), "-n", "2000",
				"--warmup", "100")
			if r.code == 3 && strings.Contains(r.stderr, "crashed") {
				t.Skipf("the two runtimes crashed (a finding, reported): %s", r.stderr)
			}
			if r.code != 0 {
				t.Fatalf("exit %d: %s", r.code, r.stderr)
			}
			seedLines(t, r, 1, "2000")
			if got := goRuntimes(t, r); got != c.runtimes {
				t.Fatalf("go runtimes %s, want %s", got, c.runtimes)
			}
		})
	}
}

func TestPluginAsyncThroughTheMockAndJSON(t *testing.T) {
	dir := buildDir(t)
	r := run(t, filepath.Join(dir, "bench-host"), nil, "--plugin", filepath.Join(dir, "libmock.so"), "-a",
		"-n", "2000", "--warmup", "100", "--format", "json")
	if r.code != 0 {
		t.Fatalf("exit %d: %s", r.code, r.stderr)
	}
	for _, key := range []string{`"go_runtimes": 1`, `"libraries"`, `"role": "measured"`, `"requested": "async"`} {
		if !strings.Contains(r.stdout, key) {
			t.Fatalf("JSON without %s:\n%s", key, r.stdout)
		}
	}
}

func TestRepeatLoadCountsLoads(t *testing.T) {
	dir := buildDir(t)
	r := run(t, filepath.Join(dir, "bench-host"), nil, "--plugin", filepath.Join(dir, "libmock.so"),
		"--plugin", filepath.Join(dir, "libmock-b.so"), "-n", "200", "--warmup", "10", "--repeat-load", "3")
	if r.code != 0 && r.code != 3 {
		t.Fatalf("exit %d: %s", r.code, r.stderr)
	}
	if !regexp.MustCompile(`^repeat-load: 3 loads in fresh processes: \d+ finished, \d+ crashed, \d+ panicked, \d+ hung, \d+ failed`).MatchString(r.stdout) {
		t.Fatalf("no repeat-load summary:\n%s", r.stdout)
	}
	if r.code == 3 && !strings.Contains(r.stdout, "# first ") {
		t.Fatalf("exit 3 without the first failure named:\n%s", r.stdout)
	}
	// the same outcomes as a document (they had no JSON: "reports text only")
	r = run(t, filepath.Join(dir, "bench-host"), nil, "--plugin", filepath.Join(dir, "libmock.so"),
		"-n", "200", "--warmup", "10", "--repeat-load", "3", "--format", "json")
	rl := repeatLoadDoc(t, r)
	if rl.Loads != 3 || rl.OK+rl.Crashed+rl.Panicked+rl.Hung+rl.Failed != 3 || (rl.OK > 0) != (len(rl.Libraries) == 1) ||
		(r.code == 0) != (rl.OK == 3) {
		t.Fatalf("exit %d, repeat_load %+v", r.code, rl)
	}
	args := []string{"--plugin", filepath.Join(dir, "libmock.so"), "--repeat-load", "3", "--format", "gobench"}
	oneLine(t, run(t, filepath.Join(dir, "bench-host"), nil, args...), 2, "--repeat-load reports text or json", args)
}

type repeatLoad struct {
	Loads        int     `json:"loads"`
	OK           int     `json:"ok"`
	Crashed      int     `json:"crashed"`
	Panicked     int     `json:"panicked"`
	Hung         int     `json:"hung"`
	Failed       int     `json:"failed"`
	FirstFailure *string `json:"first_failure"`
	GoRuntimes   int     `json:"go_runtimes"`
	Libraries    []struct {
		Path string `json:"path"`
	} `json:"libraries"`
}

// repeatLoadDoc: the repeat_load section of a --repeat-load --format json
// run, which exits 0 or 3 with its document either way.
func repeatLoadDoc(t *testing.T, r result) repeatLoad {
	t.Helper()
	var d struct {
		Cells      []any       `json:"cells"`
		RepeatLoad *repeatLoad `json:"repeat_load"`
	}
	if (r.code != 0 && r.code != 3) || json.Unmarshal([]byte(r.stdout), &d) != nil || d.RepeatLoad == nil || len(d.Cells) != 0 {
		t.Fatalf("exit %d, no repeat_load document:\n%s%s", r.code, r.stdout, r.stderr)
	}
	return *d.RepeatLoad
}

// A library that ends its process with exit status 0 (here in its
// constructor, when loaded) makes no finished load: the loads are counted
// failed and the run exits 3 (it used to say "3 finished", exit 0).
func TestRepeatLoadCountsAnEarlyExitAsFailed(t *testing.T) {
	dir := buildDir(t)
	quits := buildSharedLib(t, "quits", fakePlugin("3.0.0", `[{"name":"x.val","type":"uint64","desc":"d"}]`)+
		"#include <unistd.h>\n__attribute__((constructor)) static void quit(void) { _exit(0); }\n")
	r := run(t, filepath.Join(dir, "bench-host"), nil, "--plugin", quits, "--field", "x.val", "-n", "200",
		"--repeat-load", "3")
	if r.code != 3 || !strings.Contains(r.stdout, "0 finished") || !strings.Contains(r.stdout, "3 failed") ||
		!strings.Contains(r.stdout, "exit 0 without the document of a finished load") {
		t.Fatalf("exit %d, want 3 with 0 finished and 3 failed named:\n%s%s", r.code, r.stdout, r.stderr)
	}
	r = run(t, filepath.Join(dir, "bench-host"), nil, "--plugin", quits, "--field", "x.val", "-n", "200",
		"--repeat-load", "3", "--format", "json")
	if rl := repeatLoadDoc(t, r); r.code != 3 || rl.OK != 0 || rl.Failed != 3 || rl.FirstFailure == nil ||
		!strings.Contains(*rl.FirstFailure, "exit 0 without the document of a finished load") || rl.GoRuntimes != -1 {
		t.Fatalf("json: exit %d, repeat_load %+v", r.code, rl)
	}
}

// A plugin that aborts in the middle of the timed batches: the launch ends
// with exit 3 and says so; with several launches the run does not hang.
func TestPluginCrashMidRun(t *testing.T) {
	dir := buildDir(t)
	for _, launches := range []string{"1", "3"} {
		r := run(t, filepath.Join(dir, "bench-host"), nil, "--plugin", filepath.Join(dir, "libcmock.so"),
			"-n", "100000", "--warmup", "100", "--launches", launches, "--plugin-config", `{"crash_after":5000}`)
		if r.code != 3 || !strings.Contains(r.stderr, "crashed: killed by signal 6") {
			t.Fatalf("launches %s: exit %d, want 3 and the crash named: %s", launches, r.code, r.stderr)
		}
	}
}

func TestPluginBadInput(t *testing.T) {
	dir := buildDir(t)
	host := filepath.Join(dir, "bench-host")
	cmock := filepath.Join(dir, "libcmock.so")
	mock := filepath.Join(dir, "libmock.so")
	notPlugin := buildSharedLib(t, "notplugin", "int cgocost_not_a_plugin(void) { return 1; }\n")
	oldAPI := buildSharedLib(t, "futureapi", fakePlugin("99.0.0", `[{"name":"x.val","type":"uint64","desc":"d"}]`))
	syscallOnly := buildSharedLib(t, "syscallonly", fakePlugin("3.0.0", `[{"name":"x.val","type":"uint64","desc":"d"}]`)+
		`const char *plugin_get_extract_event_sources(void) { return "[\"syscall\"]"; }`+"\n")
	// no mock.async: it does not read cgocost's configuration
	noAsync := buildSharedLib(t, "noasync", fakePlugin("3.0.0", `[{"name":"x.val","type":"uint64","desc":"d"}]`))
	empty := writeFile(t, "empty.txt", "")
	fifo := makeFIFO(t, filepath.Dir(empty), "events.fifo")
	text := writeFile(t, "text.so", "not an ELF file\n")
	cases := []struct {
		args []string
		want string
	}{
		{[]string{"--plugin", "/nonexistent/libx.so"}, "/nonexistent/libx.so: no such file"},
		{[]string{"--plugin", text}, "not a loadable shared library"},
		{[]string{"--plugin", notPlugin}, "lacks the required symbol plugin_get_required_api_version"},
		{[]string{"--plugin", oldAPI}, "requires plugin API 99.0.0; cgocost is built with plugin API 3."},
		{[]string{"--plugin", cmock, "--field", "mock.u46.0"}, "no such field (closest: mock.u64.0"},
		{[]string{"--plugin", cmock, "--events", "/nonexistent/events"}, "--events /nonexistent/events: cannot read it"},
		{[]string{"--plugin", cmock, "--events", empty}, "the file is empty"},
		// refused at once, not after --stall-timeout as a hang
		{[]string{"--plugin", cmock, "--events", "/dev/zero"}, "--events /dev/zero: not a regular file (a device)"},
		{[]string{"--plugin", cmock, "--events", fifo}, "not a regular file (a named FIFO)"},
		{[]string{"--plugin", cmock, "--payload-size", "99999999"}, "--payload-size: '99999999' is too large"},
		{[]string{"--field", "mock.u64.0"}, "--field applies to a plugin library"},
		{[]string{"--plugin", noAsync, "--field", "x.val", "-a"}, "-a: --plugin"},
		{[]string{"--plugin", cmock, "--compare"}, "--compare"},
		{[]string{"--plugin", syscallOnly, "--field", "x.val"}, "syscall events only"},
		{[]string{}, "no built-in plugin: name one with --plugin"},
		// one library loaded twice has one handle table (the SDK panicked)
		{[]string{"--plugin", mock, "--plugin", mock, "-p", "200"}, "is loaded 2 times, one library with one handle table: 400 live instances, at most 255"},
		{[]string{"--plugin", mock, "--idle", mock, "-p", "255"}, "256 live instances, at most 255"},
	}
	for _, c := range cases {
		r := run(t, host, nil, append([]string{"-n", "1000"}, c.args...)...)
		if r.code != 2 {
			t.Errorf("%v: exit %d, want 2 (stderr %q)", c.args, r.code, r.stderr)
			continue
		}
		lines := strings.Split(strings.TrimRight(r.stderr, "\n"), "\n")
		if len(lines) != 1 || !strings.Contains(lines[0], c.want) {
			t.Errorf("%v: want one line naming %q, got %q", c.args, c.want, r.stderr)
		}
		if r.stdout != "" {
			t.Errorf("%v: bad input measured something: %q", c.args, r.stdout)
		}
	}
}

// fakePlugin is the C source of a minimal plugin: the required symbols,
// one instance, every declared field a uint64 of 7.
func fakePlugin(apiVersion, fields string) string {
	return `#include <stdint.h>
#include <stdlib.h>
typedef struct { uint64_t *u64; } res_t;
typedef struct { res_t res; uint64_t res_len; uint32_t field_id; const char *field; const char *arg_key;
	uint64_t arg_index; uint8_t arg_present; uint32_t ftype; uint8_t flist; } field_t;
typedef struct { uint32_t num_fields; field_t *fields; } input_t;
static uint64_t seven = 7;
const char *plugin_get_required_api_version(void) { return "` + apiVersion + `"; }
const char *plugin_get_fields(void) { return "` + strings.ReplaceAll(fields, `"`, `\"`) + `"; }
void *plugin_init(const void *in, int32_t *rc) { (void)in; *rc = 0; return malloc(1); }
void plugin_destroy(void *s) { free(s); }
const char *plugin_get_last_error(void *s) { (void)s; return ""; }
int32_t plugin_extract_fields(void *s, const void *evt, const input_t *in) {
	(void)s; (void)evt;
	for (uint32_t i = 0; i < in->num_fields; i++) { in->fields[i].res.u64 = &seven; in->fields[i].res_len = 1; }
	return 0;
}
`
}

func buildSharedLib(t *testing.T, name, src string) string {
	t.Helper()
	dir := t.TempDir()
	c := filepath.Join(dir, name+".c")
	so := filepath.Join(dir, name+".so")
	if err := os.WriteFile(c, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	out, err := exec.Command("cc", "-shared", "-fPIC", "-o", so, c).CombinedOutput()
	if err != nil {
		t.Fatalf("cc: %v\n%s", err, out)
	}
	return so
}

func writeFile(t *testing.T, name, content string) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}
