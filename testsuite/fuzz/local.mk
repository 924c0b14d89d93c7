## testsuite/fuzz/local.mk - libFuzzer targets for every reader of gprof's
## inputs (included by testsuite/local.mk); see doc/robustness.md.
##
## `make fuzz` builds them in testsuite/fuzz/ with clang (libFuzzer comes
## with Debian's libclang-rt-14-dev), whatever compiler the rest of the
## build uses: the analyzer's sources are compiled once more, with
## coverage for libFuzzer and both sanitizers, into testsuite/fuzz/obj.
## testsuite/fuzz/run-fuzz.sh runs them.
##
## Each target drives gprof's own stages through fuzz.c.  The --wrap
## options route exit() back to the harness and let it release what a run
## left allocated or open; libiberty comes first so that its allocations
## are the static library's, which the wrapping sees, not libbfd's copy.

FUZZ_CC = clang
FUZZ_FLAGS = -g -O2 -fno-omit-frame-pointer \
	-fsanitize=address,undefined -fno-sanitize-recover=all
FUZZ_NAMES = gmon symfile map options atfile core side
FUZZ_TARGETS = $(FUZZ_NAMES:%=testsuite/fuzz/fuzz_%)
FUZZ_OBJ = testsuite/fuzz/obj
FUZZ_LIB = $(FUZZ_OBJ)/libgprof.a
FUZZ_LIB_OBJS = $(patsubst %.c,$(FUZZ_OBJ)/%.o,$(filter %.c,$(libgprof_a_SOURCES)))
# Any header may change a structure's layout: every object depends on all.
FUZZ_DEPS = config.h $(addprefix $(srcdir)/,$(filter %.h,$(libgprof_a_SOURCES))) \
	$(srcdir)/testsuite/fuzz/fuzz.h
FUZZ_COMPILE = $(FUZZ_CC) $(DEFS) $(DEFAULT_INCLUDES) $(AM_CPPFLAGS) \
	-I$(srcdir)/testsuite/fuzz $(FUZZ_FLAGS) -fsanitize=fuzzer-no-link
FUZZ_WRAP = -Wl,--wrap=exit,--wrap=malloc,--wrap=calloc \
	-Wl,--wrap=realloc,--wrap=free,--wrap=strdup,--wrap=strndup \
	-Wl,--wrap=fopen,--wrap=fdopen,--wrap=fclose \
	-Wl,--wrap=bfd_openr,--wrap=bfd_close,--wrap=elf_begin,--wrap=elf_end \
	-Wl,--wrap=dwarf_begin_elf,--wrap=dwarf_end
FUZZ_LINKWITH = $(IBERTY_LIBS) $(BFD_LIBS) $(ELF_LIBS) \
	$(PPROF_LIBS) $(LIBINTL) -lm

fuzz: $(FUZZ_TARGETS)
.PHONY: fuzz
# Kept, though only pattern rules name them.
.SECONDARY: $(FUZZ_NAMES:%=$(FUZZ_OBJ)/testsuite/fuzz/fuzz_%.o)

$(FUZZ_OBJ)/%.o: $(srcdir)/%.c $(FUZZ_DEPS)
	@$(MKDIR_P) $(@D)
	$(AM_V_CC)$(FUZZ_COMPILE) -c -o $@ $<
# The harness takes gprof.c in whole.
$(FUZZ_OBJ)/testsuite/fuzz/fuzz.o: $(srcdir)/gprof.c
$(FUZZ_LIB): $(FUZZ_LIB_OBJS)
	$(AM_V_AR)rm -f $@ && $(AR) cr $@ $(FUZZ_LIB_OBJS)
testsuite/fuzz/fuzz_%: $(FUZZ_OBJ)/testsuite/fuzz/fuzz_%.o \
		$(FUZZ_OBJ)/testsuite/fuzz/fuzz.o $(FUZZ_LIB)
	$(AM_V_CCLD)$(FUZZ_CC) $(FUZZ_FLAGS) -fsanitize=fuzzer $(FUZZ_WRAP) \
	  -o $@ $< $(FUZZ_OBJ)/testsuite/fuzz/fuzz.o $(FUZZ_LIB) $(FUZZ_LINKWITH)

clean-local: clean-fuzz
clean-fuzz:
	rm -rf $(FUZZ_OBJ) $(FUZZ_TARGETS)
.PHONY: clean-fuzz

EXTRA_DIST += \
	testsuite/fuzz/fuzz.c testsuite/fuzz/fuzz.h \
	$(FUZZ_NAMES:%=testsuite/fuzz/fuzz_%.c) \
	testsuite/fuzz/run-fuzz.sh testsuite/fuzz/fixtures.sh \
	testsuite/fuzz/options.dict testsuite/fuzz/core.dict testsuite/fuzz/seeds \
	testsuite/fuzz/dwarf_seed.c
