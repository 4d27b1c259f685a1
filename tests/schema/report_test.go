package schema

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// The HTML report (go/cmd/report) reads bench documents: its fixtures must
// be documents bench could have written, and its reader's types must match
// the schema, as the matrix tool's do.
//
// The run's "command" and "decisions" (the contract of the report and the
// codec) are new: while docs/schema.json does not declare them yet, they are
// taken out of the fixtures before the check and left out of the reader's,
// each time with a line in the log; once the schema has them, both are
// checked like every other key.

const (
	reportDir        = "../../go/cmd/report"
	reportReaderRoot = "benchDoc"
)

// newTopLevel are the keys the schema may not have yet.
var newTopLevel = []string{"command", "decisions"}

// undeclared returns those of newTopLevel the schema has no key for.
func undeclared(sd *schemaDoc) map[string]bool {
	out := map[string]bool{}
	for _, k := range newTopLevel {
		if len(sd.children([]node{sd.root}, k)) == 0 {
			out[k] = true
		}
	}
	return out
}

// reportFixtures are the bench documents among the report's fixtures (the
// matrix's build/matrix.json is the matrix tool's format, not bench's).
func reportFixtures(t *testing.T) []string {
	t.Helper()
	files, err := filepath.Glob(filepath.Join(reportDir, "testdata", "*.json"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no report fixtures found (%v)", err)
	}
	var out []string
	for _, f := range files {
		if filepath.Base(f) != "matrix.json" {
			out = append(out, f)
		}
	}
	return out
}

func TestReportFixturesMatchSchema(t *testing.T) {
	sch, sd := compiled(t)
	skip := undeclared(sd)
	withNew := 0
	for _, f := range reportFixtures(t) {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		var d map[string]any
		if err := json.Unmarshal(data, &d); err != nil {
			t.Fatalf("%s: %v", f, err)
		}
		for k := range skip {
			if _, ok := d[k]; ok {
				withNew++
				delete(d, k)
				t.Logf("%s: %q left out: docs/schema.json does not declare it yet", filepath.Base(f), k)
			}
		}
		if len(skip) > 0 {
			if data, err = json.Marshal(d); err != nil {
				t.Fatal(err)
			}
		}
		if err := validate(sch, sd, data); err != nil {
			t.Errorf("%s: %v", f, err)
		}
	}
	if len(skip) > 0 && withNew == 0 {
		t.Error("no report fixture has command or decisions: the report's test of them reads nothing")
	}
}

func TestReportReaderMatchesSchema(t *testing.T) {
	_, sd := compiled(t)
	skip := undeclared(sd)
	problems, fields := readerMismatches(sd, mainPackageType(t, reportDir, reportReaderRoot), []node{sd.root})
	for _, p := range problems {
		key, _, _ := strings.Cut(strings.TrimPrefix(p, "$."), ":")
		key, _, _ = strings.Cut(key, ".")
		if skip[key] {
			t.Logf("%s (docs/schema.json does not declare %q yet)", p, key)
			continue
		}
		t.Error(p)
	}
	if fields < 60 {
		t.Errorf("walked %d fields of %s; the walk lost its way", fields, reportReaderRoot)
	}
	t.Logf("%d fields of the report's %s checked against the schema", fields, reportReaderRoot)
}
