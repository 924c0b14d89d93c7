## testsuite/i18n/local.mk - gprof speaking German and French (included by
## testsuite/local.mk).
##
## gprof looks for its translations under $(localedir), where they are
## only once installed.  gprof-nls is gprof built from the same objects
## with its message catalogs looked up in the build tree instead, under
## testsuite/work/i18n/locale, which run-i18n.sh fills from po/*.po.

check_PROGRAMS += testsuite/i18n/gprof-nls
testsuite_i18n_gprof_nls_SOURCES = gprof.c
testsuite_i18n_gprof_nls_CPPFLAGS = -I$(srcdir) \
	-DLOCALEDIR=\"$(abs_top_builddir)/testsuite/work/i18n/locale\"
testsuite_i18n_gprof_nls_LDADD = $(gprof_LDADD)

TESTS += testsuite/i18n/run-i18n.sh
EXTRA_DIST += testsuite/i18n/run-i18n.sh
