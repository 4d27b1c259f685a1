package main

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"strconv"
	"strings"

	"golang.org/x/perf/benchfmt"
)

// A run is what the table is made of: the bulk decryption cells and the
// per-value micro-benchmarks, read from `go test -bench` text output.
type run struct {
	config map[string]string // file configuration (libmongocrypt, threads, cpu, ...)
	bulk   map[bulkKey]*bulkCell
	micro  map[microKey][]float64 // ns/op samples
	failed bool                   // the input reports a failed test or benchmark
	procs  int                    // the GOMAXPROCS suffix of the result names
}

type bulkKey struct {
	crypto, access string
	threads        int
}

type bulkCell struct {
	reported []float64 // the ops/s metric of each result line (a median each)
	reps     []float64 // the logged repetitions of every result line
	goToC    float64
	cToGo    float64
	others   []float64 // CPUs kept busy by other processes, per result line
}

// microKey names a micro-benchmark cell: bench is BinaryRead, GoCopy,
// BinaryFromBytes or BinaryLifecycle; variant is its mode keys joined by
// "/" (e.g. "access=direct", "mode=alloc/bytes=pin"), without the size.
type microKey struct {
	bench, variant string
	size           int
}

var microBenches = map[string]bool{
	"BinaryRead": true, "GoCopy": true, "BinaryFromBytes": true, "BinaryLifecycle": true,
}

const repsMarker = "reps ops/s:"

// parse reads one input. Benchmark lines go through benchfmt; the logged
// repetitions, which benchfmt skips, are read from the same text.
func parse(r *run, name string, data []byte) error {
	if r.config == nil {
		r.config = map[string]string{}
		r.bulk = map[bulkKey]*bulkCell{}
		r.micro = map[microKey][]float64{}
	}
	reps, failed, err := scanReps(data)
	if err != nil {
		return fmt.Errorf("%s: %v", name, err)
	}
	r.failed = r.failed || failed

	br := benchfmt.NewReader(bytes.NewReader(data), name)
	seen := map[string]int{} // result lines per full name, to match reps
	for br.Scan() {
		switch rec := br.Result().(type) {
		case *benchfmt.SyntaxError:
			return rec
		case *benchfmt.Result:
			for _, c := range rec.Config {
				if c.File {
					r.config[c.Key] = string(c.Value)
				}
			}
			full := string(rec.Name.Full())
			i := seen[full]
			seen[full]++
			var cellReps []float64
			if i < len(reps[full]) {
				cellReps = reps[full][i]
			}
			if err := r.add(rec, cellReps); err != nil {
				return fmt.Errorf("%s: %v", name, err)
			}
		}
	}
	return br.Err()
}

// add files one result line.
func (r *run) add(res *benchfmt.Result, reps []float64) error {
	base, keys, err := splitName(res.Name)
	if err != nil {
		return err
	}
	if _, parts := res.Name.Parts(); len(parts) > 0 {
		if p := parts[len(parts)-1]; p[0] == '-' {
			r.procs, _ = strconv.Atoi(string(p[1:]))
		}
	}
	switch {
	case base == "BulkDecryption":
		threads, err := strconv.Atoi(keys.get("threads"))
		if err != nil || keys.get("crypto") == "" || keys.get("access") == "" {
			return fmt.Errorf("%s: want crypto=, access= and threads=", res.Name)
		}
		k := bulkKey{keys.get("crypto"), keys.get("access"), threads}
		c := r.bulk[k]
		if c == nil {
			c = &bulkCell{}
			r.bulk[k] = c
		}
		ops, ok := res.Value("ops/s")
		if !ok {
			return fmt.Errorf("%s: no ops/s metric", res.Name)
		}
		c.reported = append(c.reported, ops)
		c.reps = append(c.reps, reps...)
		c.goToC, _ = res.Value("go-c-calls/op")
		c.cToGo, _ = res.Value("c-go-calls/op")
		if o, ok := res.Value("other-cpus"); ok {
			c.others = append(c.others, o)
		}
	case microBenches[base]:
		size, err := strconv.Atoi(keys.get("size"))
		if err != nil {
			return fmt.Errorf("%s: want size=", res.Name)
		}
		ns, ok := res.Value("sec/op") // benchfmt normalizes ns/op to sec/op
		if !ok {
			return fmt.Errorf("%s: no ns/op", res.Name)
		}
		k := microKey{base, keys.without("size"), size}
		r.micro[k] = append(r.micro[k], ns*1e9)
	}
	return nil
}

type nameKeys [][2]string

func (ks nameKeys) get(key string) string {
	for _, kv := range ks {
		if kv[0] == key {
			return kv[1]
		}
	}
	return ""
}

func (ks nameKeys) without(key string) string {
	var parts []string
	for _, kv := range ks {
		if kv[0] != key {
			parts = append(parts, kv[0]+"="+kv[1])
		}
	}
	return strings.Join(parts, "/")
}

// splitName turns BenchmarkX/a=1/b=2-4 into "X" and [[a 1] [b 2]].
func splitName(n benchfmt.Name) (string, nameKeys, error) {
	base, parts := n.Parts()
	var keys nameKeys
	for _, p := range parts {
		if p[0] == '-' {
			continue // the -GOMAXPROCS suffix
		}
		k, v, ok := strings.Cut(string(p[1:]), "=")
		if !ok {
			return "", nil, fmt.Errorf("%s: sub-benchmark %q is not key=value", n, p[1:])
		}
		keys = append(keys, [2]string{k, v})
	}
	return string(base), keys, nil
}

// scanReps collects, for every benchmark result line, the last "reps ops/s:"
// line logged after it (a benchmark's log holds the lines of each of its
// runs; the last is the run that produced the result). It also reports
// whether the input shows a failure.
func scanReps(data []byte) (map[string][][]float64, bool, error) {
	reps := map[string][][]float64{}
	failed := false
	current := ""
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(make([]byte, 1<<16), 1<<24)
	for sc.Scan() {
		line := sc.Text()
		switch {
		case strings.HasPrefix(line, "--- FAIL") || line == "FAIL" || strings.HasPrefix(line, "FAIL\t"):
			failed = true
		case strings.HasPrefix(line, "Benchmark") && strings.ContainsRune(line, '\t'):
			f := strings.Fields(line)
			current = strings.TrimPrefix(f[0], "Benchmark") // as benchfmt names it
			reps[current] = append(reps[current], nil)
		case strings.Contains(line, repsMarker) && current != "":
			_, list, _ := strings.Cut(line, repsMarker)
			var v []float64
			for _, f := range strings.Fields(list) {
				x, err := strconv.ParseFloat(f, 64)
				if err != nil {
					return nil, false, fmt.Errorf("bad repetition %q after %s", f, current)
				}
				v = append(v, x)
			}
			sets := reps[current]
			sets[len(sets)-1] = v
		}
	}
	if err := sc.Err(); err != nil && err != io.EOF {
		return nil, false, err
	}
	return reps, failed, nil
}
