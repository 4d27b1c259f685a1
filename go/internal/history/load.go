package history

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"time"
)

// BadInput is an input the history cannot read: exit status 2, one line.
type BadInput struct{ Msg string }

func (e BadInput) Error() string { return e.Msg }

func badf(format string, args ...any) error { return BadInput{fmt.Sprintf(format, args...)} }

// The schema versions this reads (docs/schema.md): a source section is
// optional in 3, and 1 and 2 read alike for the figures used here.
const minSchema, maxSchema = 1, 3

const maxDocBytes = 64 << 20

type figure struct {
	Median *float64 `json:"median"`
}

type counted struct {
	PerExtraction *figure `json:"per_extraction"`
}

// document is the part of a bench document the history reads.
type document struct {
	SchemaVersion json.RawMessage `json:"schema_version"`
	Generator     string          `json:"generator"`
	Source        *struct {
		Commit     *string `json:"commit"`
		CommitTime *string `json:"commit_time"`
		Label      *string `json:"label"`
	} `json:"source"`
	Cells []struct {
		Name       string `json:"name"`
		Key        string `json:"key"`
		Statistics *struct {
			Unit   string   `json:"unit"`
			Median *float64 `json:"median"`
		} `json:"statistics"`
		Counts *struct {
			Instructions *counted `json:"instructions"`
			Syscalls     *counted `json:"syscalls"`
		} `json:"counts"`
	} `json:"cells"`
	Paired *struct {
		Ratios []struct {
			Name     string   `json:"name"`
			Judged   bool     `json:"judged"`
			Estimate *float64 `json:"estimate"`
		} `json:"ratios"`
	} `json:"paired"`
}

// Run is one document read: where it comes from and its figures.
type Run struct {
	File    string
	Commit  string
	Time    time.Time
	Label   string
	Figures map[string]float64 // by series name
	Units   map[string]string
	Keys    map[string]string // an absolute series' machine key
}

// Files lists the documents named: a directory's *.json files (in name
// order), or a file itself.
func Files(args []string) ([]string, error) {
	var files []string
	for _, a := range args {
		st, err := os.Stat(a)
		if err != nil {
			if pe, ok := err.(*os.PathError); ok {
				err = pe.Err
			}
			return nil, badf("%s: %v", a, err)
		}
		if !st.IsDir() {
			files = append(files, a)
			continue
		}
		m, err := filepath.Glob(filepath.Join(a, "*.json"))
		if err != nil {
			return nil, badf("%s: %v", a, err)
		}
		if len(m) == 0 {
			return nil, badf("%s: no documents (*.json) in the directory", a)
		}
		sort.Strings(m)
		files = append(files, m...)
	}
	if len(files) == 0 {
		return nil, badf("no documents given")
	}
	return files, nil
}

// Read reads one document.
func Read(path string) (Run, error) {
	f, err := os.Open(path)
	if err != nil {
		if pe, ok := err.(*os.PathError); ok {
			err = pe.Err
		}
		return Run{}, badf("%s: %v", path, err)
	}
	defer f.Close()
	data, err := io.ReadAll(io.LimitReader(f, maxDocBytes+1))
	if err != nil {
		return Run{}, badf("%s: %v", path, err)
	}
	if len(data) > maxDocBytes {
		return Run{}, badf("%s: more than %d bytes, more than a bench document can be", path, maxDocBytes)
	}
	return Parse(path, data)
}

// Parse reads one document's text.
func Parse(path string, data []byte) (Run, error) {
	var d document
	dec := json.NewDecoder(bytes.NewReader(data))
	if err := dec.Decode(&d); err != nil {
		return Run{}, badf("%s: not a JSON document: %v", path, err)
	}
	if dec.More() {
		return Run{}, badf("%s: more than one JSON value", path)
	}
	if len(d.SchemaVersion) == 0 || d.Generator != "cgocost bench" {
		return Run{}, badf("%s: not a bench document (no schema_version, or a generator not \"cgocost bench\")", path)
	}
	var v int
	if err := json.Unmarshal(d.SchemaVersion, &v); err != nil || v < minSchema || v > maxSchema {
		return Run{}, badf("%s: schema_version %.20s, cgocost-history reads %d to %d", path, d.SchemaVersion, minSchema, maxSchema)
	}
	s := d.Source
	if s == nil || s.Commit == nil || s.CommitTime == nil {
		return Run{}, badf("%s: no source commit and commit_time: record it with bench --commit SHA --commit-time TIME", path)
	}
	t, err := time.Parse(time.RFC3339, *s.CommitTime)
	if err != nil {
		return Run{}, badf("%s: source.commit_time '%.40s' is not an RFC 3339 time", path, *s.CommitTime)
	}
	r := Run{File: path, Commit: strings.ToLower(*s.Commit), Time: t,
		Figures: map[string]float64{}, Units: map[string]string{}, Keys: map[string]string{}}
	if s.Label != nil {
		r.Label = *s.Label
	}
	put := func(name, unit string, v *float64) {
		if v != nil && finite(*v) {
			r.Figures[name], r.Units[name] = *v, unit
		}
	}
	for _, c := range d.Cells {
		if c.Counts != nil {
			if i := c.Counts.Instructions; i != nil && i.PerExtraction != nil {
				put("instructions "+c.Name, "instructions/extraction", i.PerExtraction.Median)
			}
			if i := c.Counts.Syscalls; i != nil && i.PerExtraction != nil {
				put("syscalls "+c.Name, "system calls/extraction", i.PerExtraction.Median)
			}
		}
		if c.Statistics != nil && c.Key != "" {
			name := "median " + c.Name
			put(name, c.Statistics.Unit, c.Statistics.Median)
			r.Keys[name] = c.Key
		}
	}
	if d.Paired != nil {
		for _, p := range d.Paired.Ratios {
			if !p.Judged {
				put("ratio "+p.Name, "ratio", p.Estimate)
			}
		}
	}
	return r, nil
}

// ReadAll reads every document, refusing a directory without documents,
// a document that is none, and two documents of one commit that give the
// same figure (the same run recorded twice); several documents of one
// commit that give different figures (a --count run and a --compare run)
// are one commit's. The runs are ordered by commit time, documents of
// the same time in the order given.
func ReadAll(args []string) ([]Run, error) {
	files, err := Files(args)
	if err != nil {
		return nil, err
	}
	var runs []Run
	seen := map[string]int{} // commit -> index in runs
	for _, f := range files {
		r, err := Read(f)
		if err != nil {
			return nil, err
		}
		i, ok := seen[r.Commit]
		if !ok {
			seen[r.Commit] = len(runs)
			runs = append(runs, r)
			continue
		}
		o := &runs[i]
		if !o.Time.Equal(r.Time) {
			return nil, badf("%s: commit %s at %s, but %s gives it at %s", f, short(r.Commit), r.Time.Format(time.RFC3339), o.File, o.Time.Format(time.RFC3339))
		}
		for name, v := range r.Figures {
			if _, dup := o.Figures[name]; dup {
				return nil, badf("%s: duplicate commit %s: %s gives %s too", f, short(r.Commit), o.File, name)
			}
			o.Figures[name], o.Units[name] = v, r.Units[name]
			if k, ok := r.Keys[name]; ok {
				o.Keys[name] = k
			}
		}
	}
	sort.SliceStable(runs, func(i, j int) bool { return runs[i].Time.Before(runs[j].Time) })
	return runs, nil
}
