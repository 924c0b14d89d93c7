/* blurbs.h - the explanations printed after (or, with -T, before) the
   reports unless -b is given.  Our own words; GNU gprof prints its own
   texts in the same places.  */

#ifndef GPROF_BLURBS_H
#define GPROF_BLURBS_H

void blurb_flat (void);
void blurb_call_graph (void);
void blurb_call_graph_bsd (void);

#endif
