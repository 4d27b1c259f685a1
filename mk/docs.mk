# The commands shown in README.md and docs/*.md, run as tests (tests/docs):
# each must exit as its `# exit N` comment says (docs/methodology.md,
# "Commands in the docs").
#
#   make test-docs        the static checks, every short command, and the
#                         smoke form of every long one (docs/long-commands.txt:
#                         the same command made small, its output checked),
#                         about three minutes (part of `make test`)
#   make check-docs-long  the same with the long commands of
#                         docs/long-commands.txt too: builds and measurements
#                         for an hour or more (not part of `make test`)

.PHONY: test-docs check-docs-long

# The smoke forms alone can take ten minutes on a loaded machine: past go
# test's default 10 m limit.
test-docs: $(EXES) $(TIMES_TOOL) ## every short command the docs show, run as documented
	$(call timed,docs,CGOCOST_BUILD=$(abspath $(BUILD)) $(GOCMD) test -json -count=1 -timeout 40m ./tests/docs/...)

# SHARD=k/N: only the long commands of shard k of N (tests/docs/shard.go:
# groups placed largest first by their last passing run's time in
# docs/long-ledger.tsv, else their estimate: line), with every short one;
# each long form's run is written to the ledger as it ends.
SHARD ?=
check-docs-long: $(EXES) ## the docs' long commands too (hours; SHARD=k/N for the k-th of N groups)
	CGOCOST_BUILD=$(abspath $(BUILD)) CGOCOST_DOCS_LONG=1 CGOCOST_DOCS_SHARD=$(SHARD) \
		$(GOCMD) test -count=1 -timeout 6h -v -run '^TestCommands$$' ./tests/docs/...

# The plan of SHARDS shards (default 4) and what each weighs.
SHARDS ?= 4
.PHONY: long-plan
long-plan: ## the shards of make check-docs-long SHARD=k/N, N = SHARDS, and their estimated times
	@CGOCOST_LONG_SHARDS=$(SHARDS) $(GOCMD) test -count=1 -v -run '^TestLongPlan$$' ./tests/docs/ | sed -n 's/^        //p'


TEST_EXTRA += test-docs
