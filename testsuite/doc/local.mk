## testsuite/doc/local.mk - the documentation covers every option, all of
## it names one project, and installing collides with binutils only in
## the gprof command (included by testsuite/local.mk).

TESTS += testsuite/doc/check-options.sh testsuite/doc/check-identity.sh \
	testsuite/doc/check-install.sh
EXTRA_DIST += testsuite/doc/check-options.sh testsuite/doc/check-identity.sh \
	testsuite/doc/check-install.sh
