package main

import (
	"os"
	"strings"
	"testing"
)

// The fixture is a real `bench --sweep-rate 200,2000,max --format json`
// document: every point is read, and the chart names both modes and every
// percentile in its legends.
func TestChartOfASweep(t *testing.T) {
	f, err := os.Open("testdata/sweep.json")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	points, err := readSweep(f)
	if err != nil {
		t.Fatal(err)
	}
	if len(points) != 6 {
		t.Fatalf("want 6 points (3 rates x 2 modes), got %d", len(points))
	}
	max := 0
	for _, p := range points {
		if p.Max {
			max++
		}
		if p.P50 > p.P99 || p.P99 > p.P999 {
			t.Errorf("%+v: percentiles out of order", p)
		}
	}
	if max != 2 {
		t.Fatalf("want the max point of each mode, got %d", max)
	}
	svg, err := chart(points)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"<svg", "sync p50", "async p99.9", "CPU per event", "latency (ns)"} {
		if !strings.Contains(string(svg), want) {
			t.Errorf("no %q in the chart", want)
		}
	}
}

func TestNoLatencyCells(t *testing.T) {
	if _, err := readSweep(strings.NewReader(`{"cells": [{"name": "x"}]}`)); err == nil {
		t.Fatal("a document without latency cells was accepted")
	}
	if _, err := readSweep(strings.NewReader(`not json`)); err == nil {
		t.Fatal("garbage was accepted")
	}
}

// Found by FuzzReadSweep: a document whose latency cells have no CPU per
// event, or whose cells are of neither mode, was accepted, and the chart then
// panicked (gonum/plot: "Values must be greater than 0 for a log scale", an
// empty panel): the latency tool crashed with a Go trace. Such a document is
// bad input now, and what is accepted charts.
func TestNothingToDrawIsRefused(t *testing.T) {
	for _, doc := range []string{
		`{"cells":[{"mode":{"requested":"sync"},"latency":{"load":"rate","requested_rate":100,"p50_ns":1,"p99_ns":2,"p99_9_ns":3}}]}`,
		`{"cells":[{"mode":{"requested":"other"},"latency":{"load":"rate","requested_rate":100,"p50_ns":1,"cpu_ns_per_event":5}}]}`,
		`{"cells":[{"latency":{"load":"max","achieved_rate":10,"p50_ns":1,"cpu_ns_per_event":5}}]}`,
	} {
		if points, err := readSweep(strings.NewReader(doc)); err == nil {
			t.Errorf("accepted %s: %+v", doc, points)
		}
	}
	points, err := readSweep(strings.NewReader(`{"cells":[{"mode":{"requested":"async"},"latency":{"load":"rate","requested_rate":100,"p50_ns":1,"cpu_ns_per_event":5}}]}`))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := chart(points); err != nil {
		t.Fatal(err)
	}
}
