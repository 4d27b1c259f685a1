# The HTML report (docs/report.md): make compare's measurement as one
# self-contained page, the decisions first, drawn by go/cmd/report
# (html/template, gonum/plot charts inlined as SVG).
#
#   make report              bench --compare, --floors and --anatomy, each
#                            exporting its JSON to $(REPORT_OUT)/report-*.json, then
#                            $(REPORT_OUT)/report.html (with build/matrix.json
#                            when make matrix has written one)
#   make report COMPARE_TIME=1 FLOORS_N=2000 ANATOMY_N=500 ANATOMY_R=2 ANATOMY_LAUNCHES=1
#                            the same in small: make compare's knobs (Makefile)
#   make test-report         the tool's unit tests (part of make test)
#   make test-browser        the page of the fixtures in Debian's chromium, driven
#                            by chromedp: every section drawn, no console error, a
#                            full-page screenshot; fails without chromium (part of
#                            make test, about 5 s)
#   make report-screenshot   docs/report.png: that screenshot, of the fixtures

# The tool is built (and tested) by the machine's Go, whatever GO says, as
# the matrix tool is: an old toolchain (GO=go1.19) cannot build it (the root
# go.mod's language version, chromedp).
REPORT_GO ?= go
REPORT_TOOL := $(BUILD)/cgocost-report
REPORT_SRCS := $(filter-out %_test.go,$(wildcard go/cmd/report/*.go go/internal/*/*.go)) $(wildcard go/cmd/report/*.tmpl) go.mod go.sum
REPORT_OUT ?= $(BUILD)
# the toolchain matrix the page shows, when there is one
REPORT_MATRIX ?= $(wildcard $(BUILD)/matrix.json)
REPORT_BROWSER_TEST := CGOCOST_BROWSER=1 $(REPORT_GO) test -count=1 -run '^TestPageInABrowser$$' ./go/cmd/report/

.PHONY: report test-report test-browser report-screenshot
all: $(REPORT_TOOL)

$(REPORT_TOOL): $(REPORT_SRCS)
	@mkdir -p $(dir $@)
	$(REPORT_GO) build -o $@ ./go/cmd/report

# $(call report_json,FILE,BENCH ARGS): the run's console text as make
# compare prints it, and its document exported into FILE (--export: from
# the same run, written atomically; a run that fails leaves none).
report_json = $(BUILD)/bench $(2) --export json=$(1)

report: $(EXES) $(REPORT_TOOL) ## make compare's measurement as one HTML page, the decisions first: build/report.html
	@mkdir -p $(REPORT_OUT)
	$(call report_json,$(REPORT_OUT)/report-compare.json,--compare $(if $(COMPARE_TIME),--time $(COMPARE_TIME)) $(COMPARE_ARGS))
	$(call report_json,$(REPORT_OUT)/report-floors.json,--floors -n $(FLOORS_N) $(COMPARE_ARGS))
	$(call report_json,$(REPORT_OUT)/report-anatomy.json,--anatomy -n $(ANATOMY_N) -r $(ANATOMY_R) --launches $(ANATOMY_LAUNCHES) $(COMPARE_ARGS))
	$(REPORT_TOOL) -o $(REPORT_OUT)/report.html $(if $(REPORT_MATRIX),--matrix $(REPORT_MATRIX)) \
		$(REPORT_OUT)/report-compare.json $(REPORT_OUT)/report-floors.json $(REPORT_OUT)/report-anatomy.json
	@echo "report: $(REPORT_OUT)/report.html"

test-report: ## the report tool's tests: sections by input, decisions, bad input, atomic output
	$(REPORT_GO) vet ./go/cmd/report/...
	$(REPORT_GO) test -count=1 ./go/cmd/report/...

# chromium is installed by make setup and setup-browser (scripts/packages.txt,
# purpose browser); without it this target fails, it does not skip.
test-browser: | setup-browser ## the report page in Debian's chromium (chromedp): every section drawn, no console error
	@command -v chromium >/dev/null 2>&1 || { echo "test-browser: no chromium on PATH (make setup installs Debian's)" >&2; exit 1; }
	$(REPORT_BROWSER_TEST) -v

report-screenshot: | setup-browser ## docs/report.png: the page of the report's fixtures, full page, in chromium
	@command -v chromium >/dev/null 2>&1 || { echo "report-screenshot: no chromium on PATH (make setup installs Debian's)" >&2; exit 1; }
	CGOCOST_SCREENSHOT=$(CURDIR)/docs/report.png $(REPORT_BROWSER_TEST)

TEST_EXTRA += test-report test-browser
