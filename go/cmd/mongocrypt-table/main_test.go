package main

import (
	"bytes"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

var update = flag.Bool("update", false, "rewrite testdata/*.golden")

// The whole output for a recorded run of `make bench-mongocrypt`.
func TestGolden(t *testing.T) {
	var out, errOut bytes.Buffer
	code := run1([]string{"testdata/bulk.txt", "testdata/micro.txt"}, nil, &out, &errOut)
	if code != 0 {
		t.Fatalf("exit %d, stderr %q", code, errOut.String())
	}
	golden := filepath.Join("testdata", "table.golden")
	if *update {
		if err := os.WriteFile(golden, out.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(golden)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(out.Bytes(), want) {
		t.Errorf("output differs from %s (go test -update rewrites it):\n%s", golden, out.String())
	}
}

// Standard input works as a file, and either part alone gives its table.
func TestPartsAndStdin(t *testing.T) {
	micro, err := os.ReadFile("testdata/micro.txt")
	if err != nil {
		t.Fatal(err)
	}
	var out, errOut bytes.Buffer
	if code := run1([]string{"-"}, bytes.NewReader(micro), &out, &errOut); code != 0 {
		t.Fatalf("exit %d: %s", code, errOut.String())
	}
	if strings.Contains(out.String(), "Bulk decryption") || !strings.Contains(out.String(), "Per-value costs") {
		t.Errorf("micro alone printed:\n%s", out.String())
	}
	out.Reset()
	if code := run1([]string{"testdata/bulk.txt"}, nil, &out, &errOut); code != 0 {
		t.Fatalf("exit %d: %s", code, errOut.String())
	}
	if !strings.Contains(out.String(), "Bulk decryption") || strings.Contains(out.String(), "Per-value costs") {
		t.Errorf("bulk alone printed:\n%s", out.String())
	}
}

// The repetitions logged after a result belong to the last run of that
// benchmark, and each -count pass adds its own.
func TestRepsFollowTheirResult(t *testing.T) {
	in := `pkg: x
BenchmarkBulkDecryption/crypto=go/access=direct/threads=2-2   	      40	   1000000 ns/op	 1000 ops/s	 11 go-c-calls/op	 3000 c-go-calls/op
--- BENCH: BenchmarkBulkDecryption/crypto=go/access=direct/threads=2-2
    bench_test.go:84: reps ops/s: 1 1 1
    bench_test.go:84: reps ops/s: 999 1000 1001
BenchmarkBulkDecryption/crypto=go/access=direct/threads=2-2   	      40	   500000 ns/op	 2000 ops/s	 11 go-c-calls/op	 3000 c-go-calls/op
--- BENCH: BenchmarkBulkDecryption/crypto=go/access=direct/threads=2-2
    bench_test.go:84: reps ops/s: 2 2
    bench_test.go:84: reps ops/s: 1999 2001
`
	var r run
	if err := parse(&r, "in", []byte(in)); err != nil {
		t.Fatal(err)
	}
	c := r.bulk[bulkKey{"go", "direct", 2}]
	if c == nil {
		t.Fatal("cell not found")
	}
	want := []float64{999, 1000, 1001, 1999, 2001}
	if len(c.reps) != len(want) {
		t.Fatalf("reps %v, want %v", c.reps, want)
	}
	for i := range want {
		if c.reps[i] != want[i] {
			t.Fatalf("reps %v, want %v", c.reps, want)
		}
	}
	if len(c.reported) != 2 || c.goToC != 11 || c.cToGo != 3000 || r.procs != 2 {
		t.Errorf("cell %+v, procs %d", c, r.procs)
	}
}

func TestExitStatus(t *testing.T) {
	dir := t.TempDir()
	write := func(name, content string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	for _, tc := range []struct {
		name string
		args []string
		code int
		msg  string
	}{
		{"no arguments", nil, 2, "usage"},
		{"missing file", []string{filepath.Join(dir, "nope.txt")}, 2, "no such file"},
		{"no results", []string{write("empty.txt", "goos: linux\nPASS\n")}, 2, "no BenchmarkBulkDecryption"},
		{"malformed line", []string{write("bad.txt", "BenchmarkBinaryRead/access=direct/size=16-2 x 5 ns/op\n")}, 2, "iteration count"},
		{"no size", []string{write("nosize.txt", "BenchmarkGoCopy/n=16-2 10 5 ns/op\n")}, 2, "want size="},
		{"failed run", []string{write("fail.txt", "BenchmarkGoCopy/size=16-2 10 5 ns/op\n--- FAIL: BenchmarkBulkDecryption\nFAIL\n")}, 3, "failed"},
	} {
		var out, errOut bytes.Buffer
		code := run1(tc.args, nil, &out, &errOut)
		if code != tc.code || !strings.Contains(errOut.String(), tc.msg) {
			t.Errorf("%s: exit %d, stderr %q; want exit %d mentioning %q", tc.name, code, errOut.String(), tc.code, tc.msg)
		}
		if strings.Count(errOut.String(), "\n") != 1 {
			t.Errorf("%s: stderr is not one line: %q", tc.name, errOut.String())
		}
	}
}
