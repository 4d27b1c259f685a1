# The per-event sweep (docs/results.md, "What an event costs the host"):
# for each K, bench --per-event K --host-calls both (per-field and batched,
# sync and async and the C plugin, paired blocks) into
# $(BUILD)/perevent-K.json; the table on stdout and in $(BUILD)/perevent.md,
# the chart in $(BUILD)/perevent.svg, drawn by go/cmd/perevent with gonum/plot.
#
#   make perevent                         K = 1 2 4 8 16, 10 s each
#   make perevent PEREVENT_KS="1 4" PEREVENT_TIME=2
#   make test-perevent                    the table command's tests (part of `make test`)

PEREVENT_KS ?= 1 2 4 8 16
# seconds of paired blocks per K
PEREVENT_TIME ?= 10
PEREVENT_WORK ?= u64
PEREVENT_TOOL = $(BUILD)/cgocost-perevent

.PHONY: perevent perevent-tool test-perevent
perevent-tool:
	@mkdir -p $(BUILD)
	$(GOCMD) build -o $(PEREVENT_TOOL) ./go/cmd/perevent

perevent: all perevent-tool ## the per-event sweep: K fields per call or K calls, sync and async, table and build/perevent.svg
	@set -e; for k in $(PEREVENT_KS); do \
		echo "K = $$k: $(BUILD)/bench --per-event $$k --host-calls both --time $(PEREVENT_TIME) --work $(PEREVENT_WORK)"; \
		$(BUILD)/bench --per-event $$k --host-calls both --time $(PEREVENT_TIME) --work $(PEREVENT_WORK) \
			--format json > $(BUILD)/perevent-$$k.json; \
	done
	$(PEREVENT_TOOL) -o $(BUILD)/perevent.svg $(foreach k,$(PEREVENT_KS),$(BUILD)/perevent-$(k).json) > $(BUILD)/perevent.md
	@cat $(BUILD)/perevent.md
	@echo "chart: $(BUILD)/perevent.svg"

test-perevent:
	$(GOCMD) vet ./go/cmd/perevent/...
	$(GOCMD) test -count=1 ./go/cmd/perevent/...

TEST_EXTRA += test-perevent
