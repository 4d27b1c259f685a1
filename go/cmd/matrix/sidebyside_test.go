package main

import (
	"crypto/sha256"
	"encoding/json"
	"fmt"
	"maps"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"
)

// TestSideBySide builds the plugin and both drivers with the default
// toolchain (into build/) and with an old one (into build/<go version>/),
// then checks that neither build overwrote the other and that each binary
// reports the Go version that built it. It runs from `make test-matrix`,
// which sets CGOCOST_ROOT and CGOCOST_OLD_GO.
func TestSideBySide(t *testing.T) {
	root := os.Getenv("CGOCOST_ROOT")
	oldGo := os.Getenv("CGOCOST_OLD_GO")
	if root == "" || oldGo == "" {
		t.Skip("CGOCOST_ROOT and CGOCOST_OLD_GO unset: run through make test-matrix")
	}
	if _, err := os.Stat(oldGo); err != nil {
		t.Fatalf("the old toolchain %s is missing (make setup installs golang-1.19-go): %v", oldGo, err)
	}
	newVer := goVersion(t, root, "go")
	oldVer := goVersion(t, root, oldGo)
	if newVer == oldVer {
		t.Fatalf("both toolchains are %s: nothing to tell apart", newVer)
	}
	defDir := filepath.Join(root, "build")
	oldDir := filepath.Join(root, "build", oldVer)
	outputs := []string{"bench", "bench-shared", "libmock.a", "libmock.so"}

	makeAll(t, root)
	defSums := sums(t, defDir, outputs)
	makeAll(t, root, "GO="+oldGo)
	oldSums := sums(t, oldDir, outputs)
	// Building with one toolchain leaves the other's outputs alone, in
	// either order.
	if got := sums(t, defDir, outputs); !maps.Equal(got, defSums) {
		t.Errorf("building with %s changed build/:\n%s", oldVer, diffSums(defSums, got))
	}
	makeAll(t, root)
	if got := sums(t, oldDir, outputs); !maps.Equal(got, oldSums) {
		t.Errorf("building with the default toolchain changed build/%s:\n%s", oldVer, diffSums(oldSums, got))
	}
	// What the Go toolchain builds differs; bench-shared may not (it is the
	// same C code, linked against libmock.so through $ORIGIN), which is why
	// each binary's own report is checked below.
	for _, name := range []string{"bench", "libmock.a", "libmock.so"} {
		if defSums[name] == oldSums[name] {
			t.Errorf("build/%s and build/%s/%s have the same content", name, oldVer, name)
		}
	}

	for _, c := range []struct{ dir, ver string }{{defDir, newVer}, {oldDir, oldVer}} {
		for exe, lib := range map[string]string{"bench": "archive", "bench-shared": "shared"} {
			path := filepath.Join(c.dir, exe)
			out, err := exec.Command(path, "-n", "1000").CombinedOutput()
			if err != nil {
				t.Fatalf("%s -n 1000: %v\n%s", path, err, out)
			}
			re := regexp.MustCompile(`(?m)^# plugin: ` + lib + ` \(.*\), (go[^,]+), plugin-sdk-go (v[^,]+),`)
			m := re.FindSubmatch(out)
			if m == nil {
				t.Fatalf("%s prints no '# plugin: %s' line:\n%s", path, lib, out)
			}
			if string(m[1]) != c.ver {
				t.Errorf("%s reports %s, want %s", path, m[1], c.ver)
			}
			if string(m[2]) != "v0.8.3" {
				t.Errorf("%s reports plugin-sdk-go %s, want the pinned v0.8.3", path, m[2])
			}
		}
		checkCompareJSON(t, filepath.Join(c.dir, "bench"), c.ver)
	}
}

// checkCompareJSON checks cells[].go_version in a tiny `bench --compare`
// document, once the driver has --compare.
func checkCompareJSON(t *testing.T, exe, ver string) {
	help, _ := exec.Command(exe, "--help").CombinedOutput()
	if !strings.Contains(string(help), "--compare") {
		t.Logf("%s has no --compare yet: JSON go_version not checked", exe)
		return
	}
	out, err := exec.Command(exe, "--compare", "--format", "json", "--launches", "1", "-n", "1000").Output()
	if err != nil {
		t.Fatalf("%s --compare --format json: %v", exe, err)
	}
	var doc struct {
		Cells []struct {
			Name      string `json:"name"`
			Lib       string `json:"lib"`
			GoVersion string `json:"go_version"`
		} `json:"cells"`
	}
	if err := json.Unmarshal(out, &doc); err != nil {
		t.Fatalf("%s --compare --format json printed no JSON: %v", exe, err)
	}
	// the four Go cells, and the C plugin's (bench-host with libcmock.so,
	// the no-Go baseline, and its async: the round trip) when it is built
	// next to exe
	goCells, cCells, harness := 0, 0, 0
	for _, c := range doc.Cells {
		if c.Lib == "loaded" {
			cCells++
			if c.GoVersion != "none" {
				t.Errorf("%s --compare: C plugin cell %s go_version %q, want none", exe, c.Name, c.GoVersion)
			}
			continue
		}
		// the harness check of a paired run (bench --work bare and the
		// textbook loop, sync and async): not the toolchain's cells; the
		// textbook loop's document does not name its Go ("unknown"), and
		// must not name another
		if strings.Contains(c.Name, "/work=bare/") {
			harness++
			if c.GoVersion != ver && !(strings.HasSuffix(c.Name, "/driver=textbook") && c.GoVersion == "unknown") {
				t.Errorf("%s --compare: harness cell %s go_version %q, want %s", exe, c.Name, c.GoVersion, ver)
			}
			continue
		}
		goCells++
		if c.GoVersion != ver {
			t.Errorf("%s --compare: cell %s go_version %q, want %s", exe, c.Name, c.GoVersion, ver)
		}
	}
	// the C plugin's cells: its sync and its async (the round trip)
	if goCells != 4 || cCells > 2 || (harness != 0 && harness != 4) {
		t.Errorf("%s --compare: %d Go cells, %d C plugin cells and %d of the harness check, want 4, at most 2 and 0 or 4",
			exe, goCells, cCells, harness)
	}
}

// cleanEnv drops what an enclosing make passes down, so that each make
// here sees only the variables given on its command line.
func cleanEnv() []string {
	var env []string
	for _, kv := range os.Environ() {
		k, _, _ := strings.Cut(kv, "=")
		switch k {
		case "MAKEFLAGS", "MFLAGS", "MAKELEVEL", "GO", "BUILD", "PLUGIN_GOFLAGS":
			continue
		}
		env = append(env, kv)
	}
	return env
}

func goVersion(t *testing.T, root, goCmd string) string {
	t.Helper()
	cmd := exec.Command(goCmd, "env", "GOVERSION")
	cmd.Dir = root
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("%s env GOVERSION: %v", goCmd, err)
	}
	return strings.TrimSpace(string(out))
}

func makeAll(t *testing.T, root string, vars ...string) {
	t.Helper()
	args := append([]string{"-C", root, "--no-print-directory"}, vars...)
	cmd := exec.Command("make", append(args, "all")...)
	cmd.Env = cleanEnv()
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("make %s all: %v\n%s", strings.Join(vars, " "), err, out)
	}
}

// sums maps each output file to the SHA-256 of its content.
func sums(t *testing.T, dir string, names []string) map[string]string {
	t.Helper()
	m := map[string]string{}
	for _, n := range names {
		data, err := os.ReadFile(filepath.Join(dir, n))
		if err != nil {
			t.Fatalf("after the build: %v", err)
		}
		m[n] = fmt.Sprintf("%x", sha256.Sum256(data))
	}
	return m
}

func diffSums(a, b map[string]string) string {
	var out []string
	for n := range a {
		if a[n] != b[n] {
			out = append(out, "  "+n+" changed")
		}
	}
	sort.Strings(out)
	return strings.Join(out, "\n")
}
