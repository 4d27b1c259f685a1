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
	"runtime"
	"strings"
	"sync"
	"time"
)

// Field identifiers. The first ones are the untimed probe fields; from
// FieldWorkBase on come the work fields, in lanes of NumKinds (noop, u64,
// str, bare, event):
// a call that asks for K fields of one work uses lanes 0..K-1. Lanes exist
// because the SDK keys its result buffers by field identifier: two requests
// of the same field in one call would share (and overwrite) one result.
// The C driver uses the same numbers (c/plugin/plugin_fields.h); a unit
// test checks both against the list the plugin declares.
const (
	FieldTid = iota
	FieldCPU
	FieldCalls
	FieldGoMaxProcs
	FieldAsyncConfigured
	FieldGoAllocs
	FieldWorkBase
)

// MaxLanes is the most work fields of one kind a call can ask for.
const MaxLanes = 256

// Work kinds, in lane order. What each touches (docs/methodology.md, "What
// each work kind touches"):
//   - bare: nothing; Extract returns at once (the pure crossing or handoff);
//   - event: reads the event number the caller wrote;
//   - noop: as event, and the driver reads the (empty) result back;
//   - u64, str: a value computed from the event number, checked by the driver.
const (
	KindNoop = iota
	KindU64
	KindStr
	KindBare
	KindEvent
	NumKinds
	// KindJSON is no lane of the work fields: mock.json.<lane> come after
	// them and mock.hostcalls (FieldJSON), so that the lane layout, and
	// the code Extract runs for every other field, stayed as they were.
	KindJSON = NumKinds
)

// FieldHostCalls comes after the work fields: the probe field that says how
// many plugin_extract_fields calls this instance served (counted only with
// the "count_calls" configuration key; all ones otherwise). It is last so
// that no other field's identifier moved when it was added.
const FieldHostCalls = FieldWorkBase + NumKinds*MaxLanes

// FieldJSON is mock.json.0: the realistic field's lanes.
const FieldJSON = FieldHostCalls + 1

// FieldGoroutine is the probe field that says which goroutine ran Extract:
// with async on, the SDK's worker that serves the caller's slot, so that
// the driver counts the workers that served its callers instead of
// computing how many the SDK should have started. Last, for the same reason
// as FieldHostCalls.
const FieldGoroutine = FieldJSON + MaxLanes

// NumFields is the number of declared fields.
const NumFields = FieldGoroutine + 1

// JSONLane is the lane of a mock.json field identifier.
func JSONLane(id int) (lane int, ok bool) {
	if id < FieldJSON || id >= FieldJSON+MaxLanes {
		return 0, false
	}
	return id - FieldJSON, true
}

var probeNames = [FieldWorkBase]string{
	"mock.tid", "mock.cpu", "mock.calls", "mock.gomaxprocs", "mock.async", "mock.goallocs",
}

var kindNames = [NumKinds + 1]string{"noop", "u64", "str", "bare", "event", "json"}

// WorkField is the field identifier of a work kind in a lane.
func WorkField(kind, lane int) int {
	if kind == KindJSON {
		return FieldJSON + lane
	}
	return FieldWorkBase + NumKinds*lane + kind
}

// SplitWorkField returns the work kind and lane of a work field identifier.
func SplitWorkField(id int) (kind, lane int, ok bool) {
	if id < FieldWorkBase || id >= FieldHostCalls {
		return 0, 0, false
	}
	return (id - FieldWorkBase) % NumKinds, (id - FieldWorkBase) / NumKinds, true
}

// FieldName is the declared name of a field: mock.tid ... for the probe
// fields, mock.<kind>.<lane> for the work fields.
func FieldName(id int) string {
	if id >= 0 && id < FieldWorkBase {
		return probeNames[id]
	}
	if id == FieldHostCalls {
		return "mock.hostcalls"
	}
	if id == FieldGoroutine {
		return "mock.goroutine"
	}
	if lane, ok := JSONLane(id); ok {
		return fmt.Sprintf("mock.json.%d", lane)
	}
	kind, lane, ok := SplitWorkField(id)
	if !ok {
		return ""
	}
	return fmt.Sprintf("mock.%s.%d", kindNames[kind], lane)
}

// FieldType is the declared type of a field.
func FieldType(id int) string {
	if kind, _, ok := SplitWorkField(id); ok && kind == KindStr {
		return "string"
	}
	return "uint64"
}

// Work names accepted in the "work" configuration key.
const (
	WorkNoop  = "noop"
	WorkU64   = "u64"
	WorkStr   = "str"
	WorkBare  = "bare"
	WorkEvent = "event"
	WorkJSON  = "json"
)

// Config is the plugin's init configuration.
//
// The plain string "async" (what the SDK's own benchmark passes) means
// {"async":true}. The empty string means all defaults: async off.
type Config struct {
	Async   bool   `json:"async"`
	Work    string `json:"work"`
	ExtraNs int64  `json:"extra_ns"`
	// CorruptEvery makes every n-th work extraction return a wrong value:
	// fault injection, so tests can prove the driver catches it.
	CorruptEvery uint64 `json:"corrupt_every"`
	// AllocBytes makes every work extraction allocate this many bytes on
	// the Go heap, so that this runtime's GC runs: the "busy" library of
	// cgocost's interference measurement (docs/plugins.md).
	AllocBytes int64 `json:"alloc_bytes"`
	// CountCalls makes the instance count the plugin_extract_fields calls
	// it serves (mock.hostcalls), so that a test can tell K calls of one
	// field from one call of K fields. Off by default: the count costs a
	// few nanoseconds per field (see plugin-mock/hostcalls.go).
	CountCalls bool `json:"count_calls"`
}

// maxAllocBytes bounds AllocBytes: a gigabyte per extraction is absurd.
const maxAllocBytes = int64(1 << 30)

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
	case WorkNoop, WorkU64, WorkStr, WorkBare, WorkEvent, WorkJSON:
	default:
		return Config{}, fmt.Errorf("cgocost mock: unknown work %q (want noop, u64, str, bare, event or json)", c.Work)
	}
	if c.ExtraNs < 0 || c.ExtraNs > maxExtraNs {
		return Config{}, fmt.Errorf("cgocost mock: extra_ns %d out of range [0, %d]", c.ExtraNs, maxExtraNs)
	}
	if c.AllocBytes < 0 || c.AllocBytes > maxAllocBytes {
		return Config{}, fmt.Errorf("cgocost mock: alloc_bytes %d out of range [0, %d]", c.AllocBytes, maxAllocBytes)
	}
	return c, nil
}

// u64Mul is an odd 64-bit constant (the golden ratio), so that consecutive
// event numbers give unrelated-looking values and a stale result is caught.
const u64Mul = 0x9E3779B97F4A7C15

// U64Value is what mock.u64.<lane> returns for an event number. The C
// driver computes the same expression to check every value.
func U64Value(evtnum, lane uint64) uint64 {
	return evtnum*u64Mul + lane
}

// AuditEvent is what mock.json decodes from the event's payload: a JSON
// document shaped like a Kubernetes audit event, as the audit-log plugins
// read theirs (c/plugin/event.c writes it). Key is what the value depends on.
type AuditEvent struct {
	Kind       string `json:"kind"`
	APIVersion string `json:"apiVersion"`
	Level      string `json:"level"`
	AuditID    string `json:"auditID"`
	Stage      string `json:"stage"`
	Verb       string `json:"verb"`
	RequestURI string `json:"requestURI"`
	User       struct {
		Username string   `json:"username"`
		Groups   []string `json:"groups"`
	} `json:"user"`
	ObjectRef struct {
		Resource  string `json:"resource"`
		Namespace string `json:"namespace"`
		Name      string `json:"name"`
	} `json:"objectRef"`
	Key uint64 `json:"key"`
	Pad string `json:"pad"`
}

// JSONValue is what mock.json.<lane> returns for an event number once it
// decoded a document's key (the C driver's mock_json_value).
func JSONValue(evtnum, lane, key uint64) uint64 {
	return U64Value(evtnum, lane) ^ key
}

// DecodeAudit decodes payload with encoding/json: the realistic work of a
// mock.json field (it allocates, as such a field does).
func DecodeAudit(payload []byte) (AuditEvent, error) {
	var a AuditEvent
	err := json.Unmarshal(payload, &a)
	return a, err
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

// StrValue is what mock.str.<lane> returns for an event number:
// "cgocost-<hex digit>", the digit being (evtnum+lane) mod 16.
func StrValue(evtnum, lane uint64) string {
	return strValues[(evtnum+lane)&15]
}

// allocSink keeps Alloc's allocations reachable until the next one, so the
// compiler cannot keep them off the heap.
var allocSink []byte

// Alloc allocates n bytes on the Go heap (nothing when n is 0). Small
// enough to be inlined into Extract, like Spin.
func Alloc(n int64) {
	if n > 0 {
		allocSink = make([]byte, n)
	}
}

// Corrupt tells whether the calls-th work extraction must return a wrong
// value under the configuration's fault injection.
func (c Config) Corrupt(calls uint64) bool {
	return c.CorruptEvery > 0 && calls%c.CorruptEvery == 0
}

// Spin burns about ns nanoseconds of CPU on the calling thread: the
// calibrated extra cost that lets `make regress` prove the regression check.
// It runs a dependent multiply-add chain for a number of iterations set by
// a one-time calibration against the thread's CPU clock, so it reads no clock
// while it runs (a clock read alone costs tens of nanoseconds, more than the
// slowdowns it must express) and never sleeps.
//
// Spin itself is small enough to be inlined into Extract, so a run without
// a slowdown pays one comparison per extraction, not a function call.
func Spin(ns int64) {
	if ns > 0 {
		spinFor(ns)
	}
}

func spinFor(ns int64) {
	spinIters(uint64(float64(ns) / nsPerIter()))
}

var spinSink uint64

//go:noinline
func spinIters(n uint64) {
	x := spinSink
	for i := uint64(0); i < n; i++ {
		x = x*6364136223846793005 + 1442695040888963407
	}
	spinSink = x
}

var (
	calibrateOnce sync.Once
	iterNs        float64
)

// nsPerIter is the CPU time of one spin iteration on this machine: the
// least of a few runs, timed by the CPU time of the calling thread, so that
// neither a preemption nor a hypervisor's steal inflates it on a loaded
// machine (the wall clock, which an earlier calibration read, counts both:
// had all five runs been preempted, every Spin would burn less than asked).
// The wall clock is the fallback should the thread's clock be unreadable.
func nsPerIter() float64 {
	calibrateOnce.Do(func() {
		const n = 200000
		runtime.LockOSThread()
		defer runtime.UnlockOSThread()
		best := time.Duration(1 << 62)
		for r := 0; r < 5; r++ {
			c0, ok0 := ThreadCPU()
			start := time.Now()
			spinIters(n)
			d := time.Since(start)
			if c1, ok1 := ThreadCPU(); ok0 && ok1 {
				d = c1 - c0
			}
			if d < best {
				best = d
			}
		}
		iterNs = float64(best) / n
		if iterNs <= 0 {
			iterNs = 1
		}
	})
	return iterNs
}
