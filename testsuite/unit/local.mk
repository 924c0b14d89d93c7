## testsuite/unit/local.mk - unit tests of the analyzer's algorithms
## (included by testsuite/local.mk).
##
## Each test is a C program linked against libgprof.a, so it exercises the
## same code as gprof; it prints "ok N - what" / "not ok N - what" lines
## and exits non-zero if anything failed.  UNIT_SEED=N in the environment
## changes the random cases.

# Linked as gprof is, so that the tests follow its library list; and
# test_cg_dfn runs its recursive reference on a thread with a big stack.
UNIT_LDADD = $(gprof_LDADD) -lpthread
UNIT_COMMON = testsuite/unit/unit.c testsuite/unit/unit.h

# the merge sort every report uses
check_PROGRAMS += testsuite/unit/test_msort
TESTS += testsuite/unit/test_msort
testsuite_unit_test_msort_SOURCES = testsuite/unit/test_msort.c $(UNIT_COMMON)
testsuite_unit_test_msort_LDADD = $(UNIT_LDADD)

# symbol table: sorting, duplicates, lookup, source files
check_PROGRAMS += testsuite/unit/test_symtab
TESTS += testsuite/unit/test_symtab
testsuite_unit_test_symtab_SOURCES = testsuite/unit/test_symtab.c $(UNIT_COMMON)
testsuite_unit_test_symtab_LDADD = $(UNIT_LDADD)

# cycle detection and numbering
check_PROGRAMS += testsuite/unit/test_cg_dfn
TESTS += testsuite/unit/test_cg_dfn
testsuite_unit_test_cg_dfn_SOURCES = testsuite/unit/test_cg_dfn.c $(UNIT_COMMON)
testsuite_unit_test_cg_dfn_LDADD = $(UNIT_LDADD)

# print flags and time propagation
check_PROGRAMS += testsuite/unit/test_propagate
TESTS += testsuite/unit/test_propagate
testsuite_unit_test_propagate_SOURCES = testsuite/unit/test_propagate.c $(UNIT_COMMON)
testsuite_unit_test_propagate_LDADD = $(UNIT_LDADD)

# symspecs
check_PROGRAMS += testsuite/unit/test_sym_ids
TESTS += testsuite/unit/test_sym_ids
testsuite_unit_test_sym_ids_SOURCES = testsuite/unit/test_sym_ids.c $(UNIT_COMMON)
testsuite_unit_test_sym_ids_LDADD = $(UNIT_LDADD)

# profile files written and read back
check_PROGRAMS += testsuite/unit/test_gmon_io
TESTS += testsuite/unit/test_gmon_io
testsuite_unit_test_gmon_io_SOURCES = testsuite/unit/test_gmon_io.c $(UNIT_COMMON)
testsuite_unit_test_gmon_io_LDADD = $(UNIT_LDADD)

# the number formatting of the reports, against printf
check_PROGRAMS += testsuite/unit/test_out
TESTS += testsuite/unit/test_out
testsuite_unit_test_out_SOURCES = testsuite/unit/test_out.c $(UNIT_COMMON)
testsuite_unit_test_out_LDADD = $(UNIT_LDADD)

# the exports' numbers, against printf
check_PROGRAMS += testsuite/unit/test_json_numbers
TESTS += testsuite/unit/test_json_numbers
testsuite_unit_test_json_numbers_SOURCES = testsuite/unit/test_json_numbers.c $(UNIT_COMMON)
testsuite_unit_test_json_numbers_LDADD = $(UNIT_LDADD)

# printing a list on several threads, in order
check_PROGRAMS += testsuite/unit/test_out_items
TESTS += testsuite/unit/test_out_items
testsuite_unit_test_out_items_SOURCES = testsuite/unit/test_out_items.c $(UNIT_COMMON)
testsuite_unit_test_out_items_LDADD = $(UNIT_LDADD)

# helper threads: tasks run once, nested, and threads kept for reuse
check_PROGRAMS += testsuite/unit/test_tasks
TESTS += testsuite/unit/test_tasks
testsuite_unit_test_tasks_SOURCES = testsuite/unit/test_tasks.c $(UNIT_COMMON)
testsuite_unit_test_tasks_LDADD = $(UNIT_LDADD)

# x86 instruction lengths (the sweep of -c)
check_PROGRAMS += testsuite/unit/test_x86_insn
TESTS += testsuite/unit/test_x86_insn
testsuite_unit_test_x86_insn_SOURCES = testsuite/unit/test_x86_insn.c $(UNIT_COMMON)
testsuite_unit_test_x86_insn_LDADD = $(UNIT_LDADD)
