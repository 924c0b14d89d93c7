## testsuite/local.mk - the analyzer's tests (included by Makefile.am).

include testsuite/fixtures/local.mk
include testsuite/mach/local.mk
include testsuite/lines/local.mk
include testsuite/unit/local.mk
include testsuite/diff/local.mk

# The shared harness, when ../shared is there (skipped otherwise).
TESTS += testsuite/compat.sh
EXTRA_DIST += testsuite/compat.sh
include testsuite/staticcg/local.mk
include testsuite/cross/local.mk
include testsuite/diagnose/local.mk
include testsuite/profdiff/local.mk
include testsuite/export/local.mk
include testsuite/i18n/local.mk
include testsuite/doc/local.mk
include testsuite/fuzz/local.mk
include testsuite/damaged/local.mk
include testsuite/robust/local.mk
include testsuite/reference/local.mk

# What the tests leave under testsuite/work/ (the export tests' npm
# packages among it) survives make clean and goes with make distclean.
distclean-local: distclean-testsuite-work
distclean-testsuite-work:
	-rm -rf testsuite/work
.PHONY: distclean-testsuite-work
