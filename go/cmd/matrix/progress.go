package main

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"time"
)

// progress is one status line on stderr, redrawn in place, and only when
// stderr is a terminal: a log or a pipe gets nothing from it.
type progress struct {
	mu    sync.Mutex
	w     io.Writer
	on    bool
	shown bool
}

func newProgress(w io.Writer) *progress {
	return &progress{w: w, on: isTerminal(w)}
}

// isTerminal tells whether w is a character device (a terminal).
func isTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	if !ok {
		return false
	}
	fi, err := f.Stat()
	return err == nil && fi.Mode()&os.ModeCharDevice != 0
}

func (p *progress) show(line string) {
	if !p.on {
		return
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	fmt.Fprintf(p.w, "\r\x1b[K%s", line)
	p.shown = true
}

func (p *progress) clear() {
	if !p.on {
		return
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.shown {
		fmt.Fprint(p.w, "\r\x1b[K")
		p.shown = false
	}
}

func (p *progress) stage(i, total int, name, what string) {
	p.show(fmt.Sprintf("matrix [%d/%d] %s: %s", i+1, total, name, what))
}

// watch redraws the line while `bench --compare` (process pid) runs: which
// cell it is launching and how far along the launches are. The driver runs
// each launch as a child process (bench or bench-shared, -a for async), so
// its children tell the cell; a launch too short to be seen only makes the
// count lag. Returns a function that stops the watch.
func (p *progress) watch(pid, i, total int, name string, launches int) (stop func()) {
	if !p.on {
		return func() {}
	}
	done := make(chan struct{})
	finished := make(chan struct{})
	start := time.Now()
	go func() {
		defer close(finished)
		seen := map[int]bool{}
		cell := ""
		tick := time.NewTicker(20 * time.Millisecond)
		defer tick.Stop()
		redraw := time.Time{}
		for {
			select {
			case <-done:
				return
			case <-tick.C:
			}
			for _, c := range children(pid) {
				if seen[c] {
					continue
				}
				if k, ok := launchCell(c); ok {
					seen[c] = true
					cell = k
				}
			}
			if time.Since(redraw) < 250*time.Millisecond {
				continue
			}
			redraw = time.Now()
			what := "measuring"
			if cell != "" {
				launch := (len(seen)-1)/len(cellKeys) + 1
				if launch > launches {
					launch = launches
				}
				what = fmt.Sprintf("measuring %s, launch %d of %d", cell, launch, launches)
			}
			p.stage(i, total, name, fmt.Sprintf("%s, %.0f s", what, time.Since(start).Seconds()))
		}
	}()
	return func() {
		close(done)
		<-finished
	}
}

// children lists the child processes of pid (Linux /proc).
func children(pid int) []int {
	data, err := os.ReadFile(fmt.Sprintf("/proc/%d/task/%d/children", pid, pid))
	if err != nil {
		return nil
	}
	var out []int
	for _, f := range strings.Fields(string(data)) {
		if n, err := strconv.Atoi(f); err == nil {
			out = append(out, n)
		}
	}
	return out
}

// launchCell names the cell a launched driver measures, from its command
// line: the executable says the library, -a/--async the mode.
func launchCell(pid int) (string, bool) {
	data, err := os.ReadFile(fmt.Sprintf("/proc/%d/cmdline", pid))
	if err != nil || len(data) == 0 {
		return "", false
	}
	argv := strings.Split(strings.TrimRight(string(data), "\x00"), "\x00")
	for _, a := range argv[1:] {
		if a == "--compare" {
			// Forked but not yet executed: still the parent's command line.
			return "", false
		}
	}
	lib := ""
	switch filepath.Base(argv[0]) {
	case "bench":
		lib = "archive"
	case "bench-shared":
		lib = "shared"
	default:
		return "", false
	}
	mode := "sync"
	for _, a := range argv[1:] {
		if a == "-a" || a == "--async" {
			mode = "async"
		}
	}
	return cellKey{lib, mode}.String(), true
}
