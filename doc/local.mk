## doc/local.mk - the manual and the man pages (included by Makefile.am).
##
## doc/gprof.texi is the manual of gprof and libgmon (make info, make
## html); doc/gprof.1 and doc/libgmon.3 are the man pages, installed.

info_TEXINFOS = doc/gprof.texi
dist_man_MANS = doc/gprof.1 doc/libgmon.3

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
