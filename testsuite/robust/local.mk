## testsuite/robust/local.mk - odd inputs and hostile conditions: line
## numbers past 2^31, sums wider than the file's fields, sampling rates,
## full disks, long names, links and signals during -s and -y (included
## by testsuite/local.mk).

TESTS += testsuite/robust/run-robust.sh
EXTRA_DIST += testsuite/robust/run-robust.sh testsuite/robust/mkinputs.py
