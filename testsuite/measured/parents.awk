# parents.awk - from a call graph (gprof -b -q), the callers of the
# function named by -v callee: one line "caller time calls" each, time
# being the arc's self plus children seconds; cycle members' entries
# too.
/^-----/ { n = 0; primary = 0; next }
/^\[[0-9]+\]/ {
  line = $0
  sub(/ +\[[0-9]+\]$/, "", line)
  sub(/ +<cycle [0-9]+>$/, "", line)
  m = split(line, f, " ")
  if (f[m] == callee)
    for (i = 1; i <= n; i++)
      print p[i]
  primary = 1
  next
}
!primary && NF >= 4 && $3 ~ /\// {
  split($3, c, "/")
  p[++n] = $4 " " ($1 + $2) " " c[1]
}
