/* diff/diff.c - gprof --diff: the functions of two analysed runs matched
   by name, their call counts compared exactly and their times against
   the sampling error of both sides (see diff.h).  */

#include "config.h"
#include "diff/diff.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "export/internal.h"
#include "gprof.h"
#include "i18n.h"
#include "support/alloc.h"
#include "support/error.h"
#include "support/out.h"

/* ---- matching ----------------------------------------------------------- */

typedef struct Side
{
  const char *name;
  double samples;
  unsigned long calls, self_calls;
  uint32_t order;         /* the node's place: ties among equal names */
} Side;

static int
cmp_side (const void *a, const void *b)
{
  const Side *x = a, *y = b;
  int c = strcmp (x->name, y->name);

  if (c)
    return c;
  return (x->order > y->order) - (x->order < y->order);
}

/* The functions of M that have samples or calls, sorted by name.  */
static Side *
collect (const Model *m, size_t *n)
{
  Side *s = gp_reallocarray (NULL, m->nnodes ? m->nnodes : 1, sizeof *s);
  size_t k = 0;

  for (uint32_t v = 0; v < m->nnodes; v++)
    {
      const ExNode *node = &m->node[v];

      if (node->self <= 0 && node->calls == 0 && node->self_calls == 0)
        continue;
      s[k].name = node->name;
      s[k].samples = node->self;
      s[k].calls = node->calls;
      s[k].self_calls = node->self_calls;
      s[k].order = v;
      k++;
    }
  qsort (s, k, sizeof *s, cmp_side);
  *n = k;
  return s;
}

/* ---- statistics --------------------------------------------------------- */

double
diff_z_of (double p)
{
  double lo = 0, hi = 40;

  gp_assert (p > 0 && p < 1);
  /* P(|Z| <= z) = 1 - erfc (z / sqrt 2) grows with z: bisect.  */
  for (int i = 0; i < 200; i++)
    {
      double mid = (lo + hi) / 2;

      if (1 - erfc (mid / M_SQRT2) < p)
        lo = mid;
      else
        hi = mid;
    }
  return (lo + hi) / 2;
}

/* Seconds per sample of RUN, or 0 without a histogram.  */
static double
period_of (const Run *run)
{
  return (run->gmon_input & INPUT_HISTOGRAM) && run->hist.hz > 0
           ? 1.0 / run->hist.hz : 0;
}

static void
set_times (DiffFn *f, double p_old, double p_new)
{
  f->old_s = f->old_samples * p_old;
  f->new_s = f->new_samples * p_new;
  f->change_s = f->new_s - f->old_s;
  f->change_pct = f->old_s > 0 ? 100 * f->change_s / f->old_s
                  : f->change_s > 0 ? INFINITY : 0;
}

/* Significant first, then by the size of the change, then by name.  */
static int
cmp_fn (const void *a, const void *b)
{
  const DiffFn *x = a, *y = b;
  double ax = fabs (x->change_s), ay = fabs (y->change_s);

  if (x->significant != y->significant)
    return x->significant ? -1 : 1;
  if (ax != ay)
    return ax > ay ? -1 : 1;
  return strcmp (x->name, y->name);
}

void
diff_compute (Diff *d, Run *old, Run *new_run, double level)
{
  Model mo, mn;
  size_t no, nn, i = 0, j = 0;
  double p_old = period_of (old), p_new = period_of (new_run);
  double d_old = old->hist.dispersion, d_new = new_run->hist.dispersion;

  memset (d, 0, sizeof *d);
  model_build (&mo, old);
  model_build (&mn, new_run);
  Side *so = collect (&mo, &no), *sn = collect (&mn, &nn);

  d->fn = gp_calloc (no + nn + 1, sizeof *d->fn);
  while (i < no || j < nn)
    {
      int c = i == no ? 1 : j == nn ? -1 : strcmp (so[i].name, sn[j].name);
      DiffFn *f = &d->fn[d->n++];

      if (c <= 0)
        {
          f->name = so[i].name;
          f->in_old = true;
          f->old_samples = so[i].samples;
          f->old_calls = so[i].calls;
          f->old_self_calls = so[i].self_calls;
          i++;
        }
      if (c >= 0)
        {
          f->name = sn[j].name;
          f->in_new = true;
          f->new_samples = sn[j].samples;
          f->new_calls = sn[j].calls;
          f->new_self_calls = sn[j].self_calls;
          j++;
        }
      set_times (f, p_old, p_new);
      if (f->old_samples > 0 || f->new_samples > 0)
        d->ntimed++;
      d->old_total_s += f->old_s;
      d->new_total_s += f->new_s;
    }
  free (so);
  free (sn);

  d->level = level;
  d->timed = p_old > 0 && p_new > 0;
  /* Bonferroni: every interval at 1 - alpha / m, so that all of them
     together hold with the chosen confidence.  */
  double alpha = 1 - level / 100;
  d->z = diff_z_of (1 - alpha / (double) (d->ntimed ? d->ntimed : 1));
  for (size_t k = 0; k < d->n && d->timed; k++)
    {
      DiffFn *f = &d->fn[k];
      /* Var of a count of n samples is n times the dispersion (1 unless
         the samples come in clumps); of the seconds, that times the
         period squared.  A side without samples still had a chance of
         one.  */
      double var = fmax (f->old_samples, 1) * d_old * p_old * p_old
                   + fmax (f->new_samples, 1) * d_new * p_new * p_new;

      f->error_s = d->z * sqrt (var);
      f->significant = (f->old_samples > 0 || f->new_samples > 0)
                       && fabs (f->change_s) > f->error_s;
    }
  qsort (d->fn, d->n, sizeof *d->fn, cmp_fn);
  /* The names point into the models' runs, which outlive the diff.  */
  model_free (&mo);
  model_free (&mn);
}

void
diff_free (Diff *d)
{
  free (d->fn);
  memset (d, 0, sizeof *d);
}

static bool
calls_changed (const DiffFn *f)
{
  return f->old_calls != f->new_calls || f->old_self_calls != f->new_self_calls;
}

/* ---- text ----------------------------------------------------------------- */

static void
print_side (const char *label, const Run *run)
{
  out_printf ("  %s: %s", label, run->opt.profiles[0]);
  for (size_t i = 1; i < run->opt.nprofiles; i++)
    out_printf (" + %s", run->opt.profiles[i]);
  out_printf (_(" (executable %s)"), run->opt.image);
  if (period_of (run) > 0)
    out_printf (_(", %u samples a second"), run->hist.hz);
  out_printf ("\n");
}

static void
print_percent (double pct)
{
  if (isinf (pct))
    out_printf ("%9s", _("new"));
  else
    out_printf ("%+8.1f%%", pct);
}

static void
print_times (const Diff *d)
{
  size_t shown = 0, faster = 0, slower = 0;

  out_printf (_("\nTime.  Each function's own time is a count of samples, known "
                "to about\nthe square root of that count.  A change is "
                "significant (*) when its\ninterval (+/-) leaves out zero; the "
                "intervals hold at %g%% for all %zu\nfunctions with samples "
                "together.\n\n"), d->level, d->ntimed);
  out_printf ("%10s %10s %10s %9s %9s    %s\n", _("old s"), _("new s"),
              _("change s"), _("+/- s"), _("change"), _("name"));
  for (size_t k = 0; k < d->n; k++)
    {
      const DiffFn *f = &d->fn[k];

      if (f->old_samples <= 0 && f->new_samples <= 0)
        continue;
      out_printf ("%10.3f %10.3f %+10.3f %9.3f ", f->old_s, f->new_s,
                  f->change_s, f->error_s);
      print_percent (f->change_pct);
      out_printf (" %s %s\n", f->significant ? "*" : " ", f->name);
      shown++;
      if (f->significant)
        {
          if (f->change_s > 0)
            slower++;
          else
            faster++;
        }
    }
  if (shown == 0)
    out_printf (_("  (no function has samples in either profile)\n"));
  out_printf (_("\n%zu significantly slower, %zu significantly faster.\n"
                "All functions together: %.3f s before, %.3f s after.\n"),
              slower, faster, d->old_total_s, d->new_total_s);
}

/* "N", or "N+R" when recursive calls are shown.  */
static const char *
calls_text (char *buf, size_t cap, unsigned long calls,
            unsigned long self_calls, bool recursive)
{
  if (recursive)
    snprintf (buf, cap, "%lu+%lu", calls, self_calls);
  else
    snprintf (buf, cap, "%lu", calls);
  return buf;
}

static void
print_calls (const Diff *d)
{
  size_t changed = 0;

  out_printf (_("\nCalls.  Counts are exact: every change below is a change "
                "in what the\nprogram did, not noise.  Recursive calls follow "
                "a \"+\".\n\n"));
  for (size_t k = 0; k < d->n; k++)
    {
      const DiffFn *f = &d->fn[k];
      bool recursive = f->old_self_calls || f->new_self_calls;
      char before[48], after[48];
      long long change = (long long) (f->new_calls + f->new_self_calls)
                         - (long long) (f->old_calls + f->old_self_calls);

      if (!calls_changed (f))
        continue;
      if (changed++ == 0)
        out_printf ("%21s %21s %12s    %s\n", _("old calls"), _("new calls"),
                    _("change"), _("name"));
      out_printf ("%21s %21s %+12lld    %s\n",
                  calls_text (before, sizeof before, f->old_calls,
                              f->old_self_calls, recursive),
                  calls_text (after, sizeof after, f->new_calls,
                              f->new_self_calls, recursive),
                  change, f->name);
    }
  if (changed == 0)
    out_printf (_("  No call count changed.\n"));
}

static void
print_only (const Diff *d, bool in_old)
{
  size_t n = 0;

  for (size_t k = 0; k < d->n; k++)
    {
      const DiffFn *f = &d->fn[k];

      if (in_old ? f->in_new || !f->in_old : f->in_old || !f->in_new)
        continue;
      if (n++ == 0)
        out_printf (in_old ? _("\nOnly in the old profile:")
                           : _("\nOnly in the new profile:"));
      out_printf (" %s", f->name);
    }
  if (n)
    out_printf ("\n");
}

static void
print_text (const Diff *d, const Run *old, const Run *new_run)
{
  out_printf (_("Comparison of two profiles\n"));
  print_side (_("old"), old);
  print_side (_("new"), new_run);
  if (d->timed)
    print_times (d);
  else
    out_printf (_("\nTime: not compared, as %s has no histogram.\n"),
                period_of (old) > 0 ? _("the new profile")
                                    : _("the old profile"));
  print_calls (d);
  print_only (d, true);
  print_only (d, false);
}

/* ---- json and html ------------------------------------------------------ */

static void
json_side (const char *key, const Run *run, double total_s)
{
  out_printf (",\"%s\":{\"profiles\":[", key);
  for (size_t i = 0; i < run->opt.nprofiles; i++)
    {
      if (i)
        out_str (",");
      ex_json_string (run->opt.profiles[i], false);
    }
  out_str ("],\"executable\":");
  ex_json_string (run->opt.image, false);
  out_str (",\"samples_per_second\":");
  ex_json_uint (period_of (run) > 0 ? run->hist.hz : 0);
  out_str (",\"seconds\":");
  ex_json_number (total_s);
  out_str ("}");
}

/* ,"KEY":V for the fields of an object that has begun.  */
static void
json_number (const char *key, double v)
{
  out_printf (",\"%s\":", key);
  ex_json_number (v);
}

static void
json_uint (const char *key, uint64_t v)
{
  out_printf (",\"%s\":", key);
  ex_json_uint (v);
}

static void
json_bool (const char *key, bool v)
{
  out_printf (",\"%s\":%s", key, v ? "true" : "false");
}

static void
print_json (const Diff *d, const Run *old, const Run *new_run)
{
  out_str ("{\"format\":\"gprof-diff\",\"version\":1,\"creator\":\""
           PACKAGE_STRING "\"");
  json_side ("old", old, d->old_total_s);
  json_side ("new", new_run, d->new_total_s);
  json_bool ("times_compared", d->timed);
  json_number ("level_percent", d->level);
  json_uint ("functions_with_samples", d->ntimed);
  out_str (",\"functions\":[");
  for (size_t k = 0; k < d->n; k++)
    {
      const DiffFn *f = &d->fn[k];

      out_str (k ? ",\n{\"name\":" : "\n{\"name\":");
      ex_json_string (f->name, false);
      json_bool ("in_old", f->in_old);
      json_bool ("in_new", f->in_new);
      json_number ("old_seconds", f->old_s);
      json_number ("new_seconds", f->new_s);
      json_number ("change_seconds", f->change_s);
      json_number ("error_seconds", f->error_s);
      /* null when the old time is 0 (ex_json_number writes no inf).  */
      json_number ("change_percent", f->change_pct);
      json_bool ("significant", f->significant);
      json_uint ("old_calls", f->old_calls);
      json_uint ("new_calls", f->new_calls);
      json_uint ("old_recursive_calls", f->old_self_calls);
      json_uint ("new_recursive_calls", f->new_self_calls);
      out_str ("}");
    }
  out_str ("\n]}\n");
}

static void
html_cell (const char *cls, const char *fmt, double v)
{
  out_printf ("<td class=\"%s\">", cls);
  out_printf (fmt, v);
  out_str ("</td>");
}

static void
print_html (const Diff *d, const Run *old, const Run *new_run)
{
  out_str ("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
           "<title>gprof --diff</title><style>\n"
           "body{font:14px system-ui,sans-serif;margin:20px;color:#222}\n"
           "table{border-collapse:collapse}td,th{padding:2px 10px;"
           "text-align:right}td.name,th.name{text-align:left;"
           "font-family:monospace}\ntr.slower{background:#fde0dc}"
           "tr.faster{background:#dcf5e0}tr:hover{outline:1px solid #888}\n"
           "</style></head><body>\n<h1>Comparison of two profiles</h1>\n<p>old: ");
  ex_html_text (old->opt.profiles[0]);
  out_str (", new: ");
  ex_html_text (new_run->opt.profiles[0]);
  out_str (", executable ");
  ex_html_text (new_run->opt.image);
  out_str (".</p>\n");
  if (d->timed)
    {
      out_printf ("<h2>Time</h2>\n<p>A change is significant (marked, and "
                  "coloured) when its interval leaves out zero; the intervals "
                  "hold at %g%% for all %zu functions with samples together."
                  "</p>\n<table><tr><th>old s</th><th>new s</th><th>change s"
                  "</th><th>&plusmn; s</th><th>change</th><th></th>"
                  "<th class=\"name\">name</th></tr>\n", d->level, d->ntimed);
      for (size_t k = 0; k < d->n; k++)
        {
          const DiffFn *f = &d->fn[k];

          if (f->old_samples <= 0 && f->new_samples <= 0)
            continue;
          out_printf ("<tr class=\"%s\">", !f->significant ? "same"
                      : f->change_s > 0 ? "slower" : "faster");
          html_cell ("t", "%.3f", f->old_s);
          html_cell ("t", "%.3f", f->new_s);
          html_cell ("t", "%+.3f", f->change_s);
          html_cell ("t", "%.3f", f->error_s);
          if (isinf (f->change_pct))
            out_str ("<td>new</td>");
          else
            html_cell ("t", "%+.1f%%", f->change_pct);
          out_printf ("<td>%s</td><td class=\"name\">", f->significant ? "*" : "");
          ex_html_text (f->name);
          out_str ("</td></tr>\n");
        }
      out_str ("</table>\n");
    }
  out_str ("<h2>Calls</h2>\n<p>Counts are exact: every change is a change in "
           "what the program did.</p>\n<table><tr><th>old calls</th>"
           "<th>new calls</th><th>change</th><th class=\"name\">name</th>"
           "</tr>\n");
  for (size_t k = 0; k < d->n; k++)
    {
      const DiffFn *f = &d->fn[k];

      if (!calls_changed (f))
        continue;
      out_printf ("<tr><td>%lu+%lu</td><td>%lu+%lu</td><td>%+lld</td>"
                  "<td class=\"name\">", f->old_calls, f->old_self_calls,
                  f->new_calls, f->new_self_calls,
                  (long long) (f->new_calls + f->new_self_calls)
                    - (long long) (f->old_calls + f->old_self_calls));
      ex_html_text (f->name);
      out_str ("</td></tr>\n");
    }
  out_str ("</table>\n</body></html>\n");
}

/* ---- the comparison's result --------------------------------------------- */

/* Did some function's time grow significantly by more than PCT percent?  */
static bool
regressed (const Diff *d, double pct)
{
  for (size_t k = 0; k < d->n; k++)
    if (d->fn[k].significant && d->fn[k].change_s > 0
        && d->fn[k].change_pct > pct)
      return true;
  return false;
}

int
diff_print (Run *old, Run *new_run)
{
  const Options *opt = &new_run->opt;
  const char *format = opt->export_format;
  Diff d;
  int status;

  diff_compute (&d, old, new_run, opt->diff_level);
  if (format && strcmp (format, "json") == 0)
    print_json (&d, old, new_run);
  else if (format && strcmp (format, "html") == 0)
    print_html (&d, old, new_run);
  else
    print_text (&d, old, new_run);
  status = opt->diff_threshold >= 0 && regressed (&d, opt->diff_threshold);
  diff_free (&d);
  return status;
}
