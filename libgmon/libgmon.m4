dnl libgmon/libgmon.m4 - configure checks for the libgmon profiling runtime
dnl and its tests (m4_include'd by configure.ac).
dnl
dnl Sets:
dnl   GMON_ARCH      x86_64, i386 or aarch64: which mach/mcount-*.S to use
dnl                  (AM_CONDITIONALs GMON, GMON_X86_64, GMON_I386,
dnl                  GMON_AARCH64)
dnl   GMON_CFLAGS    flags the runtime must be built with
dnl   GMON_TEST_*    per test architecture: compiler, extra flags, program
dnl                  runner (qemu) and GNU gprof; empty when this machine
dnl                  cannot build or run programs for it (the tests skip)

AC_MSG_CHECKING([for the libgmon architecture])
AS_CASE([$host_cpu],
  [x86_64], [GMON_ARCH=x86_64],
  [i?86], [GMON_ARCH=i386],
  [aarch64], [GMON_ARCH=aarch64],
  [GMON_ARCH=])
AC_MSG_RESULT([${GMON_ARCH:-none (libgmon will not be built)}])
AC_SUBST([GMON_ARCH])
AM_CONDITIONAL([GMON], [test -n "$GMON_ARCH"])
AM_CONDITIONAL([GMON_X86_64], [test "$GMON_ARCH" = x86_64])
AM_CONDITIONAL([GMON_I386], [test "$GMON_ARCH" = i386])
AM_CONDITIONAL([GMON_AARCH64], [test "$GMON_ARCH" = aarch64])

dnl GMON_CFLAG(FLAG, [REQUIRED]) - add FLAG to GMON_CFLAGS if $CC takes it.
AC_DEFUN([GMON_CFLAG],
[AC_MSG_CHECKING([whether $CC accepts $1])
gmon_save_CFLAGS=$CFLAGS
CFLAGS="$CFLAGS -Werror $1"
AC_COMPILE_IFELSE([AC_LANG_PROGRAM([], [])],
  [AC_MSG_RESULT([yes]); GMON_CFLAGS="$GMON_CFLAGS $1"],
  [AC_MSG_RESULT([no])
   m4_ifval([$2], [AS_IF([test -n "$GMON_ARCH"],
     [AC_MSG_ERROR([libgmon needs $CC to accept $1])])])])
CFLAGS=$gmon_save_CFLAGS])

dnl The runtime runs inside mcount and a signal handler: no stack
dnl protector or instrumentation, no memset/memcpy calls invented by the
dnl compiler, and (x86) no vector registers, which the stubs do not save.
GMON_CFLAGS=
GMON_CFLAG([-fno-stack-protector], [required])
GMON_CFLAG([-fno-instrument-functions], [required])
GMON_CFLAG([-fno-tree-loop-distribute-patterns])
GMON_CFLAG([-fvisibility=hidden], [required])
GMON_CFLAG([-ftls-model=initial-exec], [required])
AS_CASE([$GMON_ARCH],
  [x86_64|i386],
    [GMON_CFLAG([-mgeneral-regs-only], [required])
     GMON_CFLAG([-fcf-protection=full])],
  [aarch64],
    [GMON_CFLAG([-mbranch-protection=standard])])
AC_SUBST([GMON_CFLAGS])

dnl ---- the tests: compilers, runners and gprof per architecture ---------

dnl GMON_TEST_LINKS(CC) - whether CC compiles and links a threaded -pg
dnl program; sets gmon_links to yes or no.
AC_DEFUN([GMON_TEST_LINKS],
[cat > conftest-gmon.c <<'EOF'
#include <pthread.h>
static void *f (void *p) { return p; }
int main (void) { pthread_t t; return pthread_create (&t, 0, f, 0); }
EOF
AS_IF([$1 -pg -pthread -o conftest-gmon conftest-gmon.c >&AS_MESSAGE_LOG_FD 2>&1],
  [gmon_links=yes], [gmon_links=no])
rm -f conftest-gmon conftest-gmon.c])

GMON_TEST_CC_X86_64= GMON_TEST_CC_I386= GMON_TEST_CC_AARCH64=
GMON_TEST_I386_CFLAGS= GMON_TEST_RUN_AARCH64=
GMON_TEST_GPROF_X86= GMON_TEST_GPROF_AARCH64=

dnl The native architecture uses the configured compiler and GNU gprof.
AS_CASE([$GMON_ARCH],
  [x86_64], [GMON_TEST_CC_X86_64=$CC],
  [i386], [GMON_TEST_CC_I386=$CC],
  [aarch64], [GMON_TEST_CC_AARCH64=$CC])
AS_CASE([$GMON_ARCH],
  [x86_64|i386], [GMON_TEST_GPROF_X86=$GNU_GPROF],
  [aarch64], [GMON_TEST_GPROF_AARCH64=$GNU_GPROF])

dnl i386 on an x86-64 machine: gcc -m32 (libc6-dev-i386, lib32gcc-12-dev).
AS_IF([test "$GMON_ARCH" = x86_64],
  [AC_MSG_CHECKING([whether $CC -m32 links threaded -pg programs])
   GMON_TEST_LINKS([$CC -m32])
   AC_MSG_RESULT([$gmon_links])
   dnl A kernel may lack the 32-bit mode (some hypervisors' guests):
   dnl the i386 tests are then skipped, not failed.
   AS_IF([test $gmon_links = yes],
     [AC_MSG_CHECKING([whether this machine runs $CC -m32 programs])
      echo 'int main (void) { return 0; }' > conftest-gmon.c
      AS_IF([$CC -m32 -o conftest-gmon conftest-gmon.c >&AS_MESSAGE_LOG_FD 2>&1 &&
             ./conftest-gmon >&AS_MESSAGE_LOG_FD 2>&1],
        [AC_MSG_RESULT([yes])],
        [AC_MSG_RESULT([no]); gmon_links=no])
      rm -f conftest-gmon conftest-gmon.c])
   AS_IF([test $gmon_links = yes],
     [GMON_TEST_CC_I386="$CC -m32"
      dnl Without linux-libc-dev:i386, <sys/syscall.h> misses
      dnl <asm/unistd.h>; the 64-bit one serves both.
      AC_MSG_CHECKING([whether $CC -m32 needs the 64-bit asm headers])
      echo '#include <sys/syscall.h>' > conftest-gmon.c
      AS_IF([$CC -m32 -c -o conftest-gmon.o conftest-gmon.c >&AS_MESSAGE_LOG_FD 2>&1],
        [AC_MSG_RESULT([no])],
        [GMON_TEST_I386_CFLAGS="-idirafter /usr/include/$host_cpu-$host_os"
         AS_IF([$CC -m32 $GMON_TEST_I386_CFLAGS -c -o conftest-gmon.o conftest-gmon.c >&AS_MESSAGE_LOG_FD 2>&1],
           [AC_MSG_RESULT([yes, $GMON_TEST_I386_CFLAGS])],
           [AC_MSG_RESULT([cannot find them]); GMON_TEST_CC_I386=])])
      rm -f conftest-gmon.c conftest-gmon.o])])

dnl aarch64 elsewhere: the cross compiler, qemu-user and the cross gprof
dnl (gcc-12-aarch64-linux-gnu, libc6-dev-arm64-cross, qemu-user,
dnl binutils-aarch64-linux-gnu).
AS_IF([test "$GMON_ARCH" != aarch64],
  [AC_CHECK_PROGS([GMON_AARCH64_CC], [aarch64-linux-gnu-gcc-12 aarch64-linux-gnu-gcc])
   AC_CHECK_PROGS([GMON_QEMU_AARCH64], [qemu-aarch64 qemu-aarch64-static])
   AC_CHECK_PROGS([GMON_AARCH64_GPROF], [aarch64-linux-gnu-gprof])
   AS_IF([test -n "$GMON_AARCH64_CC" && test -n "$GMON_QEMU_AARCH64" && test -n "$GMON_AARCH64_GPROF"],
     [AC_MSG_CHECKING([whether $GMON_AARCH64_CC links threaded -pg programs])
      GMON_TEST_LINKS([$GMON_AARCH64_CC])
      AC_MSG_RESULT([$gmon_links])
      gmon_sysroot=`$GMON_AARCH64_CC -print-sysroot 2>/dev/null`
      AS_IF([test -z "$gmon_sysroot" || test "$gmon_sysroot" = /],
        [gmon_sysroot=/usr/aarch64-linux-gnu])
      AS_IF([test $gmon_links = yes && test -d "$gmon_sysroot/lib"],
        [GMON_TEST_CC_AARCH64=$GMON_AARCH64_CC
         GMON_TEST_RUN_AARCH64="$GMON_QEMU_AARCH64 -L $gmon_sysroot"
         GMON_TEST_GPROF_AARCH64=$GMON_AARCH64_GPROF])])])

AC_SUBST([GMON_TEST_CC_X86_64])
AC_SUBST([GMON_TEST_CC_I386])
AC_SUBST([GMON_TEST_CC_AARCH64])
AC_SUBST([GMON_TEST_I386_CFLAGS])
AC_SUBST([GMON_TEST_RUN_AARCH64])
AC_SUBST([GMON_TEST_GPROF_X86])
AC_SUBST([GMON_TEST_GPROF_AARCH64])
dnl Cross runtimes the tests build with testsuite/libgmon/build-runtime.sh.
AM_CONDITIONAL([GMON_CROSS_I386],
  [test "$GMON_ARCH" != i386 && test -n "$GMON_TEST_CC_I386"])
AM_CONDITIONAL([GMON_CROSS_AARCH64],
  [test "$GMON_ARCH" != aarch64 && test -n "$GMON_TEST_CC_AARCH64"])
