## testsuite/doc/local.mk - the documentation covers every option
## (included by testsuite/local.mk).

TESTS += testsuite/doc/check-options.sh
EXTRA_DIST += testsuite/doc/check-options.sh
