## testsuite/reference/local.mk - the reference build (included by
## testsuite/local.mk): gprof-ref is gprof's sources with every speed
## tactic left out (GP_NO_TACTICS), run with one thread; run-reference.sh
## checks that the fast build prints the same bytes on 1, 2 and 4
## threads (doc/design.md, "Speed without tangling").

check_PROGRAMS += gprof-ref
gprof_ref_SOURCES = gprof.c $(libgprof_a_SOURCES)
gprof_ref_CPPFLAGS = $(AM_CPPFLAGS) -DGP_NO_TACTICS
gprof_ref_LDADD = $(GPROF_LIBS)

TESTS += testsuite/reference/run-reference.sh
EXTRA_DIST += testsuite/reference/run-reference.sh bench/mkcase.py \
	bench/mkprog.py
