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

// -o keeps the one rule of every output (go/internal/atomicfile): a FIFO,
// a device, a link or a directory is refused (exit 2) and kept.
func TestOutputRule(t *testing.T) {
	outputrule.File(t, "latency.svg", false, func(path string) []string {
		return []string{"-o", path, "testdata/sweep.json"}
	})
}
