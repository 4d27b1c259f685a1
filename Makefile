# cgocost — what it costs to cross between C and Go, and why.
#
#   make            build everything into build/
#   make bench      set up, build, run `make compare`
#   make compare    archive vs shared x sync vs async, interleaved, one table
#   make test       set up, build, run every test
#   make clean      remove build/
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
BUILD ?= build/$(GOVERSION)
else
BUILD ?= build
endif

SDK_MODULE := github.com/falcosecurity/plugin-sdk-go
SDK_DIR = $(shell $(GOCMD) list $(PLUGIN_GOFLAGS) -m -f '{{.Dir}}' $(SDK_MODULE))

CC ?= cc
CFLAGS ?= -O2
CFLAGS += -std=c11 -Wall -Wextra -Werror -D_GNU_SOURCE -pthread -I$(SDK_DIR)/pkg/sdk -Ic
LDLIBS += -pthread -lm -ldl $(shell pkg-config --libs jansson)

# The C driver: one folder a layer (see the README's layout); c/preload is a
# library of its own.
C_LAYERS := base stats model measure analyse store report cli
DRIVER_SRCS := $(filter-out c/cli/main.c,$(foreach l,$(C_LAYERS),$(wildcard c/$(l)/*.c)))
DRIVER_HDRS := $(foreach l,$(C_LAYERS),$(wildcard c/$(l)/*.h))
DRIVER_OBJS := $(patsubst c/%.c,$(BUILD)/obj/%.o,$(DRIVER_SRCS))
MAIN_OBJ := $(BUILD)/obj/cli/main.o

PLUGIN_SRCS := $(wildcard plugin-mock/*.go plugin-mock/mock/*.go) go.mod go.sum
PLUGIN_GOFLAGS ?=

.DEFAULT_GOAL := all

# Test targets that mk/*.mk fragments add to `make test`.
TEST_EXTRA :=

-include mk/*.mk

.PHONY: all setup bench compare regress alloc-matrix test clean test-go test-unit test-integration
all: $(BUILD)/bench $(BUILD)/bench-shared $(BUILD)/libcgocost_count.so

# Each step is a fresh make so that variables read from the module cache
# (SDK_DIR) are evaluated after setup has downloaded the modules.
test:
	@$(MAKE) --no-print-directory setup
	@$(MAKE) --no-print-directory all
	@$(MAKE) --no-print-directory test-unit test-go test-integration $(TEST_EXTRA)

bench:
	@$(MAKE) --no-print-directory setup
	@$(MAKE) --no-print-directory all
	@$(MAKE) --no-print-directory compare

setup:
	@GO="$(GOCMD)" sh scripts/setup.sh

$(BUILD)/libmock.a: $(PLUGIN_SRCS)
	@mkdir -p $(BUILD)
	$(GOCMD) build $(PLUGIN_GOFLAGS) -buildmode=c-archive -o $@ ./plugin-mock

$(BUILD)/libmock.so: $(PLUGIN_SRCS)
	@mkdir -p $(BUILD)
	$(GOCMD) build $(PLUGIN_GOFLAGS) -buildmode=c-shared -o $@ ./plugin-mock

$(BUILD)/obj/%.o: c/%.c $(DRIVER_HDRS)
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) -c -o $@ $<

$(BUILD)/bench: $(MAIN_OBJ) $(DRIVER_OBJS) $(BUILD)/libmock.a
	$(CC) $(CFLAGS) -o $@ $(MAIN_OBJ) $(DRIVER_OBJS) $(BUILD)/libmock.a $(LDLIBS)

$(BUILD)/bench-shared: $(MAIN_OBJ) $(DRIVER_OBJS) $(BUILD)/libmock.so
	$(CC) $(CFLAGS) -o $@ $(MAIN_OBJ) $(DRIVER_OBJS) -L$(BUILD) -lmock -Wl,-rpath,'$$ORIGIN' $(LDLIBS)

# archive vs shared x sync vs async, interleaved launch by launch, with the
# floors; COMPARE_ARGS can add options (e.g. --format json).
COMPARE_ARGS ?=
compare: $(BUILD)/bench $(BUILD)/bench-shared
	$(BUILD)/bench --compare --floors -n 200000 -r 10 --launches 20 $(COMPARE_ARGS)

# The regression check end to end: baseline, unchanged rerun, +20% on async.
regress: $(BUILD)/bench $(BUILD)/bench-shared
	@sh scripts/regress.sh $(BUILD)/bench

# scenario x allocator: lifecycle, extraction, mongocrypt bulk decryption.
alloc-matrix: all
	@sh scripts/alloc_matrix.sh $(BUILD)

# Go: formatting, vet, and the plugin's own tests.
test-go:
	@test -z "$$(gofmt -l plugin-mock tests go 2>/dev/null)" || { echo "gofmt needed:"; gofmt -l plugin-mock tests go; exit 1; }
	$(GOCMD) vet ./plugin-mock/... ./tests/...
	$(GOCMD) test -count=1 ./plugin-mock/...

# End to end: both executables in every mode, exit codes, bad input.
test-integration: $(BUILD)/bench $(BUILD)/bench-shared
	CGOCOST_BUILD=$(abspath $(BUILD)) $(GOCMD) test -count=1 ./tests/integration/...

# The C-side allocation counter --count-allocs preloads.
$(BUILD)/libcgocost_count.so: c/preload/alloc_count.c
	@mkdir -p $(BUILD)
	$(CC) -std=c11 -O2 -Wall -Wextra -Werror -D_GNU_SOURCE -fPIC -shared -o $@ $< -ldl

clean:
	rm -rf build
