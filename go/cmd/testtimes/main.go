// Command testtimes reads the event stream of `go test -json` on its
// standard input and does two things with it: it prints what `go test`
// without -v would have printed (a failed test's output, build errors, each
// package's own summary line: ok or FAIL), and it writes the table of the
// top-level tests' durations, slowest first, to the file given by -o. make
// test pipes its Go test runs through it (issue 35: the long poles of make
// test, found from a table, not guessed).
//
//	go test -json ./tests/integration/ | testtimes -o build/times/integration.txt
//
// The package summary lines are printed last, after one line naming the
// table and the slowest tests, so that a run still ends with the runner's
// own lines. The exit status is 0 unless the table cannot be written (3) or
// the arguments are wrong (2): the caller takes go test's own status.
package main

import (
	"bufio"
	"flag"
	"fmt"
	"io"
	"os"
	"strings"

	"cgocost/go/internal/atomicfile"
)

func main() {
	out := flag.String("o", "", "the file the table of durations is written to (required)")
	top := flag.Int("top", 5, "how many of the slowest tests the summary line names")
	flag.Usage = func() {
		fmt.Fprintln(os.Stderr, "usage: go test -json ... | testtimes -o FILE [-top N]")
	}
	flag.Parse()
	if *out == "" || flag.NArg() != 0 || *top < 0 {
		fmt.Fprintln(os.Stderr, "testtimes: give -o FILE and no other argument (go test -json ... | testtimes -o FILE)")
		os.Exit(2)
	}
	if err := atomicfile.Check(*out); err != nil {
		fmt.Fprintf(os.Stderr, "testtimes: -o %v\n", err)
		os.Exit(2)
	}
	run, err := Read(os.Stdin, os.Stdout)
	if err != nil {
		fmt.Fprintf(os.Stderr, "testtimes: %v\n", err)
	}
	if werr := atomicfile.WriteFile(*out, []byte(run.Table())); werr != nil {
		fmt.Fprintf(os.Stderr, "testtimes: %v\n", werr)
		run.PrintSummaries(os.Stdout)
		os.Exit(3)
	}
	fmt.Fprintf(os.Stdout, "timings: %s (%s)\n", *out, run.Slowest(*top))
	run.PrintSummaries(os.Stdout)
}

// scanner for one event a line; a line of output can be long.
func lines(r io.Reader) *bufio.Scanner {
	s := bufio.NewScanner(r)
	s.Buffer(make([]byte, 1<<20), 64<<20)
	return s
}

// trimPass drops go test -v's lone "PASS" line of a package, which go test
// without -v does not print.
func trimPass(s string) bool { return strings.TrimSpace(s) == "PASS" }
