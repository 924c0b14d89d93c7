/* support/error.h - messages, the end of a run on an error, and the
   code's contracts.  */

#ifndef GPROF_SUPPORT_ERROR_H
#define GPROF_SUPPORT_ERROR_H

/* The program name used as the prefix of messages: argv[0], as given.
   Set once in main; a global because nearly every diagnostic needs it.  */
extern const char *whoami;

/* Print a message to stderr and exit with gp_failure_status.  The format carries
   its own prefix (most messages start with whoami, some with a file
   name), exactly as GNU gprof words them.  */
void gp_die (const char *fmt, ...)
  __attribute__ ((noreturn, format (printf, 1, 2)));

/* The exit status of a run that fails: 1, as GNU gprof's, or 2 under
   --diff-threshold, whose status 1 means a regression.  */
extern int gp_failure_status;
void gp_exit_failure (void) __attribute__ ((noreturn));

/* The code's contracts.  Checked when configured with
   --enable-assertions (the sanitizer build and tools/setup check do),
   compiled out otherwise: COND must have no side effects.  A failure
   names the contract and where it is, and aborts.  */
#ifdef GP_ASSERTIONS
# define gp_assert(cond) \
  ((cond) ? (void) 0 : gp_assert_fail (#cond, __FILE__, __LINE__, __func__))
#else
# define gp_assert(cond) ((void) sizeof ((cond) ? 1 : 0))
#endif
void gp_assert_fail (const char *cond, const char *file, int line,
                     const char *func) __attribute__ ((noreturn));

/* Print a warning to stderr and go on.  */
void gp_warn (const char *fmt, ...) __attribute__ ((format (printf, 1, 2)));

#endif
