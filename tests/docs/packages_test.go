package docs

// The table of Debian packages (scripts/packages.txt) that scripts/setup.sh
// installs by purpose: every package named once, the purposes covering what
// setup.sh installed before the table (one list for everything), make bench
// installing the build's packages alone, and each target that needs a
// purpose naming it.

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"cgocost/tests/testbuild"
)

const packagesTable = "scripts/packages.txt"

// setupBefore is scripts/setup.sh's one list before the table (commit
// aed9c71): every package in it must still be installed by some purpose.
const setupBefore = "gcc make pkg-config jq clang-format libcmocka-dev libjansson-dev libmongocrypt-dev " +
	"golang-1.19-go libjemalloc2 libtcmalloc-minimal4 libmimalloc2.0 " +
	"clang-14 libclang-rt-14-dev libfuzzer-14-dev chromium fonts-liberation valgrind linux-perf"

type packageRow struct {
	pkg, purpose string
	line         int
}

// readPackages is the table's rows, comments and blank lines skipped; a row
// without its "what needs it" fails the test.
func readPackages(t *testing.T, root string) []packageRow {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(root, packagesTable))
	if err != nil {
		t.Fatal(err)
	}
	var rows []packageRow
	for i, l := range strings.Split(string(data), "\n") {
		l, _, _ = strings.Cut(l, "#")
		f := strings.Fields(l)
		if len(f) == 0 {
			continue
		}
		if len(f) < 3 {
			t.Errorf("%s:%d: %q: want the package, its purpose and what needs it", packagesTable, i+1, l)
			continue
		}
		rows = append(rows, packageRow{f[0], f[1], i + 1})
	}
	if len(rows) == 0 {
		t.Fatalf("%s has no package", packagesTable)
	}
	return rows
}

// setupList is scripts/setup.sh --list's answer for the purposes.
func setupList(t *testing.T, root string, purposes string) (int, []string) {
	t.Helper()
	code, out, err := testbuild.Shell(root, os.Environ(), "sh scripts/setup.sh --list "+purposes, time.Minute)
	if err != nil {
		t.Fatalf("setup.sh --list %s: %v\n%s", purposes, err, out)
	}
	return code, strings.Fields(string(out))
}

func TestPackagesTable(t *testing.T) {
	root := repoRoot(t)
	rows := readPackages(t, root)
	byPurpose := map[string][]string{}
	seen := map[string]int{}
	var all []string
	for _, r := range rows {
		if l, ok := seen[r.pkg]; ok {
			t.Errorf("%s:%d: %s is named again (line %d): a package has one purpose", packagesTable, r.line, r.pkg, l)
		}
		seen[r.pkg] = r.line
		byPurpose[r.purpose] = append(byPurpose[r.purpose], r.pkg)
		all = append(all, r.pkg)
	}
	for _, p := range strings.Fields(setupBefore) {
		if _, ok := seen[p]; !ok {
			t.Errorf("%s: %s, which scripts/setup.sh installed before the table, has no purpose", packagesTable, p)
		}
	}

	// setup.sh reads the table: all is every row, a purpose its rows
	if code, got := setupList(t, root, ""); code != 0 || strings.Join(got, " ") != strings.Join(all, " ") {
		t.Errorf("setup.sh --list: exit %d, %v; want every package of the table %v", code, got, all)
	}
	for p, want := range byPurpose {
		if code, got := setupList(t, root, p); code != 0 || strings.Join(got, " ") != strings.Join(want, " ") {
			t.Errorf("setup.sh --list %s: exit %d, %v; want %v", p, code, got, want)
		}
	}
	if code, got := setupList(t, root, "build nosuchpurpose"); code != 2 || !strings.Contains(strings.Join(got, " "), "no purpose 'nosuchpurpose'") {
		t.Errorf("setup.sh --list with an unknown purpose: exit %d, %v; want exit 2 and the one line saying so", code, got)
	}

	// what a plain make checks for (mk/deps.mk) is the build's
	code, out, err := testbuild.Shell(root, os.Environ(), `make -s --no-print-directory --eval='cgocost-print-deps: ; @echo $(DEPS_PACKAGES)' cgocost-print-deps`, time.Minute)
	if err != nil || code != 0 {
		t.Fatalf("make cannot say what DEPS_PACKAGES holds: exit %d, %v\n%s", code, err, out)
	}
	for _, p := range strings.Fields(string(out)) {
		if r, ok := seen[p]; !ok || rows[indexOf(rows, p)].purpose != "build" {
			t.Errorf("%s: mk/deps.mk checks for %s, which is not of purpose build (line %d)", packagesTable, p, r)
		}
	}
}

func indexOf(rows []packageRow, pkg string) int {
	for i, r := range rows {
		if r.pkg == pkg {
			return i
		}
	}
	return 0
}

// Who installs what: make bench the build's packages alone, make setup all
// of them, and each target its purpose; every purpose is some target's.
func TestPackagesByTarget(t *testing.T) {
	root := repoRoot(t)
	rows := readPackages(t, root)
	setupLine := regexp.MustCompile(`(?m)^GO=\S* sh scripts/setup.sh (.*)$`)
	covered := map[string]bool{}
	for _, c := range []struct{ goal, want string }{
		{"bench", "build"},
		{"setup", "all"},
		// (not make -n matrix: its recipe runs the matrix tool, which
		// runs make, so -n would measure)
		{"test-matrix", "matrix"},
		{"test-unit", "unit"},
		{"test-format", "format"},
		{"test-fuzz", "fuzz"},
		{"test-browser", "browser"},
		{"test-mongocrypt", "mongocrypt"},
		{"alloc-matrix", "alloc mongocrypt"},
		{"power COUNT=instructions", "gate count"},
		{"regress", "gate"},
	} {
		code, out, err := testbuild.Shell(root, os.Environ(), "make -n --no-print-directory "+c.goal, 2*time.Minute)
		if err != nil || code != 0 {
			t.Errorf("make -n %s: exit %d, %v\n%s", c.goal, code, err, out)
			continue
		}
		var got []string
		for _, m := range setupLine.FindAllStringSubmatch(string(out), -1) {
			got = append(got, m[1])
		}
		if len(got) != 1 || got[0] != c.want {
			t.Errorf("make %s runs scripts/setup.sh with %q, want once with %q", c.goal, got, c.want)
		}
		for _, p := range strings.Fields(c.want) {
			covered[p] = true
		}
	}
	for _, r := range rows {
		if !covered[r.purpose] {
			t.Errorf("%s:%d: purpose %s is installed by no target but make setup", packagesTable, r.line, r.purpose)
		}
	}
}
