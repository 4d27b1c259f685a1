# The sample plugin (plugin-sample/, docs/plugins.md "Measuring your own
# plugin"): a Go plugin built with the plugin SDK the way real plugins ship,
# as a c-shared library, with an async switch of its own that defaults to on.
#
#   build/libsample.so        the plugin
#   build/sample-slow/libsample.so   the same source with an injected slowdown
#                             (every extraction busy-waits SAMPLE_SLOW_NS more),
#                             under the same file name in a folder of its own:
#                             the regressed head of the plugin gate's example

SAMPLE_SRCS := $(wildcard plugin-sample/*.go plugin-sample/sample/*.go) go.mod go.sum
SAMPLE_SLOW_NS ?= 4000

all: $(BUILD)/libsample.so $(BUILD)/sample-slow/libsample.so

$(BUILD)/libsample.so: $(SAMPLE_SRCS)
	@mkdir -p $(BUILD)
	$(GOCMD) build $(PLUGIN_GOFLAGS) -buildmode=c-shared -o $@ ./plugin-sample

$(BUILD)/sample-slow/libsample.so: $(SAMPLE_SRCS)
	@mkdir -p $(BUILD)/sample-slow
	$(GOCMD) build $(PLUGIN_GOFLAGS) -buildmode=c-shared -ldflags '-X main.spinNs=$(SAMPLE_SLOW_NS)' -o $@ ./plugin-sample

.PHONY: test-sample
test-sample: ## the sample plugin's own tests, gofmt and go vet
	@test -z "$$(gofmt -l plugin-sample)" || { echo "gofmt needed:"; gofmt -l plugin-sample; exit 1; }
	$(GOCMD) vet ./plugin-sample/...
	$(GOCMD) test -count=1 ./plugin-sample/...
TEST_EXTRA += test-sample
