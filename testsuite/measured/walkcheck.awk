# walkcheck.awk - the call stacks walkread printed, against the
# program's functions and the chains of calls it really makes:
#
#   awk -f walkcheck.awk CHAINS SYMBOLS STACKS
#
# CHAINS: one chain of calls the program makes a line, outermost
# function first.  SYMBOLS: nm -n -S --synthetic --defined-only of the
# program.  STACKS: walkread's output.  A frame is named by the function
# that holds it: the innermost (the sampled PC) by its address, the
# others (return addresses) by the byte before, the call's.  Two kinds
# of code have no size in nm's listing: PLT stubs, 16 bytes on all three
# architectures, and the get_pc_thunk of i386's crt files, 4 bytes
# (mov (%esp),%ebx; ret).
#
# Prints each stack as "stack WEIGHT f;g;h", outermost first, and each
# bad one again as
#   outside WEIGHT ADDR...  a frame lies in no function of the program
#   unreal WEIGHT f;g;h     the stack is not a subsequence of any chain:
#                           the walk made up or reordered frames
# Innermost frames in a PLT stub, in i386's get_pc_thunk (helpers that
# any function calls) or in libgmon's own code outside its stubs (gm_*,
# linked into the program from the archive; libc calls some of it, as
# at exit) are left out of the chain check.  Exits 1 when a stack is
# bad.

function hex(s,    v, i) {
  v = 0
  s = tolower(s)
  for (i = 1; i <= length(s); i++)
    v = v * 16 + index("0123456789abcdef", substr(s, i, 1)) - 1
  return v
}

# The function holding address x, or "" (a binary search of the
# functions, sorted by address).
function name_of(x,    lo, hi, mid) {
  lo = 1
  hi = nsym
  while (lo < hi) {
    mid = int((lo + hi + 1) / 2)
    if (sym_lo[mid] <= x)
      lo = mid
    else
      hi = mid - 1
  }
  return nsym > 0 && sym_lo[lo] <= x && x < sym_hi[lo] ? sym_name[lo] : ""
}

# Whether names s[1..k] appear in this order in some chain.
function real(s, k,    c, m, i, j, part) {
  for (c = 1; c <= nchain; c++) {
    m = split(chain[c], part, " ")
    i = 1
    for (j = 1; i <= k && j <= m; j++)
      if (part[j] == s[i])
        i++
    if (i > k)
      return 1
  }
  return 0
}

FILENAME == ARGV[1] {
  if (NF > 0)
    chain[++nchain] = $0
  next
}

# "ADDR SIZE TYPE NAME" or, without a size, "ADDR TYPE NAME".
FILENAME == ARGV[2] {
  if (NF == 4)
    size = hex($2)
  else
    size = $NF ~ /@plt$/ ? 16 : $NF ~ /^__x86\.get_pc_thunk\./ ? 4 : 0
  if (size == 0 || $(NF - 1) !~ /^[TtWw]$/)
    next
  lo = hex($1)
  # Aliases share an address: keep the widest.
  if (nsym > 0 && sym_lo[nsym] == lo) {
    if (lo + size > sym_hi[nsym])
      sym_hi[nsym] = lo + size
    next
  }
  sym_lo[++nsym] = lo
  sym_hi[nsym] = lo + size
  sym_name[nsym] = $NF
  next
}

FNR == 1 { next }               # walkread's header

{
  weight = $1
  path = ""
  outside = 0
  k = 0
  # $2 is the innermost frame; s[] gets them outermost first.
  for (f = NF; f >= 2; f--) {
    name = name_of(f == 2 ? hex($f) : hex($f) - 1)
    if (name == "") {
      outside = 1
      name = "?" $f
    }
    path = path (path == "" ? "" : ";") name
    s[++k] = name
  }
  print "stack", weight, path
  if (outside) {
    print "outside", $0
    bad++
    next
  }
  while (k > 0 && (s[k] ~ /@plt$/ || s[k] ~ /^__x86\.get_pc_thunk\./ \
                   || s[k] ~ /^gm_/))
    k--
  if (!real(s, k)) {
    print "unreal", weight, path
    bad++
  }
}

END { exit bad > 0 }
