# What a plain make needs of the machine, checked before anything is built
# (README.md, "Quick start"). On a fresh machine the first C file used to
# fail with "fatal error: jansson.h: No such file or directory"; now make
# stops at once with one line naming the missing Debian packages and the
# command that installs them. It does not install them itself: that is
# apt-get through sudo (scripts/setup.sh), which a build should not start
# unasked; make bench, make test and make matrix do run setup first (make
# bench only the build's packages: setup-build).
#
# The check costs two pkg-config calls (a few ms) on every make that builds.
# Goals that need nothing built, or run setup themselves, skip it.

DEPS_FREE_GOALS := setup help clean bench test matrix
DEPS_GOALS := $(if $(MAKECMDGOALS),$(filter-out $(DEPS_FREE_GOALS) setup-%,$(MAKECMDGOALS)),$(.DEFAULT_GOAL))

# Every package the check can name, each once: the check below names them
# through these, and the CI recipe installs them (tests/docs' TestWorkflow
# checks it against DEPS_PACKAGES).
DEPS_PKG_CONFIG := pkg-config
DEPS_JANSSON := libjansson-dev
DEPS_PACKAGES := $(DEPS_PKG_CONFIG) $(DEPS_JANSSON)

ifneq ($(DEPS_GOALS),)
# pkg-config itself, and jansson through it (libjansson-dev: jansson.h and
# libjansson.so); a missing pkg-config names both, as it cannot tell.
DEPS_MISSING := $(strip \
	$(if $(shell command -v pkg-config 2>/dev/null),,$(DEPS_PKG_CONFIG)) \
	$(if $(shell pkg-config --exists jansson 2>/dev/null && echo yes),,$(DEPS_JANSSON)))
ifneq ($(DEPS_MISSING),)
$(error missing for the build: $(DEPS_MISSING); install them with `make setup` (sudo apt-get install $(DEPS_MISSING)), then run make again)
endif
endif
