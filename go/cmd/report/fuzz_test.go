package main

import (
	"io"
	"os"
	"testing"
)

// FuzzReport: whatever a document holds, the report reads it or refuses it
// as bad input, and what it reads draws a page or fails (exit 3): never a
// panic. go test -run '^$' -fuzz FuzzReport ./go/cmd/report (the seeds are
// the small fixtures: a new input is minimized, which takes long on the
// large ones).
func FuzzReport(f *testing.F) {
	for _, name := range []string{"floors.json", "sweep.json"} {
		data, err := os.ReadFile(fixture(name))
		if err != nil {
			f.Fatal(err)
		}
		f.Add(data)
	}
	f.Add([]byte(`{"schema_version": 2, "generator": "cgocost bench", "cells": [{"name": "a", "samples": [1, 2]}], "ratios": [{"name": "event-bare mode=sync diff", "metric": "diff", "statistics": {"median": 3}}]}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		s, err := parseBench("fuzz.json", data)
		if err != nil {
			if _, ok := err.(badInput); !ok {
				t.Fatalf("an error that is not bad input: %v", err)
			}
			return
		}
		_ = render(io.Discard, buildPage(inputs{docs: []source{s}}))
	})
}
