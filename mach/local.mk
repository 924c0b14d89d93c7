## mach/local.mk - the analyzer's instruction-set scanners for -c.

libgprof_a_SOURCES += \
	mach/mach.h mach/find_call.c \
	mach/i386.c mach/x86_insn.h mach/x86_insn.c \
	mach/aarch64.c mach/mips.c \
	mach/sparc.c mach/alpha.c
