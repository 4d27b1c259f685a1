package main

import (
	"io"
	"os"
	"strings"
	"testing"
)

// FuzzParseDocument: any file `matrix report` is given (a bench --compare
// JSON, outside input) is checked without a panic, and what parseDocument
// accepts goes through the whole report (the rows, the table, matrix.json
// and the chart) without one either; a refusal is a one-line message. Seeds:
// the real documents in testdata (one per toolchain, and one with async not
// in effect) and one with the C plugin's cell (lib "loaded"), which
// --compare writes too. make fuzz runs it; new inputs stay in the Go cache
// (go env GOCACHE, fuzz/), a failing one is written to
// testdata/fuzz/FuzzParseDocument/ (keep it in git: go test then runs it).
func FuzzParseDocument(f *testing.F) {
	for _, path := range append(fixtures, "testdata/async-not-in-effect.json", "testdata/compare-c-plugin.json") {
		data, err := os.ReadFile(path)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(data)
	}
	f.Add([]byte(`{"schema_version":2,"cells":[]}`))
	f.Add([]byte(`{"schema_version":1} {}`))
	for _, path := range countFixtures {
		data, err := os.ReadFile(path)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(data)
	}
	// A counts document is drawn on the row of a real --compare document
	// relabelled with its Go and SDK versions.
	base, err := os.ReadFile("testdata/go1.26.8.json")
	if err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		dp, cnt, err := classify(data)
		if err != nil {
			if msg := err.Error(); msg == "" || strings.Contains(msg, "\n") {
				t.Fatalf("a refusal that is not one line: %q", msg)
			}
			return
		}
		var d benchDoc
		var counts []counted
		if cnt != nil {
			if d, err = parseDocument(base); err != nil {
				t.Fatal(err)
			}
			for i := range d.Cells {
				d.Cells[i].GoVersion, d.Cells[i].SDKVersion = cnt.goVersion, cnt.sdkVersion
			}
			counts = []counted{*cnt}
		} else {
			d = *dp
		}
		for _, k := range cellKeys {
			if d.cell(k) == nil {
				t.Fatalf("accepted without a cell for %s", k)
			}
		}
		m, err := buildMatrix([]loaded{{path: "fuzz.json", doc: d}}, counts, nil)
		if err != nil {
			return
		}
		if err := writeTable(io.Discard, m); err != nil {
			t.Fatalf("the table: %v", err)
		}
		if _, err := encodeMatrix(m); err != nil {
			t.Fatalf("matrix.json: %v", err)
		}
		if _, err := renderChart(m); err != nil {
			t.Logf("chart: %v", err) // a message, not a crash
		}
	})
}
