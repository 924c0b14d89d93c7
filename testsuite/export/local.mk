## testsuite/export/local.mk - the --export formats, each checked by the
## tool that reads it (included by testsuite/local.mk).  The tests profile
## prog.cc once, and measured.sh twocallers.c, built against the in-tree
## libgmon for the call stacks it records; speedscope, json and html use
## the npm packages that tools/setup check installs
## (tools/npm-packages.txt), and skip without; pprof uses go tool pprof
## (golang-go), and skips without.

TESTS += \
	testsuite/export/dot.sh \
	testsuite/export/callgrind.sh \
	testsuite/export/folded.sh \
	testsuite/export/speedscope.sh \
	testsuite/export/pprof.sh \
	testsuite/export/json.sh \
	testsuite/export/html.sh \
	testsuite/export/measured.sh

EXTRA_DIST += \
	testsuite/export/lib.sh \
	testsuite/export/prog.cc \
	testsuite/export/twocallers.c \
	testsuite/export/check.py \
	testsuite/export/pprof.py \
	testsuite/export/shares.py \
	testsuite/export/validate.js \
	testsuite/export/browse.js \
	testsuite/export/dot.sh \
	testsuite/export/callgrind.sh \
	testsuite/export/folded.sh \
	testsuite/export/speedscope.sh \
	testsuite/export/pprof.sh \
	testsuite/export/json.sh \
	testsuite/export/html.sh \
	testsuite/export/measured.sh
