/* gmon.h - the public interface of libgmon, the gprof profiling runtime.

   Programs compiled with -pg and linked with -lgmon (or run with
   LD_PRELOAD=libgmon.so) are profiled without calling anything here; a
   profile is written when the program exits.  These functions are for
   programs that want more control.  The first four have the same
   signatures as in glibc's <sys/gmon.h>, so both headers may be
   included together.  */

#ifndef LIBGMON_GMON_H
#define LIBGMON_GMON_H

#ifdef __cplusplus
extern "C" {
#endif

/* Start profiling the addresses [lowpc, highpc).  Programs linked with
   -pg (or with -lgmon) call it automatically at startup; later calls are
   ignored.  monstartup is the same function.  */
void __monstartup (unsigned long lowpc, unsigned long highpc);
void monstartup (unsigned long lowpc, unsigned long highpc);

/* Stop profiling and write the profile now.  Registered by the -pg
   startup code to run at exit; when it is called that way libgmon waits
   until the program's destructors have run, so that they are profiled
   too.  Later calls do nothing.  */
void _mcleanup (void);

/* mode 0: stop counting calls and sampling (in every thread);
   mode 1: resume.  */
void moncontrol (int mode);

/* Write the profile collected so far to filename, or to the name the
   program would use at exit when filename is NULL, without stopping.
   Returns 0, or -1 with errno set (EBUSY when called from a signal
   handler that interrupted libgmon itself, EINVAL when profiling was
   never started).  Async-signal-safe.  */
int libgmon_dump (const char *filename);

/* Zero every call count and histogram bin, e.g. after a warm-up phase.
   Counts of threads that run at the same moment may keep a few calls.
   Returns 0, or -1 with errno set as for libgmon_dump.
   Async-signal-safe.  */
int libgmon_reset (void);

#ifdef __cplusplus
}
#endif

#endif /* LIBGMON_GMON_H */
