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

// The files of -out keep the one rule of every output
// (go/internal/atomicfile), and a table lost on stdout is exit 3.
func TestOutputRule(t *testing.T) {
	outputrule.File(t, "matrix.json", true, func(path string) []string {
		return append([]string{"report", "-out", filepath.Dir(path)}, fixtures...)
	})
	outputrule.Stdout(t, func(dir string) []string {
		return append([]string{"report", "-out", dir}, fixtures...)
	})
}
