/* prog.c - the program of the --whole-process tests: main calls xf in
   libx.so, which calls xg, which calls back cb here.  */

volatile int sink;

int xf (int n);

int
cb (int x)
{
  return x + sink;
}

int
main (int argc, char **argv)
{
  (void) argv;
  return xf (argc) & 1;
}
