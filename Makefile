# cgocost — what it costs to cross between C and Go, and why.
# `make help` lists the targets.
#
# GO selects the Go toolchain: a path to a go binary, or a toolchain name
# such as go1.27.3 (fetched by the go command from the module proxy). When
# GO is given on the command line, outputs go to build/<go version>/ so that
# several builds live side by side; the default toolchain builds into build/.

GO ?= go
ifneq ($(filter go1.%,$(notdir $(GO))),)
ifeq ($(wildcard $(GO)),)
GOCMD := env GOTOOLCHAIN=$(GO) go
else
GOCMD := $(GO)
endif
else
GOCMD := $(GO)
endif

ifeq ($(origin GO),command line)
GOVERSION := $(shell $(GOCMD) env GOVERSION 2>/dev/null)
# A GO that answers no version (GO=false: no Go at all) builds into build/,
# not build//, so that build/tests/... names the same file either way.
BUILD ?= build$(if $(GOVERSION),/$(GOVERSION))
else
BUILD ?= build
endif

SDK_MODULE := github.com/falcosecurity/plugin-sdk-go
SDK_DIR = $(shell $(GOCMD) list $(PLUGIN_GOFLAGS) -m -f '{{.Dir}}' $(SDK_MODULE))

# Debian's Go 1.19, asked of the system (the go1.19 command on PATH, or the
# golang-1.19-go package's files); empty when it is not installed.
OLD_GO = $(or $(shell command -v go1.19 2>/dev/null),$(shell dpkg -L golang-1.19-go 2>/dev/null | grep '/bin/go$$' | head -1))

# CFLAGS and CPPFLAGS are the user's (make CFLAGS='-O1 -g' works); what the
# build needs is added beside them, never replaced by them. The layers below
# plugin never include the SDK's plugin_api.h: they compile without its
# include directory (COMPILE_GO_FREE), so that they build with no Go at all.
CFLAGS ?= -O2
CGOCOST_BASE_CPPFLAGS = -D_GNU_SOURCE -Ic $(shell pkg-config --cflags jansson)
CGOCOST_CPPFLAGS = -D_GNU_SOURCE -I$(SDK_DIR)/pkg/sdk -Ic $(shell pkg-config --cflags jansson)
CGOCOST_CFLAGS := -std=c11 -Wall -Wextra -Werror -pthread
COMPILE = $(CC) $(CGOCOST_CPPFLAGS) $(CPPFLAGS) $(CGOCOST_CFLAGS) $(CFLAGS)
COMPILE_GO_FREE = $(CC) $(CGOCOST_BASE_CPPFLAGS) $(CPPFLAGS) $(CGOCOST_CFLAGS) $(CFLAGS)
# Every object also writes the headers it read to a .d file next to it
# (included below): a header change rebuilds what includes it, nothing else.
DEPFLAGS := -MMD -MP
LDLIBS += -pthread -lm -ldl $(shell pkg-config --libs jansson)

# The C driver: one folder a layer, bottom first, listed once in c/LAYERS
# (read here, by tests/layers and by the fuzz build); c/preload is a library
# of its own.
C_LAYERS := $(shell sed -n 's/^\([a-z][a-z]*\) .*/\1/p' c/LAYERS)
# The layers below plugin: pure C over the model, no plugin, no Go runtime
# (the fuzz targets and the unit tests of these layers link nothing else).
GO_FREE_LAYERS := $(shell sed -n '/^plugin /q; s/^\([a-z][a-z]*\) .*/\1/p' c/LAYERS)
# The built-in plugin is a file of its own: the mock's symbols for bench and
# bench-shared, none for bench-host (no plugin, no Go runtime).
BUILTIN_SRCS := c/plugin/builtin_mock.c c/plugin/builtin_none.c
MAIN_SRC := c/cli/main.c
MAIN_OBJ := $(BUILD)/obj/cli/main.o
BUILTIN_MOCK_OBJ := $(BUILD)/obj/plugin/builtin_mock.o
BUILTIN_NONE_OBJ := $(BUILD)/obj/plugin/builtin_none.o

# One static archive a layer, $(BUILD)/lib/libcgocost_<layer>.a, of the
# layer's c/<layer>/*.c (main.c and the built-in plugins are objects of
# their own). A layer with no such file has no archive. The unit tests link
# the archives (a test links its layer and those below, nothing else).
#
# The executables link objects, in an order chosen for the measurement: the
# place of the measured code in the binary is part of what is measured
# (docs/results.md, "The same code, linked another way": the same objects
# in two link orders moved a cell by 3.4%, and a change in a lower layer
# moved the archive build's sync cell by 4.5%, with the same instructions
# per extraction). So what runs per call comes first and does not move
# when the rest of the driver changes: main, the Go c-archive whole (the
# plugin and its runtime), the timing layer's objects (the timed loops),
# then every other layer.
TIMED_OBJS = $(call layer_objs,timing)
UNTIMED_OBJS = $(filter-out $(TIMED_OBJS),$(DRIVER_OBJS))
layer_srcs = $(filter-out $(MAIN_SRC) $(BUILTIN_SRCS),$(wildcard c/$(1)/*.c))
layer_objs = $(patsubst c/%.c,$(BUILD)/obj/%.o,$(call layer_srcs,$(1)))
layer_lib = $(if $(call layer_srcs,$(1)),$(BUILD)/lib/libcgocost_$(1).a)
# $(call layers_upto,L): the layers from base up to and including L.
layers_upto = $(if $(filter $(1),$(C_LAYERS)),$(strip $(call _upto,$(1),$(C_LAYERS))),$(error $(1) is no layer of c/LAYERS))
_upto = $(if $(2),$(firstword $(2)) $(if $(filter $(1),$(firstword $(2))),,$(call _upto,$(1),$(wordlist 2,$(words $(2)),$(2)))))
reverse = $(if $(1),$(call reverse,$(wordlist 2,$(words $(1)),$(1))) $(firstword $(1)))
# $(call libs_upto,L): the archives of L and the layers below it in link
# order, L first and base last (an archive only resolves what the objects
# and archives before it ask for: a layer calling up fails to link).
libs_upto = $(strip $(foreach l,$(call reverse,$(call layers_upto,$(1))),$(call layer_lib,$(l))))
go_free = $(filter $(1),$(GO_FREE_LAYERS))
DRIVER_SRCS := $(foreach l,$(C_LAYERS),$(call layer_srcs,$(l)))
DRIVER_HDRS := $(foreach l,$(C_LAYERS),$(wildcard c/$(l)/*.h))
DRIVER_OBJS := $(patsubst c/%.c,$(BUILD)/obj/%.o,$(DRIVER_SRCS))
C_FILES := $(foreach l,$(C_LAYERS) preload minimal,$(wildcard c/$(l)/*.[ch])) $(wildcard tests/unit/*.[ch] tests/unit/*/*.[ch]) $(wildcard plugin-c/*.[ch] plugin-mock/*.c) $(wildcard tests/fuzz/*.c)

# The executables and libraries every test and measurement needs.
PLUGIN_LIBS := $(BUILD)/libcmock.so $(BUILD)/libmock-b.so
EXES := $(BUILD)/bench $(BUILD)/bench-shared $(BUILD)/bench-host $(BUILD)/bench-minimal $(BUILD)/bench-textbook $(PLUGIN_LIBS)

PLUGIN_SRCS := $(wildcard plugin-mock/*.go plugin-mock/*.c plugin-mock/mock/*.go) go.mod go.sum
PLUGIN_GOFLAGS ?=

.DEFAULT_GOAL := all

# Test targets that mk/*.mk fragments add to `make test`.
TEST_EXTRA :=

-include mk/*.mk

.PHONY: all help setup bench compare regress power alloc-matrix test clean test-go test-unit test-integration test-format
all: $(EXES) $(BUILD)/libcgocost_count.so $(BUILD)/libcgocost_slot.so ## build everything into build/ (the default)

help: ## list the targets
	@grep -hE '^[a-z][a-z0-9-]*:.*## ' $(MAKEFILE_LIST) | sed 's/:.*## /\t/' | sort | awk -F'\t' '{ printf "  make %-18s %s\n", $$1, $$2 }'

# Each step is a fresh make so that variables read from the module cache
# (SDK_DIR) are evaluated after setup has downloaded the modules.
#
# The tests run in three streams side by side, each one target at a time,
# so that their waiting (children that hang, stall or sleep by design,
# start-ups) overlaps: the sanitized and the Go-free builds and their tests
# (TEST_SIDE: builds of their own, in build/sanitize* and build/go-free);
# the docs' commands with the target whose build they share (TEST_DOCS:
# make fuzz's smoke form builds what test-fuzz runs); and all the others,
# which only read build/ (test-matrix builds into build/<old go version>/,
# which no docs command touches: their builds with other toolchains go to
# $SMOKE_OUT). Each
# target's output is printed whole when it ends (-Otarget). No test may
# depend on a quiet machine (make test-under-load, a step of .ci/run).
TEST_SIDE = $(filter sanitize test-go-free,$(TEST_EXTRA))
TEST_DOCS = $(filter test-docs test-fuzz,$(TEST_EXTRA))
TEST_MAIN = test-unit test-go test-integration test-format $(filter-out $(TEST_SIDE) $(TEST_DOCS),$(TEST_EXTRA))
test: ## set up, build, run every test (unit, Go, integration, schema, docs, format)
	@$(MAKE) --no-print-directory setup
	@$(MAKE) --no-print-directory all $(TIMES_TOOL)
	@$(MAKE) --no-print-directory -j3 -Otarget test-stream-main test-stream-docs test-stream-side

# Each stream runs its targets one at a time and says how long each took
# and the CPU time it used, user+system, its children's included ("time:
# TARGET N s, cpu U+S s"), the table the long poles are found in: a target
# whose CPU time is near its wall time keeps a CPU busy, one far below it
# waits (for a child that hangs by design, a time budget, a start-up).
.PHONY: test-stream-main test-stream-docs test-stream-side
stream_run = @for t in $(2); do \
	bash -c 'TIMEFORMAT="time: $$1 %0R s, cpu %0U+%0S s (stream $$2)"; time "$$0" --no-print-directory "$$1"' \
	"$(MAKE)" $$t $(1) || exit 1; done
test-stream-main:
	$(call stream_run,main,$(TEST_MAIN))
test-stream-docs:
	$(call stream_run,docs,$(TEST_DOCS))
test-stream-side:
	$(call stream_run,side,$(TEST_SIDE))

# make bench installs only what the build and make compare need (the build
# purpose of scripts/packages.txt: a compiler, pkg-config, jansson, the Go
# modules); make setup and make test install every purpose.
bench: ## set up what the build needs, build, run `make compare`
	@$(MAKE) --no-print-directory setup-build
	@$(MAKE) --no-print-directory all
	@$(MAKE) --no-print-directory compare

setup: ## install every Debian package of scripts/packages.txt and the Go modules
	@GO="$(GOCMD)" sh scripts/setup.sh all

# setup-PURPOSE installs the packages of one purpose of scripts/packages.txt
# (setup-build also the Go modules); purposes joined by + install together
# (setup-alloc+mongocrypt), in one apt-get. A target that needs a purpose
# names it as an order-only prerequisite of what first needs the package
# (the fuzz objects need clang-14 before they compile), so that it runs
# first under -j too and never makes anything stale. With everything
# installed it costs a dpkg-query a package.
setup-%:
	@GO="$(GOCMD)" sh scripts/setup.sh $(subst +, ,$*)

$(BUILD)/libmock.a: $(PLUGIN_SRCS)
	@mkdir -p $(BUILD)
	$(GOCMD) build $(PLUGIN_GOFLAGS) -buildmode=c-archive -o $@ ./plugin-mock

$(BUILD)/libmock.so: $(PLUGIN_SRCS)
	@mkdir -p $(BUILD)
	$(GOCMD) build $(PLUGIN_GOFLAGS) -buildmode=c-shared -o $@ ./plugin-mock

# The same mock under another file name: dlopen loads it as a library of its
# own, with a Go runtime of its own (docs/plugins.md).
$(BUILD)/libmock-b.so: $(PLUGIN_SRCS)
	@mkdir -p $(BUILD)
	$(GOCMD) build $(PLUGIN_GOFLAGS) -buildmode=c-shared -o $@ ./plugin-mock

# The C plugin: the mock's fields in C11 against the same plugin_api.h, no Go.
$(BUILD)/libcmock.so: plugin-c/cmock.c plugin-c/handoff.c plugin-c/handoff.h c/plugin/plugin_fields.c c/plugin/plugin_fields.h c/base/names.c c/base/names.h | $(BUILD)/.modules
	@mkdir -p $(BUILD)
	$(COMPILE) -fPIC -shared -o $@ plugin-c/cmock.c plugin-c/handoff.c c/plugin/plugin_fields.c c/base/names.c $(shell pkg-config --libs jansson)

# The plugin SDK's header comes from the module cache: the modules are
# downloaded before the first C file is compiled, so a plain make works on a
# fresh machine (SDK_DIR is read when a recipe runs, after this).
$(BUILD)/.modules: go.mod go.sum
	@mkdir -p $(BUILD)
	$(GOCMD) mod download $(PLUGIN_GOFLAGS) $(SDK_MODULE)
	@touch $@

# A layer's objects and its archive. The Go-free layers' objects need
# neither the SDK's include directory nor the module download; the others
# wait for it (order-only: the download does not make them stale).
#
# An object older than $(DEP_STAMP) was compiled before objects wrote their
# dependency files: with no .d it would not be rebuilt when a header
# changes (and would be linked with a stale struct layout), so it is
# rebuilt once.
DEP_STAMP = $(BUILD)/.depfiles
$(DEP_STAMP):
	@mkdir -p $(dir $@)
	@touch $@

define LAYER_RULES
$$(BUILD)/obj/$(1)/%.o: c/$(1)/%.c $$(DEP_STAMP) $(if $(call go_free,$(1)),,| $$(BUILD)/.modules)
	@mkdir -p $$(dir $$@)
	$(if $(call go_free,$(1)),$$(COMPILE_GO_FREE),$$(COMPILE)) $$(DEPFLAGS) -c -o $$@ $$<

ifneq ($(call layer_srcs,$(1)),)
$$(BUILD)/lib/libcgocost_$(1).a: $(call layer_objs,$(1))
	@mkdir -p $$(dir $$@)
	@rm -f $$@
	$$(AR) rcs $$@ $$^
endif
endef
$(foreach l,$(C_LAYERS),$(eval $(call LAYER_RULES,$(l))))

-include $(DRIVER_OBJS:.o=.d) $(MAIN_OBJ:.o=.d) $(BUILTIN_MOCK_OBJ:.o=.d) $(BUILTIN_NONE_OBJ:.o=.d)

$(BUILD)/bench: $(MAIN_OBJ) $(DRIVER_OBJS) $(BUILTIN_MOCK_OBJ) $(BUILD)/libmock.a
	$(COMPILE) -o $@ $(MAIN_OBJ) -Wl,--whole-archive $(BUILD)/libmock.a -Wl,--no-whole-archive \
		$(TIMED_OBJS) $(UNTIMED_OBJS) $(BUILTIN_MOCK_OBJ) $(LDLIBS)

$(BUILD)/bench-shared: $(MAIN_OBJ) $(DRIVER_OBJS) $(BUILTIN_MOCK_OBJ) $(BUILD)/libmock.so
	$(COMPILE) -o $@ $(MAIN_OBJ) $(TIMED_OBJS) $(UNTIMED_OBJS) $(BUILTIN_MOCK_OBJ) -L$(BUILD) -lmock -Wl,-rpath,'$$ORIGIN' $(LDLIBS)

# The driver with no plugin and no Go runtime: every plugin comes from --plugin.
$(BUILD)/bench-host: $(MAIN_OBJ) $(DRIVER_OBJS) $(BUILTIN_NONE_OBJ)
	$(COMPILE) -o $@ $(MAIN_OBJ) $(TIMED_OBJS) $(UNTIMED_OBJS) $(BUILTIN_NONE_OBJ) $(LDLIBS)

# The textbook loop, outside the layers: one file, linked with the same
# c-archive (c/minimal/main.c).
$(BUILD)/bench-minimal: c/minimal/main.c c/plugin/plugin_fields.h c/base/names.h $(BUILD)/libmock.a | $(BUILD)/.modules
	$(COMPILE) -o $@ $< $(BUILD)/libmock.a -pthread -lm -ldl

# The textbook loop as a paired cell (c/minimal/textbook.c): the same
# c-archive, the base layer's whole reads and writes for the blocks
# protocol and the threads' CPU clocks, the stats layer's steady-state rule
# for its lead-ins and pace of its warm-up, and the plugin layer's finder of
# the SDK's async slot (plugin/sdkslot.o alone).
$(BUILD)/bench-textbook: c/minimal/textbook.c c/timing/blockmsg.h c/plugin/plugin_fields.h c/plugin/sdkslot.h c/base/names.h c/stats/steady.h c/stats/pace.h c/base/threadcpu.h $(BUILD)/libmock.a $(BUILD)/lib/libcgocost_plugin.a $(BUILD)/lib/libcgocost_stats.a $(BUILD)/lib/libcgocost_base.a | $(BUILD)/.modules
	$(COMPILE) -o $@ $< $(BUILD)/libmock.a $(BUILD)/lib/libcgocost_plugin.a $(BUILD)/lib/libcgocost_stats.a $(BUILD)/lib/libcgocost_base.a -pthread -lm -ldl

# archive vs shared x sync vs async, interleaved launch by launch, with the
# floors (and the reference handoff); then the anatomy of one extraction,
# step by step, with the minimal driver beside it. COMPARE_ARGS can add
# options to both (e.g. --format json). The sizes are knobs for the smoke
# form make test runs (docs/long-commands.txt); the defaults are the full form.
COMPARE_ARGS ?=
COMPARE_TIME ?=
FLOORS_N ?= 200000
ANATOMY_N ?= 100000
ANATOMY_R ?= 10
ANATOMY_LAUNCHES ?= 6
compare: $(EXES) ## archive vs shared x sync vs async and the C plugin in paired blocks, the floors, then the anatomy of one extraction
	$(BUILD)/bench --compare $(if $(COMPARE_TIME),--time $(COMPARE_TIME)) $(COMPARE_ARGS)
	$(BUILD)/bench --floors -n $(FLOORS_N) $(COMPARE_ARGS)
	$(BUILD)/bench --anatomy -n $(ANATOMY_N) -r $(ANATOMY_R) --launches $(ANATOMY_LAUNCHES) $(COMPARE_ARGS)

power: $(EXES) | setup-gate$(if $(COUNT),+count) ## the regression check measured: its three verdicts on A/A and on +5%, verdict times, timed share (TRIALS=20; LOAD=2: beside two busy loops; COUNT=instructions: the counting gate at +1%)
	@if [ '$(COUNT)' = instructions ]; then POWER_OUT='$(POWER_OUT)' POWER_COUNT_ARGS='$(POWER_COUNT_ARGS)' sh scripts/power_counts.sh $(BUILD)/bench $(or $(TRIALS),20); \
	elif [ -n '$(COUNT)' ]; then echo "make power: COUNT=instructions measures the counting gate; not COUNT=$(COUNT)" >&2; exit 2; else \
	POWER_TIME='$(POWER_TIME)' POWER_ARGS='$(POWER_ARGS)' \
		POWER_PRECISION_TIME='$(POWER_PRECISION_TIME)' POWER_LOAD='$(LOAD)' \
		POWER_OUT='$(POWER_OUT)' sh scripts/power.sh $(BUILD)/bench $(or $(TRIALS),20); fi

regress: $(EXES) | setup-gate ## the regression check end to end, paired: the build against itself, then 20% slower
	@REGRESS_TIME='$(REGRESS_TIME)' REGRESS_SLOWDOWN='$(REGRESS_SLOWDOWN)' REGRESS_LAUNCHES='$(REGRESS_LAUNCHES)' REGRESS_OUT='$(REGRESS_OUT)' \
		sh scripts/regress.sh $(BUILD)/bench

alloc-matrix: all | setup-alloc+mongocrypt ## scenario x allocator: lifecycle, extraction, mongocrypt bulk decryption
	@GO="$(GOCMD)" ALLOC_LAUNCHES='$(ALLOC_LAUNCHES)' ALLOC_MONGO_ROUNDS='$(ALLOC_MONGO_ROUNDS)' \
		ALLOC_N='$(ALLOC_N)' ALLOC_OUT='$(ALLOC_OUT)' sh scripts/alloc_matrix.sh $(BUILD)

# Go: formatting and vet of every Go package, and the Go packages' own tests
# that need no built executable.
test-go: ## gofmt, go vet of every package, the Go tests that need no build
	@test -z "$$(gofmt -l plugin-mock tests go 2>/dev/null)" || { echo "gofmt needed:"; gofmt -l plugin-mock tests go; exit 1; }
	$(GOCMD) vet ./plugin-mock/... ./tests/... ./go/...
	$(GOCMD) test -count=1 ./plugin-mock/... ./tests/layers/... ./go/cmd/testtimes/...

# End to end: both executables in every mode, exit codes, bad input. The
# tests that mostly wait (for a child to hang, stall or die) run beside each
# other, all three at once (t.Parallel; -parallel is 2 on this machine
# otherwise); every other test runs alone.
# -timeout: go test's own 10 minutes is a hang detector that a shared
# machine's load reached (the suites took more than 600 s beside another
# job's tests, no test stuck); each test bounds its own runs
INTEGRATION_GOTEST := test -count=1 -parallel 3 -timeout 30m
test-integration: $(EXES) $(TIMES_TOOL) ## the executables end to end: modes, plugins, exit codes, bad input
	$(call timed,integration,CGOCOST_BUILD=$(abspath $(BUILD)) $(GOCMD) $(INTEGRATION_GOTEST) -json ./tests/integration/...)

# One C style, .clang-format's, checked (Debian's clang-format).
test-format: | setup-format ## every C file formatted as .clang-format says
	clang-format --dry-run --Werror $(C_FILES)
	@echo "test-format: $(words $(C_FILES)) C files formatted as .clang-format says"

# The placer of the Go SDK's async slots --slot-offset preloads.
$(BUILD)/libcgocost_slot.so: c/preload/slot_place.c
	@mkdir -p $(BUILD)
	$(CC) $(CPPFLAGS) -std=c11 -Wall -Wextra -Werror -D_GNU_SOURCE $(CFLAGS) -fPIC -shared -o $@ $< -ldl

# The C-side allocation counter --count-allocs preloads.
$(BUILD)/libcgocost_count.so: c/preload/alloc_count.c
	@mkdir -p $(BUILD)
	$(CC) $(CPPFLAGS) -std=c11 -Wall -Wextra -Werror -D_GNU_SOURCE $(CFLAGS) -fPIC -shared -o $@ $< -ldl

clean: ## remove build/ (and a BUILD given on the command line)
	rm -rf build $(BUILD)
