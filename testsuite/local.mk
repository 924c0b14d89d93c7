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
include testsuite/export/local.mk
include testsuite/i18n/local.mk
include testsuite/doc/local.mk
include testsuite/fuzz/local.mk
include testsuite/damaged/local.mk
