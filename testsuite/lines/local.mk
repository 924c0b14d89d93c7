## testsuite/lines/local.mk - -l asks BFD about fewer addresses than GNU
## gprof does; this checks it finds the same line symbols.  The checker
## takes corefile.c and dwarf/dwarf_src.c with their test hooks
## (GPROF_TESTING); the rest comes from libgprof.a.

check_PROGRAMS += testsuite/lines/check_probes
testsuite_lines_check_probes_SOURCES = testsuite/lines/check_probes.c \
	corefile.c dwarf/dwarf_src.c
testsuite_lines_check_probes_CPPFLAGS = $(AM_CPPFLAGS) -DGPROF_TESTING
testsuite_lines_check_probes_LDADD = $(gprof_LDADD)
TESTS += testsuite/lines/run-probes.sh
EXTRA_DIST += testsuite/lines/run-probes.sh
