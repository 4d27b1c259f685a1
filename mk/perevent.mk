# The per-event sweep (docs/results.md, "What an event costs the host"):
# for each K, bench --per-event K --host-calls both (per-field and batched,
# sync and async and the C plugin, paired blocks) into
# $(BUILD)/perevent-K.json, and the realistic field (--work json, K = 1) at
# each of PEREVENT_JSON_SIZES into $(BUILD)/perevent-json-S.json; the table on stdout and in $(BUILD)/perevent.md,
# the chart in $(BUILD)/perevent.svg, drawn by go/cmd/perevent with gonum/plot.
#
#   make perevent                         K = 1 2 4 8 16, 10 s each
#   make perevent PEREVENT_KS="1 4" PEREVENT_TIME=2
#   make test-perevent                    the table command's tests (part of `make test`)

PEREVENT_KS ?= 1 2 4 8 16
# seconds of paired blocks per K
PEREVENT_TIME ?= 10
PEREVENT_WORK ?= u64
# the realistic field (--work json) at these document sizes, K = 1 (the
# unpadded document is about 410 bytes: a smaller size gives that)
PEREVENT_JSON_SIZES ?= 512 2048
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
	@set -e; for s in $(PEREVENT_JSON_SIZES); do \
		echo "json, $$s bytes: $(BUILD)/bench --per-event 1 --host-calls both --time $(PEREVENT_TIME) --work json --payload-size $$s"; \
		$(BUILD)/bench --per-event 1 --host-calls both --time $(PEREVENT_TIME) --work json --payload-size $$s \
			--format json > $(BUILD)/perevent-json-$$s.json; \
	done
	$(PEREVENT_TOOL) -o $(BUILD)/perevent.svg $(foreach k,$(PEREVENT_KS),$(BUILD)/perevent-$(k).json) \
		$(foreach s,$(PEREVENT_JSON_SIZES),$(BUILD)/perevent-json-$(s).json) > $(BUILD)/perevent.md
	@cat $(BUILD)/perevent.md
	@echo "chart: $(BUILD)/perevent.svg"

test-perevent:
	$(GOCMD) vet ./go/cmd/perevent/...
	$(GOCMD) test -count=1 ./go/cmd/perevent/...

TEST_EXTRA += test-perevent
