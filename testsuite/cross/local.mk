## testsuite/cross/local.mk - a profile taken on aarch64 (cross-compiled,
## run under qemu-user) against GNU gprof for aarch64.
TESTS += testsuite/cross/run-aarch64.py
EXTRA_DIST += testsuite/cross/run-aarch64.py
