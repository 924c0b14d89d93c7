## doc/local.mk - the manual and the man pages (included by Makefile.am).
##
## doc/gmonprof.texi is the manual of gprof and libgmon (make info, make
## html); doc/gmonprof.1 (the gprof command) and doc/libgmon.3 are the
## man pages, installed.
##
## Every installed name but the gprof command's is the project's own, so
## that installing beside binutils replaces nothing of it but its gprof:
## the manual is gmonprof.info, the command's page gmonprof(1), and their
## names stay as they are under --program-prefix (notrans_).

info_TEXINFOS = doc/gmonprof.texi
notrans_dist_man_MANS = doc/gmonprof.1 doc/libgmon.3

# distcheck builds the HTML manual rather than the DVI one, which would
# need TeX.
AM_DISTCHECK_DVI_TARGET = html

# Listed one by one, not as the directory: a doc/.dirstamp copied from a
# configured source tree would keep VPATH builds from creating doc/.
EXTRA_DIST += \
	doc/differences.md \
	doc/exports.md \
	doc/libgmon.md \
	doc/performance.md \
	doc/robustness.md \
	doc/export-schema.json
