## testsuite/diagnose/local.mk - gprof --diagnose on one crafted profile
## per situation it explains (included by testsuite/local.mk).
##
## run-diagnose.py builds progs/ with and without -pg, writes the profiles
## at the executables' real addresses, and checks what the diagnosis says.
## It runs from the top build directory, where it finds ./gprof (GPROF
## overrides that) and the libgmon archive.

TESTS += testsuite/diagnose/run-diagnose.py

EXTRA_DIST += \
	testsuite/diagnose/run-diagnose.py \
	testsuite/diagnose/progs
