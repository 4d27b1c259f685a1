package docs

// The CI recipe's workflow kept in step with docs/ci.md (make test-workflow,
// mk/ci.mk): every line of its run: scripts that runs build/bench or make
// is a command docs/ci.md shows, word for word (and so one that tests/docs
// runs, or runs in its smoke form); every gate docs/ci.md shows is in the
// workflow; the workflow installs every package mk/deps.mk can name.

import (
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"cgocost/tests/testbuild"
)

const (
	workflowFile = ".github/workflows/cgocost.yml"
	ciDoc        = "docs/ci.md"
)

// RunLines extracts the command lines of every run: script of a GitHub
// Actions workflow, a one-line run: or a block (run: | or run: >) whose
// lines are those indented deeper than the run: key. Each script is read
// as an sh block of the docs is (Parse: blank lines and comments skipped, a
// line ending in a backslash continued on the next, a trailing comment
// dropped), its lines and problems numbered as in the workflow.
// It reads lines, not YAML: a run: key anywhere counts (a workflow has no
// other key of that name), and a one-line value is taken as written.
func RunLines(text string) ([]Command, []string) {
	var out []Command
	var problems []string
	lines := strings.Split(text, "\n")
	for i := 0; i < len(lines); i++ {
		key := strings.TrimLeft(lines[i], " ")
		key = strings.TrimPrefix(key, "- ")
		if !strings.HasPrefix(key, "run:") {
			continue
		}
		indent := len(lines[i]) - len(strings.TrimLeft(lines[i], " -"))
		val := strings.TrimSpace(strings.TrimPrefix(key, "run:"))
		// the script, and its fence's line: the one before its first
		var script []string
		fence := i + 1
		if val != "" && val[0] != '|' && val[0] != '>' {
			script, fence = []string{strings.Trim(val, `"'`)}, i
		} else {
			for i+1 < len(lines) {
				l := lines[i+1]
				if strings.TrimSpace(l) != "" && len(l)-len(strings.TrimLeft(l, " ")) <= indent {
					break
				}
				script = append(script, l)
				i++
			}
		}
		d := Parse(workflowFile, strings.Repeat("\n", max(fence-1, 0))+"```sh\n"+strings.Join(script, "\n")+"\n```\n")
		out = append(out, d.Commands...)
		problems = append(problems, d.Problems...)
	}
	return out, problems
}

// workflowCommands is RunLines' commands of the workflow, its problems
// failing the test.
func workflowCommands(t *testing.T, text string) []Command {
	t.Helper()
	cmds, problems := RunLines(text)
	for _, p := range problems {
		t.Error(p)
	}
	return cmds
}

// gated reports whether a run: line is one docs/ci.md must show: it runs
// build/bench or make.
func gated(line string) bool {
	w := words(line)
	return len(w) > 0 && (w[0] == "make" || strings.Contains(line, "build/bench"))
}

func TestWorkflowCommandsDocumented(t *testing.T) {
	root := repoRoot(t)
	data, err := os.ReadFile(filepath.Join(root, workflowFile))
	if err != nil {
		t.Fatal(err)
	}
	doc, err := os.ReadFile(filepath.Join(root, ciDoc))
	if err != nil {
		t.Fatal(err)
	}
	d := Parse(ciDoc, string(doc))
	shown := map[string]bool{}
	for _, c := range d.Commands {
		shown[c.Text] = true
	}
	benches, makes := 0, 0
	inWorkflow := map[string]bool{}
	for _, r := range workflowCommands(t, string(data)) {
		inWorkflow[r.Text] = true
		if !gated(r.Text) {
			continue
		}
		if strings.Contains(r.Text, "build/bench") {
			benches++
		} else {
			makes++
		}
		if !shown[r.Text] {
			t.Errorf("%s:%d: %q is no command of %s's sh blocks: show it there, word for word, so that tests/docs runs it", workflowFile, r.Line, r.Text, ciDoc)
		}
	}
	if benches < 2 || makes < 1 {
		t.Errorf("%s: %d build/bench lines and %d make lines found in its run: scripts, want the two gates and the build", workflowFile, benches, makes)
	}
	// the other way: a gate docs/ci.md shows (a verdict against the base
	// checkout) is one the workflow runs
	for _, c := range d.Commands {
		if strings.Contains(c.Text, "--against ../base/") && !inWorkflow[c.Text] {
			t.Errorf("%s:%d: the gate %q is not in %s", c.File, c.Line, c.Text, workflowFile)
		}
	}
}

// The workflow installs what a plain make checks for (mk/deps.mk), so that
// its make cannot stop at the check.
func TestWorkflowInstallsBuildPackages(t *testing.T) {
	root := repoRoot(t)
	code, out, err := testbuild.Shell(root, os.Environ(), `make -s --no-print-directory --eval='cgocost-print-deps: ; @echo $(DEPS_PACKAGES)' cgocost-print-deps`, time.Minute)
	if err != nil || code != 0 {
		t.Fatalf("make cannot say what DEPS_PACKAGES holds: exit %d, %v\n%s", code, err, out)
	}
	pkgs := strings.Fields(string(out))
	if len(pkgs) == 0 {
		t.Fatal("mk/deps.mk names no package (DEPS_PACKAGES)")
	}
	data, err := os.ReadFile(filepath.Join(root, workflowFile))
	if err != nil {
		t.Fatal(err)
	}
	var installed []string
	for _, r := range workflowCommands(t, string(data)) {
		if w := words(r.Text); strings.Contains(r.Text, "apt-get install") {
			installed = append(installed, w...)
		}
	}
	for _, p := range pkgs {
		found := false
		for _, w := range installed {
			found = found || w == p
		}
		if !found {
			t.Errorf("%s installs no %s, which mk/deps.mk checks for (a plain make there would stop)", workflowFile, p)
		}
	}
}

func TestRunLines(t *testing.T) {
	yml := `jobs:
  a:
    steps:
      - run: make
      - name: x
        run: |
          set +e
          # a comment
          build/bench -a \
            --against ../base/build/bench
          echo "status=$?" >> "$GITHUB_OUTPUT"
      - name: y
        working-directory: head
        run: "make -j2"
      - uses: actions/github-script@v7
        with:
          script: |
            core.info('not run: a script');
  b:
    steps:
      - run: >
          folded
      - run: echo last
`
	got, problems := RunLines(yml)
	var want []Command
	for _, c := range []struct {
		line int
		text string
	}{
		{4, "make"},
		{7, "set +e"},
		{9, "build/bench -a --against ../base/build/bench"},
		{11, `echo "status=$?" >> "$GITHUB_OUTPUT"`},
		{14, "make -j2"},
		{22, "folded"},
		{23, "echo last"},
	} {
		want = append(want, Command{File: workflowFile, Line: c.line, Text: c.text})
	}
	if !reflect.DeepEqual(got, want) || problems != nil {
		t.Errorf("RunLines:\n got %v, problems %q\nwant %v", got, problems, want)
	}
	if !gated("build/bench -a --against x") || !gated("make") || gated(`echo "status=$?"`) || gated("makeself") {
		t.Error("gated: build/bench and make lines only")
	}
}
