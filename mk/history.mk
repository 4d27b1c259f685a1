# The history across commits (docs/methodology.md, "History across
# commits"): go/cmd/history reads the documents of many commits (each with
# a source section: bench --commit SHA --commit-time TIME, or the CI's
# variables) and finds where each figure changed.
#
#   build/cgocost-history DIR        text; --markdown, --html FILE, --svg FILE,
#                                    --gate PREFIX, --threshold PCT (exit 1: a
#                                    regression in the newest segment)
#   make history-real K=24           the last K commits of this repository,
#                                    each built in a git worktree, counted
#                                    (bench --count instructions) and read by
#                                    the history (scripts/history_real.sh; an
#                                    hour on a loaded 2-CPU VM for K=24)
#   make test-history                the method's synthetic tests and the
#                                    command's end to end (part of make test)

# built by the machine's Go, as the report tool is (math/rand/v2: Go 1.22 or newer)
HISTORY_GO ?= go
HISTORY_TOOL := $(BUILD)/cgocost-history
HISTORY_SRCS := $(filter-out %_test.go,$(wildcard go/cmd/history/*.go go/internal/history/*.go go/internal/atomicfile/*.go)) go.mod go.sum
K ?= 24
# extractions of each commit's count (bench --count instructions -n)
HISTORY_N ?= 50000
HISTORY_OUT ?= $(abspath $(BUILD))/history-real

.PHONY: history-real test-history
all: $(HISTORY_TOOL)

$(HISTORY_TOOL): $(HISTORY_SRCS)
	@mkdir -p $(dir $@)
	$(HISTORY_GO) build -o $@ ./go/cmd/history

history-real: $(EXES) $(HISTORY_TOOL) ## the history of this repository's last K commits (default 24): build/history-real/
	HISTORY_OUT=$(HISTORY_OUT) HISTORY_TOOL=$(abspath $(HISTORY_TOOL)) HISTORY_N=$(HISTORY_N) sh scripts/history_real.sh $(K)

test-history: $(EXES) $(HISTORY_TOOL) ## the history's tests: steps, creep, A/A noise, the command end to end
	$(HISTORY_GO) vet ./go/internal/history/ ./go/cmd/history/
	CGOCOST_BUILD=$(abspath $(BUILD)) $(HISTORY_GO) test -count=1 ./go/internal/history/ ./go/cmd/history/

TEST_EXTRA += test-history
