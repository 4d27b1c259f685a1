package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"os"
)

// badInput is an input the report cannot read: exit status 2, one line.
type badInput struct{ msg string }

func (e badInput) Error() string { return e.msg }

func badf(format string, args ...any) error { return badInput{fmt.Sprintf(format, args...)} }

// maxDocBytes bounds a document: a long paired run is a few megabytes.
const maxDocBytes = 64 << 20

// source is one document and the name the page gives it.
type source struct {
	label string // the file name, or "stdin"
	doc   benchDoc
}

// readAll reads at most maxDocBytes from r.
func readAll(label string, r io.Reader) ([]byte, error) {
	data, err := io.ReadAll(io.LimitReader(r, maxDocBytes+1))
	if err != nil {
		return nil, badf("%s: %v", label, err)
	}
	if len(data) > maxDocBytes {
		return nil, badf("%s: more than %d bytes, more than a bench document can be", label, maxDocBytes)
	}
	return data, nil
}

// openInput reads a file, or standard input for "-".
func openInput(path string, stdin io.Reader) ([]byte, string, error) {
	if path == "-" {
		data, err := readAll("stdin", stdin)
		return data, "stdin", err
	}
	f, err := os.Open(path)
	if err != nil {
		if pe, ok := err.(*os.PathError); ok {
			err = pe.Err
		}
		return nil, path, badf("%s: %v", path, err)
	}
	defer f.Close()
	data, err := readAll(path, f)
	return data, path, err
}

// decodeOne decodes exactly one JSON value into v.
func decodeOne(data []byte, v any) error {
	dec := json.NewDecoder(bytes.NewReader(data))
	if err := dec.Decode(v); err != nil {
		return fmt.Errorf("not a JSON document: %v", err)
	}
	if dec.More() {
		return fmt.Errorf("more than one JSON value")
	}
	return nil
}

// parseBench reads one bench document: schema_version 1, 2 or 3, bench's
// generator, at least one cell.
func parseBench(label string, data []byte) (source, error) {
	var d benchDoc
	if err := decodeOne(data, &d); err != nil {
		return source{}, badf("%s: %v", label, err)
	}
	if d.Generator == "cgocost matrix" {
		return source{}, badf("%s: a toolchain matrix (build/matrix.json): give it with --matrix", label)
	}
	if d.SchemaVersion == nil {
		return source{}, badf("%s: no schema_version: not a bench JSON document", label)
	}
	if v := *d.SchemaVersion; v < 1 || v > 3 {
		return source{}, badf("%s: schema_version %d, this report reads 1 to 3", label, v)
	}
	if d.Generator != "cgocost bench" {
		return source{}, badf("%s: generator %q, want \"cgocost bench\"", label, d.Generator)
	}
	if len(d.Cells) == 0 {
		return source{}, badf("%s: no cells (a --repeat-load document has nothing to chart)", label)
	}
	return source{label: label, doc: d}, nil
}

// parseMatrix reads build/matrix.json.
func parseMatrix(label string, data []byte) (*matrixDoc, error) {
	var m matrixDoc
	if err := decodeOne(data, &m); err != nil {
		return nil, badf("%s: %v", label, err)
	}
	if m.Generator != "cgocost matrix" {
		return nil, badf("%s: generator %q, want \"cgocost matrix\" (build/matrix.json)", label, m.Generator)
	}
	if m.SchemaVersion == nil || *m.SchemaVersion != 1 {
		return nil, badf("%s: not schema_version 1: this report reads matrix documents of version 1", label)
	}
	if len(m.Rows) == 0 {
		return nil, badf("%s: no rows: no toolchain was measured", label)
	}
	return &m, nil
}
