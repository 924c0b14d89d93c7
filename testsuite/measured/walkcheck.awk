# walkcheck.awk - the call stacks walkread printed, against the
# program's functions and the chains of calls it really makes:
#
#   awk -f walkcheck.awk CHAINS SYMBOLS OWN STACKS
#
# CHAINS: one chain of calls the program makes a line, outermost
# function first.  SYMBOLS: nm -n -S --synthetic --defined-only of the
# program.  OWN: the names of the test program's own functions, a line
# each.  STACKS: walkread's output.
#
# A frame is named by the function that holds it: the innermost (the
# sampled PC) by its address, the others (return addresses) by the byte
# before, the call's.  A function nm gives no size (PLT stubs, the crt
# files' code) ends where the next symbol starts; such a symbol inside a
# function is a label of it.  The stack's frames in
# the program's own functions must appear in this order in a chain; the
# other code (crt, libgcc, libgmon, PLT stubs, i386's get_pc_thunk),
# which libc or the own functions call, may only end a stack.
#
# Prints each stack as "stack WEIGHT f;g;h", outermost first, and each
# bad one again as
#   outside WEIGHT ADDR...  a frame lies in no function of the program
#   unreal WEIGHT f;g;h     the stack is not a subsequence of any chain:
#                           the walk made up or reordered frames
# Exits 1 when a stack is bad.

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
  if ($(NF - 1) !~ /^[TtWw]$/)
    next
  lo = hex($1)
  size = NF == 4 ? hex($2) : 0
  # A label inside a function (i386's jump tables keep some) is not one.
  if (size == 0 && nsym > 0 && lo < sym_hi[nsym])
    next
  # Aliases share an address: keep the widest.
  if (nsym > 0 && sym_lo[nsym] == lo) {
    if (lo + size > sym_hi[nsym])
      sym_hi[nsym] = lo + size
    next
  }
  if (nsym > 0 && sym_hi[nsym] == sym_lo[nsym])
    sym_hi[nsym] = lo
  sym_lo[++nsym] = lo
  sym_hi[nsym] = lo + size
  sym_name[nsym] = $NF
  next
}

FILENAME == ARGV[3] {
  own[$1] = 1
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
  while (k > 0 && !(s[k] in own))
    k--
  if (!real(s, k)) {
    print "unreal", weight, path
    bad++
  }
}

END { exit bad > 0 }
