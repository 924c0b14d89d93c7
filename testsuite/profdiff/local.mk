## testsuite/profdiff/local.mk - gprof --diff on profiles written with
## known answers, and its statistics on drawn ones (included by
## testsuite/local.mk).

TESTS += testsuite/profdiff/run-profdiff.py
EXTRA_DIST += testsuite/profdiff/run-profdiff.py testsuite/profdiff/prog.c \
	bench/diff/work.c bench/diff/calibrate.sh
