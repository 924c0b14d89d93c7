#!/bin/sh
# modules.sh ARCH - whole-process profiles: a -pg program calls a -pg
# library (modlib.c) that dlopen's a -pg plugin (modplug.c), dlclose's it
# and dlopen's it again at another base, and spends most of its time in
# libm (and libz where this machine can link it).  With the program
# linked with libgmon.a and with libgmon.so preloaded:
#   - every arc between the test's functions, cross-module ones
#     included, counts what the program counted itself (gmon.out for
#     the program's own, gmon.out.modules for the others, both decoded by
#     modread.c, the functions found with nm);
#   - the samples land in libm's module;
#   - the plugin's two loads are one module, loaded twice, unloaded;
#   - a copy of the plugin (another module) loaded where the plugin was
#     keeps its own calls, though their addresses are the plugin's;
#   - GNU gprof prints from gmon.out what ours prints;
#   - the same when the program dies of SIGSEGV (the crash handler's
#     write).
# Run through modules-ARCH.test.

. "$srcdir/testsuite/libgmon/lib.sh"
gm_setup "$1" "modules-$1"

n=20000 math=3000000
[ -n "$RUN" ] && n=5000 math=400000
NM=${GPROF%gprof}nm
OURS=$GMON_BUILDDIR/gprof

gm_cc modread -O2 "$TESTSRC/modread.c" || gm_done
zlib=
if echo 'int main (void) { return 0; }' > z.c \
   && $CC -DMOD_ZLIB -include zlib.h z.c -lz -o z > /dev/null 2>&1; then
  zlib="-DMOD_ZLIB -lz"
  pass "libz is here: the program spends time in it too"
fi

# suite TAG: build the test's files with $CC into TAG/ and check them,
# linked and preloaded.
suite () {
  tag=$1
  mkdir -p "$tag" && cd "$tag" || return
  dir=$work/$tag
  gm_cc libmodA.so -O2 -pg -fPIC -shared "$TESTSRC/modlib.c" || return
  gm_cc modplug.so -O2 -pg -fPIC -shared "$TESTSRC/modplug.c" || return
  cp modplug.so modplug2.so
  link="-L. -lmodA -Wl,-rpath,$dir -lm $zlib"
  gm_cc archive -O2 -pg "$TESTSRC/modprog.c" $link "$LIBA" -lm || return
  gm_cc glibc -O2 -pg "$TESTSRC/modprog.c" $link || return
  # Function symbols of the test's three files: "file address name".
  for f in archive glibc libmodA.so modplug.so modplug2.so; do
    $NM -t d --defined-only "$f" | awk -v f="$f" \
      '$2 ~ /^[Tt]$/ { print f, $1, $3 }' >> syms.txt
  done

  for model in archive preload crash; do
    rm -f gmon.out gmon.out.modules
    if [ $model = archive ]; then
      prog=archive
      LIBGMON_VERBOSE=1 gm_run $prog "$dir/modplug.so" $n $math "$dir/modplug2.so"
    elif [ $model = crash ]; then
      # Written by the SIGSEGV handler: async-signal-safe, the same files.
      prog=archive
      LIBGMON_VERBOSE=1 gm_run $prog "$dir/modplug.so" $n $math "$dir/modplug2.so" segv
      [ $? = 139 ] || fail "$tag crash: the program did not die of SIGSEGV"
      true
    else
      prog=glibc
      LIBGMON_VERBOSE=1 gm_run_preload $prog "$dir/modplug.so" $n $math "$dir/modplug2.so"
    fi
    status=$?
    if [ $status -ne 0 ] || [ ! -f gmon.out.modules ]; then
      fail "$tag $model: status $status, no gmon.out.modules? $(cat $prog.err)"
      continue
    fi
    if ! $RUN ../modread gmon.out > $model.read 2> $model.readerr; then
      fail "$tag $model: modread: $(cat $model.readerr)"
      continue
    fi

    # The arcs between the test's functions, by name, summed over their
    # call sites; then those the program counted.
    awk -v prog=$prog '
      FILENAME == "syms.txt" {
        n[$1]++; addr[$1, n[$1]] = $2 + 0; name[$1, n[$1]] = $3
        next
      }
      $1 == "module" {
        f = $5; sub(/.*\//, "", f)
        file[$2] = f
        next
      }
      $1 == "arc" {
        a = fn(file[$2], $3 + 0); b = fn(file[$4], $5 + 0)
        if (a != "" && b != "") sum[a " " b] += $6
        if (b == "plug_entry") into[file[$4]] += $6
      }
      # The function of file f holding address x (linear: few symbols).
      function fn(f, x,   i, best, at) {
        best = ""; at = -1
        if (f != prog && f != "libmodA.so" && f !~ /^modplug2?\.so$/) return ""
        for (i = 1; i <= n[f]; i++)
          if (addr[f, i] <= x && addr[f, i] > at) { at = addr[f, i]; best = name[f, i] }
        return best
      }
      END {
        for (k in sum) print "arc", k, sum[k]
        for (f in into) print "into", f, into[f]
      }' syms.txt $model.read | sort > $model.all
    grep '^arc ' $model.all > $model.arcs
    grep '^arc ' $prog.out | sort > $model.want
    if cmp -s $model.arcs $model.want; then
      pass "$tag $model: $(wc -l < $model.want) arcs counted exactly, across modules too"
    else
      fail "$tag $model: arcs differ (got, want): $(diff $model.arcs $model.want | tr '\n' ' ')"
    fi

    # The plugin: one module, loaded twice at two bases, unloaded at
    # exit; its copy, another module, normally loaded where it was last:
    # then only the module epoch keeps their arcs apart.
    plug=$(awk '$1 == "module" && $5 ~ /\/modplug\.so$/' $model.read)
    set -- $(sed -n 's/^bases //p' $prog.out)
    b1=$1 b2=$2 b3=$3
    set -- $(sed -n 's/^entries //p' $prog.out)
    if [ "$(echo "$plug" | wc -l)" = 1 ] \
       && [ "$(echo "$plug" | cut -d' ' -f3,4)" = "1 2" ] && [ "$b1" != "$b2" ]
    then
      pass "$tag $model: the plugin loaded at $b1 and $b2 is one module, loads 2, unloaded"
    else
      fail "$tag $model: plugin modules: $plug; bases $b1 $b2"
    fi
    got=$(awk '$1 == "into" { printf "%s=%s ", $2, $3 }' $model.all)
    if [ "$got" = "modplug.so=$(($1 + $2)) modplug2.so=$3 " ]; then
      if [ "$b2" = "$b3" ]; then
        pass "$tag $model: its copy loaded at the same base $b3 kept its own calls"
      else
        pass "$tag $model: its copy kept its own calls (at $b3, not $b2: the same base not tested)"
      fi
    else
      fail "$tag $model: calls of plug_entry by module: $got (want modplug.so=$(($1 + $2)) modplug2.so=$3; bases $b2 $b3)"
    fi

    # The time in libm (and libz) is theirs; hardly any sample is in no
    # module (the issue asks for 95% in some module).
    libm=$(awk '$1 == "module" && $5 ~ /\/libm\.so/ { m = $2 }
                $1 == "samples" && $2 == m { print $3 }' $model.read)
    libz=$(awk '$1 == "module" && $5 ~ /\/libz\.so/ { m = $2 }
                $1 == "samples" && $2 == m { print $3 }' $model.read)
    total=$(sed -n 's/.*; \([0-9]*\) samples at .*/\1/p' $prog.err)
    none=$(sed -n 's/.* \([0-9]*\) in none.*/\1/p' $prog.err)
    if [ "${libm:-0}" -gt 0 ] && [ $((4 * ${libm:-0})) -gt "${total:-0}" ] \
       && [ $((20 * ${none:-1})) -le "${total:-0}" ]; then
      pass "$tag $model: $libm of $total samples in libm, ${libz:-0} in libz, $none in no module"
    else
      fail "$tag $model: ${libm:-0} of ${total:-?} samples in libm, ${none:-?} in none: $(cat $prog.err)"
    fi

    if gm_gprof $prog gmon.out -b > $model.gnu \
       && "$OURS" -b $prog gmon.out > $model.ours 2>&1 \
       && cmp -s $model.gnu $model.ours; then
      pass "$tag $model: GNU gprof reads gmon.out and prints what ours prints"
    else
      fail "$tag $model: GNU gprof and ours differ on gmon.out"
    fi
  done
}

suite "${CC%% *}"
cd "$work"
# clang's -pg code too, where clang is installed (on x86-64 only: it
# has no sysroot for the other targets here).
if [ "$gm_arch" = x86_64 ] && command -v clang > /dev/null 2>&1; then
  cc_saved=$CC CC=clang
  suite clang
  CC=$cc_saved
  cd "$work"
else
  skip "no clang for $gm_arch"
fi

# LIBGMON_MODULES=0: no .modules file.
cd "${CC%% *}" || gm_done
rm -f gmon.out gmon.out.modules
LIBGMON_MODULES=0 gm_run archive "$work/${CC%% *}/modplug.so" 10 10 \
  "$work/${CC%% *}/modplug2.so"
if [ -f gmon.out ] && [ ! -f gmon.out.modules ]; then
  pass "LIBGMON_MODULES=0 writes no gmon.out.modules"
else
  fail "LIBGMON_MODULES=0: $(ls gmon.out*)"
fi

gm_done
