## testsuite/staticcg/local.mk - -c on x86: every call of the code found,
## none invented (checked against objdump), and the instruction lengths
## of the sweep the same as objdump's (when libopcodes is there to ask);
## and on compiled x86 and AArch64 programs, the calls of the .cold parts
## before .text's first function found as GNU gprof finds them.
TESTS += testsuite/staticcg/run-x86.sh testsuite/staticcg/run-x86-insn.sh \
	testsuite/staticcg/run-cold.sh
EXTRA_DIST += testsuite/staticcg/run-x86.sh testsuite/staticcg/check_calls.py \
	testsuite/staticcg/calls.c testsuite/staticcg/run-x86-insn.sh \
	testsuite/staticcg/x86_vs_objdump.c testsuite/staticcg/run-cold.sh \
	testsuite/staticcg/coldparts.c testsuite/staticcg/coldparts.cc

if HAVE_OPCODES
check_PROGRAMS += testsuite/staticcg/x86_vs_objdump
testsuite_staticcg_x86_vs_objdump_SOURCES = testsuite/staticcg/x86_vs_objdump.c \
	mach/x86_insn.c mach/x86_insn.h
testsuite_staticcg_x86_vs_objdump_LDADD = $(OPCODES_LIBS) $(BFD_LIBS)
endif
