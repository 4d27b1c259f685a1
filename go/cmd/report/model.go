package main

// The documents the report reads: bench's (`bench ... --format json`,
// docs/schema.json and docs/schema.md) and the matrix tool's
// (build/matrix.json, go/cmd/matrix). Only the keys the report shows are
// declared; a number the schema allows to be null is a pointer.
// tests/schema checks these types against docs/schema.json (report_test.go).

type benchDoc struct {
	SchemaVersion *int   `json:"schema_version"`
	Generator     string `json:"generator"`
	// The run's argv and the answers it gives (docs/schema.md): absent
	// from documents written before them.
	Command    []string    `json:"command"`
	Decisions  []decision  `json:"decisions"`
	Machine    machine     `json:"machine"`
	Options    options     `json:"options"`
	Cells      []cell      `json:"cells"`
	Comparison *comparison `json:"comparison"`
	Ratios     []ratio     `json:"ratios"`
	Analysis   *analysis   `json:"analysis"`
	Paired     *paired     `json:"paired"`
}

type decision struct {
	Key       string   `json:"key"`
	Question  string   `json:"question"`
	Measured  bool     `json:"measured"`
	Answer    *string  `json:"answer"`
	Figure    *string  `json:"figure"`
	Estimate  *float64 `json:"estimate"`
	Low       *float64 `json:"low"`
	High      *float64 `json:"high"`
	FlipsWhen *string  `json:"flips_when"`
	Command   *string  `json:"command"`
}

type machine struct {
	CPUModel    string `json:"cpu_model"`
	OnlineCPUs  *int   `json:"online_cpus"`
	AllowedCPUs *int   `json:"allowed_cpus"`
	Kernel      string `json:"kernel"`
	Arch        string `json:"arch"`
}

type options struct {
	N        *int   `json:"n"`
	Runs     *int   `json:"runs"`
	Plugins  *int   `json:"plugins"`
	Work     string `json:"work"`
	Launches *int   `json:"launches"`
	Scenario string `json:"scenario"`
	Malloc   string `json:"malloc"`
}

type cell struct {
	Name       string     `json:"name"`
	Lib        string     `json:"lib"`
	GoVersion  string     `json:"go_version"`
	SDKVersion string     `json:"sdk_version"`
	Mode       mode       `json:"mode"`
	Statistics *stats     `json:"statistics"`
	Samples    []*float64 `json:"samples"`
	Floors     *floors    `json:"floors"`
	Latency    *latency   `json:"latency"`
}

type mode struct {
	Requested string  `json:"requested"`
	InEffect  string  `json:"in_effect"`
	Verified  bool    `json:"verified"`
	Reason    *string `json:"reason"`
}

type stats struct {
	Unit    string   `json:"unit"`
	N       *int     `json:"n"`
	Median  *float64 `json:"median"`
	Min     *float64 `json:"min"`
	Max     *float64 `json:"max"`
	CILow   *float64 `json:"ci_low"`
	CIHigh  *float64 `json:"ci_high"`
	CILevel *float64 `json:"ci_level"`
}

type floors struct {
	CCallNs     *float64     `json:"c_call_ns"`
	GoRawNs     *float64     `json:"go_raw_ns"`
	GoRawColdNs *float64     `json:"go_raw_cold_ns"`
	HandoffNs   *float64     `json:"handoff_ns"`
	HandoffCPUs []int        `json:"handoff_cpus"`
	RefBareNs   *float64     `json:"ref_bare_ns"`
	RefEventNs  *float64     `json:"ref_event_ns"`
	RefResultNs *float64     `json:"ref_result_ns"`
	RefWakeNs   *float64     `json:"ref_wake_ns"`
	Spread      *floorSpread `json:"spread"`
}

type floorSpread struct {
	Batches   *int  `json:"batches"`
	CCall     *span `json:"c_call"`
	GoRaw     *span `json:"go_raw"`
	Handoff   *span `json:"handoff"`
	RefBare   *span `json:"ref_bare"`
	RefEvent  *span `json:"ref_event"`
	RefResult *span `json:"ref_result"`
}

type span struct {
	MinNs *float64 `json:"min_ns"`
	MaxNs *float64 `json:"max_ns"`
}

type latency struct {
	Load          string   `json:"load"`
	RequestedRate *float64 `json:"requested_rate"`
	GapUs         *float64 `json:"gap_us"`
	AchievedRate  *float64 `json:"achieved_rate"`
	Requests      *int     `json:"requests"`
	P50           *float64 `json:"p50_ns"`
	P90           *float64 `json:"p90_ns"`
	P99           *float64 `json:"p99_ns"`
	P999          *float64 `json:"p99_9_ns"`
	Max           *float64 `json:"max_ns"`
	CPU           *float64 `json:"cpu_ns_per_event"`
}

type ratio struct {
	Name        string     `json:"name"`
	Numerator   string     `json:"numerator"`
	Denominator string     `json:"denominator"`
	Metric      string     `json:"metric"`
	Statistics  *stats     `json:"statistics"`
	Samples     []*float64 `json:"samples"`
}

type comparison struct {
	Against          string   `json:"against"`
	SameTime         bool     `json:"same_time"`
	Threshold        *float64 `json:"threshold"`
	Alpha            *float64 `json:"alpha"`
	Changes          []change `json:"changes"`
	Regressed        bool     `json:"regressed"`
	Verdict          string   `json:"verdict"`
	UndefinedBecause string   `json:"undefined_because"`
	// Version 3: an inconclusive verdict's need for more samples, and
	// whether --inconclusive pass let it exit 0.
	NeedFactor       *float64 `json:"need_factor"`
	NeedS            *float64 `json:"need_s"`
	InconclusivePass bool     `json:"inconclusive_pass"`
}

type change struct {
	Scenario        string   `json:"scenario"`
	Kind            string   `json:"kind"`
	Gated           bool     `json:"gated"`
	Low             *float64 `json:"low"`
	Point           *float64 `json:"point"`
	High            *float64 `json:"high"`
	P               *float64 `json:"p"`
	Verdict         string   `json:"verdict"`
	Sentence        string   `json:"sentence"`
	NotGatedBecause string   `json:"not_gated_because"`
}

type analysis struct {
	CILevel  *float64 `json:"ci_level"`
	Samples  string   `json:"samples"`
	Interval string   `json:"interval"`
}

type paired struct {
	BudgetS   *float64    `json:"budget_s"`
	Rounds    *int        `json:"rounds"`
	StoppedBy string      `json:"stopped_by"`
	Cells     []pairCell  `json:"cells"`
	Ratios    []pairRatio `json:"ratios"`
}

type pairCell struct {
	Name   string     `json:"name"`
	Side   string     `json:"side"`
	Blocks []*float64 `json:"block_ns_per_extraction"`
}

type pairRatio struct {
	Name     string   `json:"name"`
	Judged   bool     `json:"judged"`
	Estimate *float64 `json:"estimate"`
	Low      *float64 `json:"low"`
	High     *float64 `json:"high"`
	Coverage *float64 `json:"coverage"`
}

// matrixDoc is build/matrix.json, as go/cmd/matrix writes it.
type matrixDoc struct {
	SchemaVersion *int        `json:"schema_version"`
	Generator     string      `json:"generator"`
	Unit          string      `json:"unit"`
	SDKVersion    string      `json:"sdk_version"`
	Machine       machine     `json:"machine"`
	Rows          []matrixRow `json:"rows"`
	Skipped       []struct {
		Toolchain string `json:"toolchain"`
		Reason    string `json:"reason"`
	} `json:"skipped"`
}

type matrixRow struct {
	GoVersion     string   `json:"go_version"`
	SDKVersion    string   `json:"sdk_version"`
	Source        string   `json:"source"`
	Launches      *int     `json:"launches"`
	N             *int     `json:"n"`
	RawCrossingNs *float64 `json:"raw_crossing_ns"`
	Cells         []struct {
		Name      string   `json:"name"`
		Lib       string   `json:"lib"`
		Requested string   `json:"requested"`
		InEffect  string   `json:"in_effect"`
		Median    *float64 `json:"median"`
		CILow     *float64 `json:"ci_low"`
		CIHigh    *float64 `json:"ci_high"`
	} `json:"cells"`
	Ratios []struct {
		Name   string   `json:"name"`
		Median *float64 `json:"median"`
		CILow  *float64 `json:"ci_low"`
		CIHigh *float64 `json:"ci_high"`
		Note   *string  `json:"note"`
	} `json:"ratios"`
	Notes []string `json:"notes"`
}
