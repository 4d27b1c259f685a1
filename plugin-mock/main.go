// Command plugin-mock is the Go extractor plugin that cgocost measures. It is
// written with the Falco plugin SDK for Go and built twice by the Makefile:
// as a c-archive (linked into build/bench) and as a c-shared library (linked
// into build/bench-shared).
//
// Besides the SDK's plugin API symbols it exports a few raw cgo functions
// (cgocost_*): a no-op with no SDK code on its path (the bare C->Go crossing)
// and the facts a reader needs to trust a number (Go version, SDK version,
// the SDK's handle limit, GOMAXPROCS).
//
// Keep this file buildable by Go 1.19 (see plugin-mock/go1.19.mod).
package main

/*
#define _GNU_SOURCE
#include <sched.h>
#include <stdint.h>
*/
import "C"

import (
	"bytes"
	"fmt"
	"io"
	"runtime"
	"runtime/debug"
	"runtime/metrics"
	"syscall"
	"unsafe"

	"cgocost/plugin-mock/mock"

	"github.com/falcosecurity/plugin-sdk-go/pkg/cgo"
	"github.com/falcosecurity/plugin-sdk-go/pkg/sdk"
	"github.com/falcosecurity/plugin-sdk-go/pkg/sdk/plugins"
	"github.com/falcosecurity/plugin-sdk-go/pkg/sdk/plugins/extractor"
	"github.com/falcosecurity/plugin-sdk-go/pkg/sdk/symbols/extract"
)

const sdkModule = "github.com/falcosecurity/plugin-sdk-go"

// Plugin is one instance of the mock extractor.
type Plugin struct {
	plugins.BasePlugin
	cfg     mock.Config
	calls   uint64
	counter *callCounter // "count_calls": the plugin_extract_fields calls served
}

// Info describes the plugin to the SDK.
func (p *Plugin) Info() *plugins.Info {
	return &plugins.Info{
		ID:                  999,
		Name:                "cgocost-mock",
		Description:         "cgocost mock extractor: measures the C->Go crossing",
		Contact:             "cgocost",
		Version:             "0.1.0",
		ExtractEventSources: []string{"cgocost"},
	}
}

// Init parses the configuration and sets the SDK's process-wide async switch
// explicitly, every time: the SDK defaults it to on, and a "sync" run that
// silently runs async is the worst bug cgocost could have.
func (p *Plugin) Init(config string) error {
	extract.SetAsync(false)
	cfg, err := mock.ParseConfig(config)
	if err != nil {
		return err
	}
	p.cfg = cfg
	if cfg.CountCalls {
		// the SDK keeps a request pool the plugin set in Init (hostcalls.go)
		p.counter = newCallCounter(sdk.NewExtractRequestPool())
		p.SetExtractRequests(p.counter)
	}
	extract.SetAsync(cfg.Async)
	return nil
}

// fieldList is built once: the SDK's documented registration pattern calls
// Fields() on every plugin_init, and the lifecycle scenario must measure the
// SDK's cost of an instance, not the mock formatting 1544 names each time.
var fieldList = func() []sdk.FieldEntry {
	f := make([]sdk.FieldEntry, mock.NumFields)
	for i := range f {
		f[i] = sdk.FieldEntry{
			Name: mock.FieldName(i),
			Type: mock.FieldType(i),
			Desc: "cgocost mock field",
		}
	}
	return f
}()

// Fields declares the extractable fields; see mock.FieldName.
func (p *Plugin) Fields() []sdk.FieldEntry {
	return fieldList
}

// Extract serves one field request. It must not allocate on the Go heap for
// the work fields (mock.json, served by extractOther, does): the extraction loop is expected to show no allocations on
// either side.
func (p *Plugin) Extract(req sdk.ExtractRequest, evt sdk.EventReader) error {
	p.calls++
	id := int(req.FieldID())
	if kind, lane, ok := mock.SplitWorkField(id); ok {
		mock.Spin(p.cfg.ExtraNs)
		mock.Alloc(p.cfg.AllocBytes)
		if kind == mock.KindBare {
			return nil // touches neither the event nor a result
		}
		evtnum := evt.EventNum()
		if p.cfg.Corrupt(p.calls) {
			evtnum++
		}
		switch kind {
		case mock.KindU64:
			req.SetValue(mock.U64Value(evtnum, uint64(lane)))
		case mock.KindStr:
			req.SetValue(mock.StrValue(evtnum, uint64(lane)))
		}
		return nil
	}
	switch id {
	case mock.FieldTid:
		req.SetValue(uint64(syscall.Gettid()))
	case mock.FieldCPU:
		req.SetValue(currentCPU())
	case mock.FieldCalls:
		req.SetValue(p.calls)
	case mock.FieldGoMaxProcs:
		req.SetValue(uint64(runtime.GOMAXPROCS(0)))
	case mock.FieldAsyncConfigured:
		v := uint64(0)
		if extract.Async() {
			v = 1
		}
		req.SetValue(v)
	case mock.FieldGoAllocs:
		req.SetValue(goAllocs())
	default:
		return p.extractOther(req, evt, id)
	}
	return nil
}

// extractOther serves the fields added after the probe and work fields
// (mock.hostcalls, mock.json.<lane>) and refuses an unknown one. Out of
// Extract, so that the code every other field runs stayed as it was: a
// json case inside Extract's work path made a sync noop extraction 8 to
// 16% slower (paired, against the build without it), though no noop call
// ever took it.
//
//go:noinline
func (p *Plugin) extractOther(req sdk.ExtractRequest, evt sdk.EventReader, id int) error {
	if id == mock.FieldHostCalls {
		v := ^uint64(0) // not counted
		if p.counter != nil {
			v = p.counter.calls
		}
		req.SetValue(v)
		return nil
	}
	if id == mock.FieldGoroutine {
		req.SetValue(goroutineID())
		return nil
	}
	lane, ok := mock.JSONLane(id)
	if !ok {
		return fmt.Errorf("cgocost mock: unknown field id %d", id)
	}
	mock.Spin(p.cfg.ExtraNs)
	mock.Alloc(p.cfg.AllocBytes)
	evtnum := evt.EventNum()
	if p.cfg.Corrupt(p.calls) {
		evtnum++
	}
	payload, err := io.ReadAll(evt.Reader())
	if err != nil {
		return err
	}
	a, err := mock.DecodeAudit(payload)
	if err != nil {
		return fmt.Errorf("cgocost mock: mock.json: %v", err)
	}
	req.SetValue(mock.JSONValue(evtnum, uint64(lane), a.Key))
	return nil
}

// goroutineID is the number the runtime gives the goroutine running this
// Extract, read from the first line of its own stack trace ("goroutine 18
// [running]:"); 0 if that line has another form. Go has no API for it on
// purpose; the probe needs only an identity, to tell the SDK's async
// workers apart, and only the untimed probes ask for it.
func goroutineID() uint64 {
	var buf [64]byte
	line := buf[:runtime.Stack(buf[:], false)]
	line = bytes.TrimPrefix(line, []byte("goroutine "))
	var id uint64
	for _, c := range line {
		if c < '0' || c > '9' {
			break
		}
		id = id*10 + uint64(c-'0')
	}
	return id
}

// currentCPU asks which CPU runs this thread (sched_getcpu(3)). It is a
// Go->C call of its own, which is why only the untimed verification
// extractions ask for it.
func currentCPU() uint64 {
	cpu := C.sched_getcpu()
	if cpu < 0 {
		return ^uint64(0)
	}
	return uint64(cpu)
}

var allocSamples = []metrics.Sample{
	{Name: "/gc/heap/allocs:objects"},
	{Name: "/gc/heap/allocs:bytes"},
}

// goAllocStats reads how many heap objects (and bytes) the Go runtime has
// allocated since the process started. Tiny allocations (small pointer-free
// objects) are counted per 16-byte block, so bytes tell the fuller story.
func goAllocStats() (objects, bytes uint64) {
	metrics.Read(allocSamples)
	if allocSamples[0].Value.Kind() != metrics.KindUint64 || allocSamples[1].Value.Kind() != metrics.KindUint64 {
		return ^uint64(0), ^uint64(0)
	}
	return allocSamples[0].Value.Uint64(), allocSamples[1].Value.Uint64()
}

func goAllocs() uint64 {
	o, _ := goAllocStats()
	return o
}

var (
	goVersion  = C.CString(runtime.Version())
	sdkVersion = C.CString(sdkModuleVersion())
)

// sdkModuleVersion reads the plugin SDK's version from the build information
// the Go linker embedded, rather than from a constant that could go stale.
func sdkModuleVersion() string {
	bi, ok := debug.ReadBuildInfo()
	if !ok {
		return "unknown"
	}
	for _, d := range bi.Deps {
		if d.Path == sdkModule {
			if d.Replace != nil {
				return d.Replace.Version
			}
			return d.Version
		}
	}
	return "unknown"
}

//export cgocost_raw_noop
func cgocost_raw_noop() {}

//export cgocost_go_version
func cgocost_go_version() *C.char { return goVersion }

//export cgocost_sdk_version
func cgocost_sdk_version() *C.char { return sdkVersion }

//export cgocost_max_handle
func cgocost_max_handle() C.int { return C.int(cgo.MaxHandle) }

//export cgocost_gomaxprocs
func cgocost_gomaxprocs() C.int { return C.int(runtime.GOMAXPROCS(0)) }

//export cgocost_go_allocs
func cgocost_go_allocs() C.uint64_t { return C.uint64_t(goAllocs()) }

// cgocost_goroutines writes the stacks of every goroutine into buf (at most
// n bytes) and returns how many it wrote: the driver's watchdog asks for it
// when a caller is stuck, to show where the SDK's worker is.
//
//export cgocost_goroutines
func cgocost_goroutines(buf *C.char, n C.int) C.int {
	if buf == nil || n <= 0 {
		return 0
	}
	out := unsafe.Slice((*byte)(unsafe.Pointer(buf)), int(n))
	return C.int(runtime.Stack(out, true))
}

//export cgocost_go_alloc_bytes
func cgocost_go_alloc_bytes() C.uint64_t {
	_, b := goAllocStats()
	return C.uint64_t(b)
}

func init() {
	plugins.SetFactory(func() plugins.Plugin {
		p := &Plugin{}
		extractor.Register(p)
		return p
	})
}

func main() {}
