# The rate sweep (docs/results.md, "Latency against the event rate"): sync
# and async at each rate in fresh launches, interleaved; the table on stdout,
# the document in $(BUILD)/latency.json and its chart in $(BUILD)/latency.svg,
# drawn by go/cmd/latency with gonum/plot.
#
#   make latency                      the default sweep and its chart
#   make latency LATENCY_RATES=100,max LATENCY_TIME=1
#   make test-latency                 the chart command's tests (part of `make test`)

LATENCY_RATES ?= 100,1000,10000,100000,max
# seconds of schedule per rate and mode
LATENCY_TIME ?= 4
LATENCY_TOOL = $(BUILD)/cgocost-latency
# where the document and the chart go
LATENCY_OUT ?= $(BUILD)

.PHONY: latency latency-tool test-latency
latency-tool:
	@mkdir -p $(BUILD)
	$(GOCMD) build -o $(LATENCY_TOOL) ./go/cmd/latency

latency: all latency-tool ## the rate sweep: latency percentiles vs rate, sync and async, table and build/latency.svg
	$(BUILD)/bench --sweep-rate $(LATENCY_RATES) --time $(LATENCY_TIME) --save-baseline $(LATENCY_OUT)/latency.json
	$(LATENCY_TOOL) -o $(LATENCY_OUT)/latency.svg $(LATENCY_OUT)/latency.json
	@echo "chart: $(LATENCY_OUT)/latency.svg"

test-latency:
	$(GOCMD) vet ./go/cmd/latency/...
	$(GOCMD) test -count=1 ./go/cmd/latency/...

TEST_EXTRA += test-latency
