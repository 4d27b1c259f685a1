package main

import (
	"os"
	"testing"

	"cgocost/go/internal/outputrule"
)

func TestMain(m *testing.M) {
	outputrule.Main(main)
	os.Exit(m.Run())
}

// -o keeps the one rule of every output (go/internal/atomicfile), and a
// page lost on stdout (closed, a full device) is exit 3.
func TestOutputRule(t *testing.T) {
	outputrule.File(t, "report.html", false, func(path string) []string {
		return []string{"-o", path, fixture("floors.json")}
	})
	outputrule.Stdout(t, func(string) []string { return []string{fixture("floors.json")} })
}
