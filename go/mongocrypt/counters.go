package mongocrypt

import "sync/atomic"

// The binding counts what it does when instrumentation is on: every Go→C
// call it makes, every C→Go call into its crypto hooks, and every handle it
// creates and destroys. Off (the default) costs one atomic load per event, so
// benchmarks leave it off except for one counted operation.
var instrument atomic.Bool

var (
	nGoToC atomic.Int64
	nCToGo atomic.Int64
)

// Handle kinds the binding creates and must destroy.
const (
	handleCrypt = iota
	handleCtx
	handleBinary
	handleStatus
	handleCMemory
	handlePin
	numHandleKinds
)

var handleNames = [numHandleKinds]string{
	handleCrypt:   "mongocrypt_t",
	handleCtx:     "mongocrypt_ctx_t",
	handleBinary:  "mongocrypt_binary_t",
	handleStatus:  "mongocrypt_status_t",
	handleCMemory: "C memory",
	handlePin:     "pinned Go buffer",
}

var created, destroyed [numHandleKinds]atomic.Int64

func crossed(n int64) {
	if instrument.Load() {
		nGoToC.Add(n)
	}
}

func calledBack() {
	if instrument.Load() {
		nCToGo.Add(1)
	}
}

func made(kind int) {
	if instrument.Load() {
		created[kind].Add(1)
	}
}

func freed(kind int) {
	if instrument.Load() {
		destroyed[kind].Add(1)
	}
}

// HandleCount is how many handles of one kind the binding created and
// destroyed while instrumentation was on.
type HandleCount struct {
	Kind      string
	Created   int64
	Destroyed int64
}

// Counts is a snapshot of the instrumentation counters.
type Counts struct {
	GoToC   int64 // calls from Go into C made by the binding
	CToGo   int64 // calls from C into the binding's Go crypto hooks
	Handles []HandleCount
}

// Instrument turns the counters on or off and returns the previous setting.
// Turn it on before creating the handles to be accounted for.
func Instrument(on bool) bool { return instrument.Swap(on) }

// ResetCounts sets every counter to zero.
func ResetCounts() {
	nGoToC.Store(0)
	nCToGo.Store(0)
	for i := range created {
		created[i].Store(0)
		destroyed[i].Store(0)
	}
}

// ReadCounts returns the counters.
func ReadCounts() Counts {
	c := Counts{GoToC: nGoToC.Load(), CToGo: nCToGo.Load()}
	for i := range created {
		c.Handles = append(c.Handles, HandleCount{
			Kind:      handleNames[i],
			Created:   created[i].Load(),
			Destroyed: destroyed[i].Load(),
		})
	}
	return c
}
