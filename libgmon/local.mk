## libgmon/local.mk - the libgmon profiling runtime, its tests and its
## benchmark (included by Makefile.am; paths are relative to the top).

if GMON
lib_LTLIBRARIES = libgmon/libgmon.la
endif

libgmon_libgmon_la_SOURCES = \
	gmon_out.h \
	libgmon/arcs.c \
	libgmon/control.c \
	libgmon/dlwrap.c \
	libgmon/dump.c \
	libgmon/gmon.h \
	libgmon/internal.h \
	libgmon/layout.h \
	libgmon/modules.c \
	libgmon/sample.c \
	libgmon/stacks.c \
	libgmon/sys.c \
	libgmon/wall.c \
	libgmon/write.c
if GMON_X86_64
libgmon_libgmon_la_SOURCES += mach/mcount-x86_64.S
endif
if GMON_I386
libgmon_libgmon_la_SOURCES += mach/mcount-i386.S
endif
if GMON_AARCH64
libgmon_libgmon_la_SOURCES += mach/mcount-aarch64.S
endif

# Not AM_CFLAGS: the runtime must not be built with sanitizers (it runs
# inside mcount and a signal handler), and GMON_CFLAGS keeps it free of
# instrumentation and vector registers (see libgmon.m4).
libgmon_libgmon_la_CFLAGS = $(WARN_CFLAGS) $(GMON_CFLAGS)
libgmon_libgmon_la_LDFLAGS = -version-info 0:0:0 -pthread \
	-Wl,--version-script=$(srcdir)/libgmon/libgmon.map
EXTRA_libgmon_libgmon_la_DEPENDENCIES = libgmon/libgmon.map

libgmonincludedir = $(includedir)/libgmon
libgmoninclude_HEADERS = libgmon/gmon.h

libgmonpkgconfigdir = $(libdir)/pkgconfig
libgmonpkgconfig_DATA = libgmon/libgmon.pc

EXTRA_DIST += \
	libgmon/libgmon.m4 \
	libgmon/libgmon.map \
	libgmon/libgmon.pc.in \
	bench/libgmon/callheavy.c \
	bench/libgmon/run.sh \
	bench/libgmon/threadstart.c \
	bench/libgmon/threadstart.sh

## ---- tests --------------------------------------------------------------
## The test scripts compile their own programs with -pg (for every
## architecture this machine can build and run), run them and check what
## GNU gprof reads from the profiles.  Architectures other than the
## configured one get their runtime built by build-runtime.sh.

GMON_TEST_ARCH_TESTS = \
	testsuite/libgmon/threads-x86_64.test \
	testsuite/libgmon/threads-i386.test \
	testsuite/libgmon/threads-aarch64.test \
	testsuite/libgmon/regs-x86_64.test \
	testsuite/libgmon/regs-i386.test \
	testsuite/libgmon/regs-aarch64.test \
	testsuite/libgmon/builds-x86_64.test \
	testsuite/libgmon/builds-i386.test \
	testsuite/libgmon/builds-aarch64.test \
	testsuite/libgmon/format-x86_64.test \
	testsuite/libgmon/format-i386.test \
	testsuite/libgmon/format-aarch64.test \
	testsuite/libgmon/dumps-x86_64.test \
	testsuite/libgmon/dumps-i386.test \
	testsuite/libgmon/dumps-aarch64.test \
	testsuite/libgmon/wall-x86_64.test \
	testsuite/libgmon/wall-i386.test \
	testsuite/libgmon/modules-x86_64.test \
	testsuite/libgmon/modules-i386.test \
	testsuite/libgmon/modules-aarch64.test \
	testsuite/measured/measured-x86_64.test \
	testsuite/measured/measured-i386.test \
	testsuite/measured/measured-aarch64.test \
	testsuite/measured/walk-x86_64.test \
	testsuite/measured/walk-i386.test \
	testsuite/measured/walk-aarch64.test
GMON_TEST_HOST_TESTS = \
	testsuite/libgmon/output.test \
	testsuite/libgmon/lifecycle.test \
	testsuite/libgmon/sampling.test \
	testsuite/libgmon/threadstart.test \
	testsuite/libgmon/stackcap.test \
	testsuite/measured/perf.test
TESTS += $(GMON_TEST_ARCH_TESTS) $(GMON_TEST_HOST_TESTS)

GMON_TEST_FILES = \
	testsuite/libgmon/lib.sh \
	testsuite/libgmon/threads.sh \
	testsuite/libgmon/regs.sh \
	testsuite/libgmon/builds.sh \
	testsuite/libgmon/format.sh \
	testsuite/libgmon/dumps.sh \
	testsuite/libgmon/wall.sh \
	testsuite/libgmon/build-runtime.sh \
	testsuite/libgmon/output.sh \
	testsuite/libgmon/lifecycle.sh \
	testsuite/libgmon/sampling.sh \
	testsuite/libgmon/threadstart.sh \
	testsuite/libgmon/stackcap.sh \
	testsuite/libgmon/threads.c \
	testsuite/libgmon/regs.c \
	testsuite/libgmon/chain.c \
	testsuite/libgmon/dumps.c \
	testsuite/libgmon/wallprog.c \
	testsuite/libgmon/formatgen.c \
	testsuite/libgmon/lifecycle.c \
	testsuite/libgmon/manythreads.c \
	testsuite/libgmon/spin.c \
	testsuite/libgmon/stackfill.c \
	testsuite/libgmon/stackread.c \
	testsuite/libgmon/stacksfile.h \
	testsuite/libgmon/modules.sh \
	testsuite/libgmon/modtest.h \
	testsuite/libgmon/modprog.c \
	testsuite/libgmon/modlib.c \
	testsuite/libgmon/modplug.c \
	testsuite/libgmon/modread.c \
	testsuite/measured/measured.sh \
	testsuite/measured/parents.awk \
	testsuite/measured/progs.c \
	testsuite/measured/walk.sh \
	testsuite/measured/walk.c \
	testsuite/measured/walk-leaf.c \
	testsuite/measured/walkread.c \
	testsuite/measured/walkcheck.awk \
	testsuite/measured/perf.sh \
	testsuite/measured/interp.c \
	testsuite/measured/flamecmp.py
EXTRA_DIST += $(GMON_TEST_ARCH_TESTS) $(GMON_TEST_HOST_TESTS) \
	$(GMON_TEST_FILES)

# What the scripts need to know, generated here rather than by configure
# so that it can name the build and source directories.  Building it
# first builds the cross runtimes.  (testsuite/work/ is where the tests
# work, and is ignored by git in in-tree builds.)
check_SCRIPTS = testsuite/work/libgmon/config.sh
GMON_CROSS_RUNTIMES =
if GMON_CROSS_I386
GMON_CROSS_RUNTIMES += testsuite/libgmon/i386/libgmon.a
endif
if GMON_CROSS_AARCH64
GMON_CROSS_RUNTIMES += testsuite/libgmon/aarch64/libgmon.a
endif

testsuite/work/libgmon/config.sh: Makefile $(GMON_CROSS_RUNTIMES)
	$(AM_V_GEN)$(MKDIR_P) testsuite/work/libgmon && { \
	  echo '# generated by libgmon/local.mk'; \
	  echo 'GMON_ARCH="$(GMON_ARCH)"'; \
	  echo 'GMON_BUILDDIR="$(abs_top_builddir)"'; \
	  echo 'GMON_SRCDIR="$(abs_top_srcdir)"'; \
	  echo 'GMON_CC_x86_64="$(GMON_TEST_CC_X86_64)"'; \
	  echo 'GMON_CC_i386="$(GMON_TEST_CC_I386)"'; \
	  echo 'GMON_CC_aarch64="$(GMON_TEST_CC_AARCH64)"'; \
	  echo 'GMON_CFLAGS_i386="$(GMON_TEST_I386_CFLAGS)"'; \
	  echo 'GMON_RUN_aarch64="$(GMON_TEST_RUN_AARCH64)"'; \
	  echo 'GMON_GPROF_x86_64="$(GMON_TEST_GPROF_X86)"'; \
	  echo 'GMON_GPROF_i386="$(GMON_TEST_GPROF_X86)"'; \
	  echo 'GMON_GPROF_aarch64="$(GMON_TEST_GPROF_AARCH64)"'; \
	} > $@-t && mv $@-t $@

GMON_RUNTIME_DEPS = \
	$(libgmon_libgmon_la_SOURCES:%=$(srcdir)/%) \
	$(srcdir)/libgmon/libgmon.map \
	$(srcdir)/testsuite/libgmon/build-runtime.sh

testsuite/libgmon/i386/libgmon.a: $(GMON_RUNTIME_DEPS) $(srcdir)/mach/mcount-i386.S
	$(AM_V_GEN)$(SHELL) $(srcdir)/testsuite/libgmon/build-runtime.sh \
	  $(srcdir) testsuite/libgmon/i386 "$(GMON_TEST_CC_I386)" \
	  $(GMON_TEST_I386_CFLAGS)

testsuite/libgmon/aarch64/libgmon.a: $(GMON_RUNTIME_DEPS) $(srcdir)/mach/mcount-aarch64.S
	$(AM_V_GEN)$(SHELL) $(srcdir)/testsuite/libgmon/build-runtime.sh \
	  $(srcdir) testsuite/libgmon/aarch64 "$(GMON_TEST_CC_AARCH64)"

CLEANFILES += testsuite/work/libgmon/config.sh \
	testsuite/libgmon/i386/libgmon.a testsuite/libgmon/i386/libgmon.so \
	testsuite/libgmon/aarch64/libgmon.a testsuite/libgmon/aarch64/libgmon.so

# The benchmark (not a test): make bench-libgmon
bench-libgmon: libgmon/libgmon.la
	$(SHELL) $(srcdir)/bench/libgmon/run.sh $(abs_top_builddir)
.PHONY: bench-libgmon
