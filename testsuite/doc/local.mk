## testsuite/doc/local.mk - the documentation covers every option, all of
## it names one project, installing collides with binutils only in the
## gprof command, and the demo's set-up installs no test tools (included
## by testsuite/local.mk).

TESTS += testsuite/doc/check-options.sh testsuite/doc/check-identity.sh \
	testsuite/doc/check-install.sh testsuite/doc/check-setup.sh
EXTRA_DIST += testsuite/doc/check-options.sh testsuite/doc/check-identity.sh \
	testsuite/doc/check-install.sh testsuite/doc/check-setup.sh
