#!/bin/sh
# build-runtime.sh - build libgmon.a and libgmon.so for one architecture
# with a given compiler, outside libtool: the test suite uses it for the
# architectures other than the one configure built for (i386 through
# gcc -m32, aarch64 through the cross compiler).
#
# usage: build-runtime.sh SRCDIR OUTDIR CC [EXTRA_CFLAGS...]
# CC may contain options ("gcc -m32").  The flags are the ones
# libgmon/libgmon.m4 chooses for the configured build.

set -e
srcdir=$1 out=$2 cc=$3
shift 3

case $($cc -dumpmachine) in
  x86_64-*) arch=x86_64 archflags="-mgeneral-regs-only -fcf-protection=full" ;;
  i?86-*) arch=i386 archflags="-mgeneral-regs-only -fcf-protection=full" ;;
  aarch64-*) arch=aarch64 archflags="-mbranch-protection=standard" ;;
  *) echo "build-runtime.sh: unsupported compiler $cc" >&2; exit 1 ;;
esac
# "gcc -m32" reports the 64-bit triplet: the -m32 decides.
case " $cc " in *" -m32 "*) arch=i386 ;; esac

cflags="-O2 -g -fno-stack-protector -fno-instrument-functions
	-fno-tree-loop-distribute-patterns -fvisibility=hidden
	-ftls-model=initial-exec $archflags $*"

mkdir -p "$out/obj"
objs= picobjs=
for src in "$srcdir"/libgmon/*.c "$srcdir/mach/mcount-$arch.S"; do
  base=$(basename "$src"); base=${base%.*}
  $cc $cflags -c "$src" -o "$out/obj/$base.o"
  $cc $cflags -fPIC -DPIC -c "$src" -o "$out/obj/$base.pic.o"
  objs="$objs $out/obj/$base.o" picobjs="$picobjs $out/obj/$base.pic.o"
done
rm -f "$out/libgmon.a"
ar rcs "$out/libgmon.a" $objs
$cc -shared -o "$out/libgmon.so" $picobjs -pthread -Wl,-z,defs \
  -Wl,--version-script="$srcdir/libgmon/libgmon.map"
rm -rf "$out/obj"
