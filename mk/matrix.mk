# The Go toolchain matrix (docs/matrix.md): the same plugin built by several Go
# toolchains, each into build/<go version>/, measured with `bench --compare`
# and counted with `bench --count all` (instructions and system calls per
# sync extraction), summed up in one table, build/matrix.json and
# build/matrix.svg.
#
#   make GO=$(OLD_GO)                 build with Debian's Go 1.19 into build/go1.19.8/
#   make GO=go1.27.3                  build with a toolchain from the module proxy
#   make matrix                       build and measure every toolchain it can get
#   make test-matrix                  the matrix's tests (part of `make test`)

# --- Old toolchains -------------------------------------------------------
# Go before 1.21 reads neither the root go.mod's three-part go line nor its
# tool line. For those toolchains the plugin builds from a module file of its
# own, plugin-mock/go1.19.mod (same module path, same plugin SDK version), so
# the root module keeps its language version. The file reaches both plugin
# builds and the SDK_DIR lookup through PLUGIN_GOFLAGS.
PLUGIN_OLD_MODFILE := plugin-mock/go1.19.mod
TOOLCHAIN_VERSION := $(if $(GOVERSION),$(GOVERSION),$(shell $(GOCMD) env GOVERSION 2>/dev/null))
# go1.19.8 -> 19; anything that is not go1.N (devel builds) counts as new.
TOOLCHAIN_MINOR := $(word 2,$(subst ., ,$(filter go1.%,$(TOOLCHAIN_VERSION))))
TOOLCHAIN_OLD := $(filter $(TOOLCHAIN_MINOR),0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20)
ifneq ($(TOOLCHAIN_OLD),)
ifeq ($(filter -modfile=%,$(PLUGIN_GOFLAGS)),)
override PLUGIN_GOFLAGS += -modfile=$(PLUGIN_OLD_MODFILE)
endif
PLUGIN_SRCS += $(PLUGIN_OLD_MODFILE) $(PLUGIN_OLD_MODFILE:.mod=.sum)
endif

# --- make matrix ------------------------------------------------------------
# The toolchains, in row order: the machine's Go, Debian's Go 1.19 (installed
# by scripts/setup.sh; it predates the Go 1.21 change to C->Go calls) and a
# toolchain the go command fetches from the module proxy. One that cannot be
# had is skipped with a line saying why.
MATRIX_TOOLCHAINS ?= go $(OLD_GO) go1.27.3
# Fresh launches per cell and timed extractions per launch (docs/matrix.md
# says what they cost in time).
MATRIX_LAUNCHES ?= 10
MATRIX_N ?= 100000
# Extractions of each toolchain's counts run (bench --count all -n N on the
# archive sync cell: instructions under valgrind, system calls under perf,
# at -n N and 2N, three pairs; about 11 s a toolchain at 100000, 26 s for
# Go 1.19). 0: no counts.
MATRIX_COUNT_N ?= 100000
MATRIX_OUT ?= $(BUILD)
# The matrix program is built (and tested) by the machine's Go, whatever GO
# says, on purpose: it drives the other toolchains' builds, and the old ones
# (Go 1.19) cannot build it (the root go.mod's language version).
MATRIX_GO ?= go
MATRIX_TOOL = $(BUILD)/cgocost-matrix

.PHONY: matrix matrix-run matrix-tool test-matrix
matrix-tool:
	@mkdir -p $(BUILD)
	$(MATRIX_GO) build -o $(MATRIX_TOOL) ./go/cmd/matrix

matrix: ## the Go toolchain matrix: table, build/matrix.json and build/matrix.svg
	@$(MAKE) --no-print-directory setup-build+matrix+count
	@$(MAKE) --no-print-directory matrix-run

# A make of its own, so that OLD_GO is asked of the system after setup.
matrix-run: matrix-tool
	@$(MATRIX_TOOL) run -make "$(MAKE)" -launches $(MATRIX_LAUNCHES) -n $(MATRIX_N) \
		-count-n $(MATRIX_COUNT_N) -out $(MATRIX_OUT) $(MATRIX_TOOLCHAINS)

# The matrix program's tests: the report on fixture JSON (no timing), the
# real --compare and --count documents of build/bench read as the matrix
# runs them, and the side-by-side build with the default toolchain and
# Debian's Go 1.19.
test-matrix: | setup-matrix ## the matrix tool's report and side-by-side build
	$(MATRIX_GO) vet ./go/cmd/matrix/...
	CGOCOST_ROOT=$(CURDIR) CGOCOST_OLD_GO=$(OLD_GO) \
		$(MATRIX_GO) test -count=1 ./go/cmd/matrix/...

TEST_EXTRA += test-matrix
