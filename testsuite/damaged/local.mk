## testsuite/damaged/local.mk - damaged inputs of every kind, each checked
## for gprof's message and exit status (included by testsuite/local.mk);
## see doc/robustness.md.
##
## mkdamaged writes the inputs with the fixture generator's writers and
## says what gprof must answer; run-damaged.sh runs gprof on each, with a
## time limit.  run-big.sh checks that huge inputs end within seconds,
## run-sum.sh that -s never leaves a broken gmon.sum, and run-limits.sh
## that a run fitting in a ulimit gets through under it.

# mkdamaged.c includes testsuite/fixtures/mkfixture.c whole.
check_PROGRAMS += testsuite/damaged/mkdamaged
testsuite_damaged_mkdamaged_SOURCES = testsuite/damaged/mkdamaged.c gmon_out.h

TESTS += \
	testsuite/damaged/run-damaged.sh \
	testsuite/damaged/run-big.sh \
	testsuite/damaged/run-sum.sh \
	testsuite/damaged/run-limits.sh

EXTRA_DIST += \
	testsuite/damaged/run-damaged.sh \
	testsuite/damaged/run-big.sh \
	testsuite/damaged/run-sum.sh \
	testsuite/damaged/run-limits.sh
