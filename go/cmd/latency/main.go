// Command latency draws the chart of a bench rate sweep: latency percentiles
// (p50, p99, p99.9) against the request rate on log-log axes, sync and async
// side by side, and the CPU each event cost in a second panel. It reads the
// JSON document of `bench --sweep-rate LIST --format json` and writes SVG.
//
// Usage:
//
//	latency [-o build/latency.svg] [sweep.json]
//
// With no file it reads standard input. Cells without a latency object are
// ignored; the "max" point of a sweep (a closed loop) sits at its achieved
// rate.
//
// Exit status: 0 written, 2 bad input (one line: a document it cannot
// read, or an -o no file can be saved at, go/internal/atomicfile), 3 the
// chart could not be drawn or written.
package main

import (
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"

	"cgocost/go/internal/atomicfile"
	"cgocost/go/internal/sweepchart"
)

func main() {
	out := flag.String("o", "latency.svg", "the SVG file to write")
	flag.Parse()
	// where the chart goes is checked before anything is read: a path no
	// file can be saved at is bad input (go/internal/atomicfile)
	if err := atomicfile.Check(*out); err != nil {
		fmt.Fprintln(os.Stderr, "latency: -o", err)
		os.Exit(2)
	}
	in := io.Reader(os.Stdin)
	if flag.NArg() > 1 {
		fmt.Fprintln(os.Stderr, "latency: at most one input file")
		os.Exit(2)
	}
	if flag.NArg() == 1 {
		f, err := os.Open(flag.Arg(0))
		if err != nil {
			fmt.Fprintln(os.Stderr, "latency:", err)
			os.Exit(2)
		}
		defer f.Close()
		in = f
	}
	points, err := readSweep(in)
	if err != nil {
		fmt.Fprintln(os.Stderr, "latency:", err)
		os.Exit(2)
	}
	svg, err := chart(points)
	if err != nil {
		fmt.Fprintln(os.Stderr, "latency:", err)
		os.Exit(3)
	}
	if err := atomicfile.WriteFile(*out, svg); err != nil {
		fmt.Fprintln(os.Stderr, "latency:", err)
		os.Exit(3)
	}
}

// point is one cell of the sweep: a mode at a rate.
type point = sweepchart.Point

type document struct {
	Cells []struct {
		Name string `json:"name"`
		Mode struct {
			Requested string `json:"requested"`
		} `json:"mode"`
		Latency *struct {
			Load          string   `json:"load"`
			RequestedRate *float64 `json:"requested_rate"`
			AchievedRate  *float64 `json:"achieved_rate"`
			P50           *float64 `json:"p50_ns"`
			P99           *float64 `json:"p99_ns"`
			P999          *float64 `json:"p99_9_ns"`
			CPU           *float64 `json:"cpu_ns_per_event"`
		} `json:"latency"`
	} `json:"cells"`
}

func val(p *float64) float64 {
	if p == nil {
		return 0
	}
	return *p
}

// readSweep reads the latency cells of a bench document.
func readSweep(r io.Reader) ([]point, error) {
	var d document
	if err := json.NewDecoder(r).Decode(&d); err != nil {
		return nil, fmt.Errorf("not a bench JSON document: %v", err)
	}
	var out []point
	cpu := false
	for _, c := range d.Cells {
		l := c.Latency
		// the chart draws the two modes; a cell of neither is not a point
		if l == nil || (c.Mode.Requested != "sync" && c.Mode.Requested != "async") {
			continue
		}
		p := point{Mode: c.Mode.Requested, P50: val(l.P50), P99: val(l.P99), P999: val(l.P999), CPUNs: val(l.CPU)}
		if l.Load == "rate" {
			p.Rate = val(l.RequestedRate)
		} else {
			p.Rate, p.Max = val(l.AchievedRate), true
		}
		if p.Rate > 0 && p.P50 > 0 {
			out = append(out, p)
			cpu = cpu || p.CPUNs > 0
		}
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("no latency cells (run bench --sweep-rate ... --format json)")
	}
	// an empty panel on a log scale is a panic in gonum/plot
	if !cpu {
		return nil, fmt.Errorf("no latency cell has a CPU per event (cpu_ns_per_event): not a bench sweep")
	}
	return out, nil
}
