// Package mock holds the pure-Go logic of the cgocost mock plugin: its
// configuration, the fields it declares and the values it returns. It has no
// cgo and no SDK symbols, so it can be tested with plain `go test`.
//
// Keep this package buildable by Go 1.19: the toolchain matrix builds the
// plugin with older Go versions.
package mock

import (
	"encoding/json"
	"fmt"
	"strings"
	"time"
)

// Field identifiers, in the order of Fields(). The C driver uses the same
// numbers (c/plugin_fields.h); a test checks that both agree.
const (
	FieldNoop = iota
	FieldU64
	FieldStr
	FieldTid
	FieldCPU
	FieldCalls
	FieldGoMaxProcs
	FieldAsyncConfigured
	FieldGoAllocs
	NumFields
)

// FieldNames lists the declared field names, indexed by field identifier.
var FieldNames = [NumFields]string{
	"mock.noop",
	"mock.u64",
	"mock.str",
	"mock.tid",
	"mock.cpu",
	"mock.calls",
	"mock.gomaxprocs",
	"mock.async",
	"mock.goallocs",
}

// Work names accepted in the "work" configuration key.
const (
	WorkNoop = "noop"
	WorkU64  = "u64"
	WorkStr  = "str"
)

// Config is the plugin's init configuration.
//
// The plain string "async" (what the SDK's own benchmark passes) means
// {"async":true}. The empty string means all defaults: async off.
type Config struct {
	Async   bool   `json:"async"`
	Work    string `json:"work"`
	ExtraNs int64  `json:"extra_ns"`
}

// maxExtraNs bounds the calibrated slowdown: one second per extraction is
// already absurd for a benchmark.
const maxExtraNs = int64(time.Second)

// ParseConfig reads the init configuration string. Anything that is not the
// plain word "async" and not a JSON object with "async":true leaves async off.
func ParseConfig(s string) (Config, error) {
	c := Config{Work: WorkNoop}
	t := strings.TrimSpace(s)
	switch t {
	case "":
		return c, nil
	case "async":
		c.Async = true
		return c, nil
	}
	dec := json.NewDecoder(strings.NewReader(t))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&c); err != nil {
		return Config{}, fmt.Errorf("cgocost mock: bad config %q: %v", s, err)
	}
	if dec.More() {
		return Config{}, fmt.Errorf("cgocost mock: bad config %q: trailing data", s)
	}
	switch c.Work {
	case "":
		c.Work = WorkNoop
	case WorkNoop, WorkU64, WorkStr:
	default:
		return Config{}, fmt.Errorf("cgocost mock: unknown work %q (want noop, u64 or str)", c.Work)
	}
	if c.ExtraNs < 0 || c.ExtraNs > maxExtraNs {
		return Config{}, fmt.Errorf("cgocost mock: extra_ns %d out of range [0, %d]", c.ExtraNs, maxExtraNs)
	}
	return c, nil
}

// u64Mul is an odd 64-bit constant (the golden ratio), so that consecutive
// event numbers give unrelated-looking values and a stale result is caught.
const u64Mul = 0x9E3779B97F4A7C15

// U64Value is what mock.u64 returns for an event number and argument index.
// The C driver computes the same expression to check every value.
func U64Value(evtnum, argIndex uint64) uint64 {
	return evtnum*u64Mul + argIndex
}

// strValues are the strings mock.str returns; precomputed so that the
// extraction allocates nothing on the Go heap.
var strValues = func() [16]string {
	var s [16]string
	for i := range s {
		s[i] = fmt.Sprintf("cgocost-%x", i)
	}
	return s
}()

// StrValue is what mock.str returns for an event number and argument index:
// "cgocost-<hex digit>", the digit being (evtnum+argIndex) mod 16.
func StrValue(evtnum, argIndex uint64) string {
	return strValues[(evtnum+argIndex)&15]
}

// Spin burns about ns nanoseconds of CPU on the calling thread: the
// calibrated extra cost that lets `make regress` prove the regression check.
// It reads the monotonic clock, so its length does not depend on the CPU's
// speed, and it never sleeps.
func Spin(ns int64) {
	if ns <= 0 {
		return
	}
	start := time.Now()
	d := time.Duration(ns)
	for time.Since(start) < d {
	}
}
