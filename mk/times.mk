# The long poles of make test, from a table rather than a guess (issue 35):
# the Go test runs of make test (the integration suite, its ASan run, the
# docs' commands) go through go/cmd/testtimes, which prints what go test
# prints without -v (failures, build errors, each package's summary line,
# last) and writes the top-level tests' durations, slowest first, to
# build/times/NAME.txt, naming the slowest in one line (the stream itself
# in NAME.json).
#
#   make test-times   the tables of the last make test, the slowest of each

TIMES_TOOL := $(BUILD)/cgocost-testtimes
TIMES_DIR := $(BUILD)/times

$(TIMES_TOOL): $(wildcard go/cmd/testtimes/*.go go/internal/atomicfile/*.go) go.mod
	$(GOCMD) build -o $@ ./go/cmd/testtimes

# $(call timed,NAME,GO TEST COMMAND WITH -json): the run through the tool,
# ending with go test's own exit status.
timed = mkdir -p $(TIMES_DIR) && { $(2); echo $$? >$(TIMES_DIR)/$(1).rc; } | tee $(TIMES_DIR)/$(1).json | $(TIMES_TOOL) -o $(TIMES_DIR)/$(1).txt && exit $$(cat $(TIMES_DIR)/$(1).rc)

.PHONY: test-times
test-times: ## the per-test timing tables of the last make test, slowest first
	@for f in $(TIMES_DIR)/*.txt; do [ -f "$$f" ] || { echo "test-times: no table yet: run make test"; exit 2; }; \
		echo "== $$f"; head -25 "$$f"; done
