## testsuite/mach/local.mk - the static call graph (-c) on other
## architectures (included by testsuite/local.mk).
##
## mkmach writes small MIPS, SPARC, Alpha and AArch64 executables (and a
## VAX one) with hand-assembled code, and profile files for them; the
## script compares our gprof with GNU gprof (a multi-target build) on each.  It finds
## ./gprof and the generator relative to the top build directory, where
## the test harness runs it.

check_PROGRAMS += testsuite/mach/mkmach
testsuite_mach_mkmach_SOURCES = testsuite/mach/mkmach.c gmon_out.h

TESTS += testsuite/mach/run-mach.sh

EXTRA_DIST += testsuite/mach/run-mach.sh
