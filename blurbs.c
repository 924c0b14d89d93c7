/* blurbs.c - explanatory texts for the reports.  */

#include "config.h"
#include "blurbs.h"

#include <stdio.h>
#include "i18n.h"
#include "support/out.h"

void
blurb_flat (void)
{
  /* xgettext:no-c-format */
  out_str (_("\n"
" %          Share of all the samples taken that landed in this\n"
"time        function's own code.\n"
"\n"
"cumulative  Running total: the self seconds of this row and of every\n"
" seconds    row above it.\n"
"\n"
" self       Time spent in the function's own code, without the\n"
"seconds     functions it calls.  Rows are sorted on this column.\n"
"\n"
"calls       Number of times the function was called.  Empty when the\n"
"            program recorded no calls of it (compiled without -pg).\n"
"\n"
" self       Average self time of one call, in the unit the heading\n"
"X/call      names (s, ms, us, ...).\n"
"\n"
" total      Average time of one call including everything it called\n"
"X/call      (its share of its callees' time), in the same unit.\n"
"\n"
"name        The function.  Equal times are ordered by calls, then by\n"
"            name.  A number in brackets is the function's entry in\n"
"            the call graph; a number in parentheses tells where the\n"
"            entry would stand had it been printed.\n"));
}

void
blurb_call_graph (void)
{
  /* xgettext:no-c-format */
  out_str (_("\n"
"How to read the call graph\n"
"\n"
"The graph has one entry per function, between dashed lines, ordered\n"
"by the time spent in the function and its callees.  In each entry the\n"
"line that starts with [N] is the function itself.  The lines above it\n"
"are its callers and the lines below it the functions it calls.\n"
"\n"
"On the function's own line:\n"
"  index     the entry number, used to refer to the function elsewhere.\n"
"  % time    share of the total time spent in the function and its\n"
"            callees.\n"
"  self      seconds spent in the function's own code.\n"
"  children  seconds spent in its callees on its behalf.\n"
"  called    times it was called; \"+N\" adds its calls to itself.\n"
"  name      the function, its cycle if it is in one, and its index.\n"
"\n"
"On a caller's line:\n"
"  self      the part of the function's self time charged to this\n"
"            caller, in proportion to the calls it made.\n"
"  children  the part of the callees' time charged the same way.\n"
"  called    calls from this caller / all calls of the function, not\n"
"            counting calls to itself.\n"
"  A function with no known caller shows <spontaneous>.\n"
"\n"
"On a callee's line:\n"
"  self      the callee's self time charged to this function.\n"
"  children  the callee's children time charged to this function.\n"
"  called    calls made by this function / all calls of the callee.\n"
"\n"
"Functions that call each other in a loop form a cycle.  The cycle gets\n"
"an entry of its own (\"<cycle N as a whole>\") listing its members, and\n"
"time moves between members without being charged to one another.\n"
"The figures rest on one assumption: every call of a function takes\n"
"the same time, whoever makes it.\n"));
}

void
blurb_call_graph_bsd (void)
{
  /* xgettext:no-c-format */
  out_str (_("\n\n\n"
"call graph profile:\n"
"The graph has one entry per function, between dashed lines, ordered\n"
"by the time spent in the function and its descendants.  In each entry\n"
"the line that starts with [N] is the function itself; its callers are\n"
"above it and its callees below it.\n"
"\n"
"On the function's own line:\n"
"  index        the entry number.\n"
"  %time        share of the total time spent in the function and its\n"
"               descendants.\n"
"  self         seconds spent in its own code.\n"
"  descendants  seconds spent in its callees on its behalf.\n"
"  called+self  calls from others, then calls to itself.\n"
"  name, index  the function, its cycle if any, and its index.\n"
"\n"
"On the caller and callee lines, self and descendants are the shares of\n"
"time that move along that arc, in proportion to the calls it carries,\n"
"and called/total counts the calls on the arc against all the calls of\n"
"the function called.  A function with no known caller shows\n"
"<spontaneous>.  Functions that call each other in a loop form a cycle,\n"
"which gets an entry of its own listing its members.\n"
"\n"
"\n"));
}
