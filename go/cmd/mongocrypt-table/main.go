// Command mongocrypt-table builds the table of `make bench-mongocrypt` from
// the text output of `go test -bench` in go/mongocrypt: bulk decryption
// throughput per crypto, access and thread count with intervals and ratios,
// crossings per operation, per-value costs, and where the accessor cost
// drowns in the noise of the bulk figure.
//
// Usage:
//
//	mongocrypt-table FILE...   (- reads standard input)
//
// Exit status: 0 the table was printed; 2 bad input (unreadable, no
// results, malformed lines); 3 the input shows a failed run. A warning on
// standard error (exit status still 0) says when other processes used the
// CPUs during the bulk cells.
package main

import (
	"bufio"
	"fmt"
	"io"
	"os"
)

func main() {
	os.Exit(run1(os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
}

func run1(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	if len(args) == 0 || args[0] == "-h" || args[0] == "-help" || args[0] == "--help" {
		fmt.Fprintln(stderr, "usage: mongocrypt-table FILE... (go test -bench output of go/mongocrypt; - for stdin)")
		return 2
	}
	var r run
	for _, name := range args {
		var data []byte
		var err error
		if name == "-" {
			data, err = io.ReadAll(stdin)
		} else {
			data, err = os.ReadFile(name)
		}
		if err != nil {
			fmt.Fprintf(stderr, "mongocrypt-table: %v\n", err)
			return 2
		}
		if err := parse(&r, name, data); err != nil {
			fmt.Fprintf(stderr, "mongocrypt-table: %v\n", err)
			return 2
		}
	}
	if r.failed {
		fmt.Fprintln(stderr, "mongocrypt-table: the input shows a failed test or benchmark; no table")
		return 3
	}
	out := bufio.NewWriter(stdout)
	if err := report(out, stderr, &r); err != nil {
		fmt.Fprintf(stderr, "mongocrypt-table: %v\n", err)
		return 2
	}
	if err := out.Flush(); err != nil {
		fmt.Fprintf(stderr, "mongocrypt-table: %v\n", err)
		return 3
	}
	return 0
}
