/* i18n.h - message translation.  Every user-visible message goes through
   _() (or ngettext, for a message with a count in it) so that po/ can
   translate it.  */

#ifndef GPROF_I18N_H
#define GPROF_I18N_H

#ifdef ENABLE_NLS
#include <libintl.h>
#define _(s) gettext (s)
#else
#define _(s) (s)
#define ngettext(s, p, n) ((n) == 1 ? (s) : (p))
#endif
#define N_(s) (s)

#endif
