# cmocka unit tests, one folder a layer like c/: tests/unit/<layer>/test_<module>.c
# tests c/<layer>/<module>.c and builds into $(BUILD)/tests/<layer>/test_<module>.
#
# A test links only the archives of its layer and of the layers below it
# (libs_upto, top first); only the tests of plugin and the layers above it
# link the built-in mock and the Go c-archive. A test of a Go-free layer
# (below plugin) compiles and links with no Go at all: `make GO=false
# build/tests/stats/test_stats` works on a tree with no Go output, and
# `make test-go-free` checks that in a scratch build.
#
# A test sees the headers of tests/unit/<layer>/ for its own layer and every
# layer below (shared fixtures live with the lowest layer they need, e.g.
# tests/unit/model/model_fixture.h).
#
# Helper programs: tests/unit/<layer>/fake_<name>.c is built into
# $(BUILD)/tests/<layer>/fake_<name>, linked with the same layer archives as
# the layer's tests but never with the Go c-archive, and is built before any
# test of its folder. Every test runs with CGOCOST_UNIT_BIN set to the
# absolute folder of its own binary (where its fake_* helpers are) and
# CGOCOST_UNIT_SRC to the absolute folder of its source (for scripts or data
# files kept beside it): a test runs "$CGOCOST_UNIT_BIN/fake_child".

UNIT_SRCS := $(wildcard tests/unit/*/test_*.c)
UNIT_BINS := $(patsubst tests/unit/%.c,$(BUILD)/tests/%,$(UNIT_SRCS))
UNIT_HELPER_SRCS := $(wildcard tests/unit/*/fake_*.c)
UNIT_HELPERS := $(patsubst tests/unit/%.c,$(BUILD)/tests/%,$(UNIT_HELPER_SRCS))
UNIT_OBJS := $(patsubst tests/unit/%.c,$(BUILD)/obj/tests/unit/%.o,$(UNIT_SRCS) $(UNIT_HELPER_SRCS))
UNIT_LAYERS := $(sort $(foreach s,$(UNIT_SRCS) $(UNIT_HELPER_SRCS),$(word 3,$(subst /, ,$(s)))))
CMOCKA_CFLAGS = $(shell pkg-config --cflags cmocka)
CMOCKA_LIBS = $(shell pkg-config --libs cmocka)

unit_includes = $(foreach l,$(call layers_upto,$(1)),-Itests/unit/$(l))
unit_compile = $(if $(call go_free,$(1)),$$(COMPILE_GO_FREE),$$(COMPILE))
# What a test of layer L links besides its archives: nothing below plugin.
unit_builtin = $(if $(call go_free,$(1)),,$$(BUILTIN_MOCK_OBJ))
unit_go = $(if $(call go_free,$(1)),,$$(BUILD)/libmock.a)

define UNIT_RULES
$$(BUILD)/obj/tests/unit/$(1)/%.o: tests/unit/$(1)/%.c $$(DEP_STAMP) $(if $(call go_free,$(1)),,| $$(BUILD)/.modules)
	@mkdir -p $$(dir $$@)
	$(call unit_compile,$(1)) $$(DEPFLAGS) $$(CMOCKA_CFLAGS) $(call unit_includes,$(1)) -c -o $$@ $$<

$$(BUILD)/tests/$(1)/test_%: $$(BUILD)/obj/tests/unit/$(1)/test_%.o $(call unit_builtin,$(1)) $(call libs_upto,$(1)) $(call unit_go,$(1)) \
		| $(filter $(BUILD)/tests/$(1)/fake_%,$(UNIT_HELPERS))
	@mkdir -p $$(dir $$@)
	$(call unit_compile,$(1)) -o $$@ $$< $(call unit_builtin,$(1)) $$(UNIT_FIXTURE) $(call libs_upto,$(1)) $(call unit_go,$(1)) $$(LDLIBS) $$(CMOCKA_LIBS)

$$(BUILD)/tests/$(1)/fake_%: $$(BUILD)/obj/tests/unit/$(1)/fake_%.o $(call libs_upto,$(1))
	@mkdir -p $$(dir $$@)
	$(call unit_compile,$(1)) -o $$@ $$< $(call libs_upto,$(1)) $$(LDLIBS)
endef
$(foreach l,$(UNIT_LAYERS),$(eval $(call UNIT_RULES,$(l))))

# The one exception, named: a test may link a layer above its own as a
# fixture. The plan's test makes its options as bench does, with cli's
# parser and run-kind resolver, and reads a child's arguments back the way
# the child does.
$(BUILD)/tests/orchestrate/test_plan: UNIT_FIXTURE = $(BUILD)/lib/libcgocost_cli.a
$(BUILD)/tests/orchestrate/test_plan: $(BUILD)/lib/libcgocost_cli.a

-include $(UNIT_OBJS:.o=.d)

# Runs the unit tests given in UNIT_RUN, each with its folders in the
# environment (see above).
define unit_run
	@set -e; for t in $(1); do echo "== $$t"; \
		CGOCOST_UNIT_BIN=$(CURDIR)/$$(dirname $$t) \
		CGOCOST_UNIT_SRC=$(CURDIR)/tests/unit/$$(basename $$(dirname $$t)) $$t; done
endef

# cmocka (scripts/packages.txt, purpose unit) before the first test compiles
$(UNIT_OBJS): | setup-unit

.PHONY: test-unit test-go-free
test-unit: $(UNIT_BINS) ## the cmocka unit tests
	$(call unit_run,$(UNIT_BINS))

# The Go-free layers' unit tests built from nothing with GO=false (no go
# command, no module cache, no c-archive) in a scratch build, then run: the
# layers below plugin stay buildable without Go.
GO_FREE_BUILD := $(BUILD)/go-free
GO_FREE_UNIT_BINS := $(patsubst tests/unit/%.c,$(GO_FREE_BUILD)/tests/%,$(foreach l,$(GO_FREE_LAYERS),$(wildcard tests/unit/$(l)/test_*.c)))
TEST_EXTRA += test-go-free
test-go-free: ## the Go-free layers' unit tests built and run with GO=false, from nothing
	@rm -rf $(GO_FREE_BUILD)
	@$(MAKE) --no-print-directory GO=false BUILD=$(GO_FREE_BUILD) $(GO_FREE_UNIT_BINS)
	@if [ -e $(GO_FREE_BUILD)/.modules ] || [ -e $(GO_FREE_BUILD)/libmock.a ]; then \
		echo "test-go-free: the Go-free build asked for Go outputs"; exit 1; fi
	$(call unit_run,$(GO_FREE_UNIT_BINS))
	@echo "test-go-free: $(words $(GO_FREE_UNIT_BINS)) unit tests of $(GO_FREE_LAYERS) built and passed with GO=false"

# A test's object and the helper programs are kept (not intermediates make
# deletes after the build): the .d file then still says what an object was
# built from, and a helper is there when its test runs.
.SECONDARY: $(UNIT_OBJS) $(UNIT_HELPERS)
