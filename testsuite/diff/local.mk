## testsuite/diff/local.mk - differential tests on our own -pg programs
## (included by testsuite/local.mk).
##
## run-diff.py compiles the programs in progs/ with gcc -pg in several
## flavours, profiles them, and compares GNU gprof's output with ours for
## many option sets.  It runs from the top build directory, where it finds
## ./gprof (GPROF overrides that); it skips (77) without /usr/bin/gprof.

TESTS += testsuite/diff/run-diff.py

EXTRA_DIST += \
	testsuite/diff/run-diff.py \
	testsuite/diff/progs

