## testsuite/staticcg/local.mk - -c on x86: every call of the code found,
## none invented (checked against objdump).
TESTS += testsuite/staticcg/run-x86.sh
EXTRA_DIST += testsuite/staticcg/run-x86.sh testsuite/staticcg/check_calls.py \
	testsuite/staticcg/calls.c
