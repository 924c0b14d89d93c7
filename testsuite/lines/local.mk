## testsuite/lines/local.mk - -l asks BFD about fewer addresses than GNU
## gprof does; this checks it finds the same line symbols.

check_PROGRAMS += testsuite/lines/check_probes
testsuite_lines_check_probes_SOURCES = testsuite/lines/check_probes.c
testsuite_lines_check_probes_LDADD = $(gprof_LDADD)
TESTS += testsuite/lines/run-probes.sh
EXTRA_DIST += testsuite/lines/run-probes.sh
