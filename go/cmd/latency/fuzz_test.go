package main

import (
	"bytes"
	"os"
	"testing"
)

// FuzzReadSweep: any document the latency tool is given (a bench --sweep-rate
// JSON, outside input) is read without a panic; what it accepts are points
// with a rate and a median, and they chart. Seeds: the real sweep in
// testdata and a few small documents. make fuzz runs it; new inputs stay in
// the Go cache (go env GOCACHE, fuzz/), a failing one is written to
// testdata/fuzz/FuzzReadSweep/ (keep it in git: go test then runs it).
func FuzzReadSweep(f *testing.F) {
	sweep, err := os.ReadFile("testdata/sweep.json")
	if err != nil {
		f.Fatal(err)
	}
	f.Add(sweep)
	f.Add([]byte(`{"cells":[{"name":"x","mode":{"requested":"sync"},"latency":{"load":"rate","requested_rate":100,"p50":1,"p99":2,"p999":3}}]}`))
	f.Add([]byte(`{"cells":[{"latency":{"load":"max","achieved_rate":1e308,"p50":1e-300}}]}`))
	f.Add([]byte(`{"cells": [{"name": "x"}]}`))
	f.Add([]byte(`not json`))
	f.Fuzz(func(t *testing.T, data []byte) {
		points, err := readSweep(bytes.NewReader(data))
		if err != nil {
			if points != nil {
				t.Fatalf("an error (%v) with points", err)
			}
			return
		}
		if len(points) == 0 {
			t.Fatal("accepted with no point")
		}
		for _, p := range points {
			if !(p.Rate > 0 && p.P50 > 0) {
				t.Fatalf("accepted a point without a rate or a median: %+v", p)
			}
		}
		if len(points) <= 64 {
			if _, err := chart(points); err != nil {
				t.Logf("chart: %v", err) // an error is a message, not a crash
			}
		}
	})
}
