package main

import (
	"os"
	"path/filepath"
	"testing"

	"cgocost/go/internal/outputrule"
)

func TestMain(m *testing.M) {
	outputrule.Main(main)
	os.Exit(m.Run())
}

// -o keeps the one rule of every output (go/internal/atomicfile), and a
// table lost on stdout (closed, a full device) is exit 3.
func TestOutputRule(t *testing.T) {
	outputrule.File(t, "perevent.svg", false, func(path string) []string {
		return []string{"-o", path, "testdata/k1.json", "testdata/k4.json"}
	})
	outputrule.Stdout(t, func(dir string) []string {
		return []string{"-o", filepath.Join(dir, "perevent.svg"), "testdata/k1.json", "testdata/k4.json"}
	})
}
