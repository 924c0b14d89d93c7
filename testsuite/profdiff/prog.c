/* prog.c - the program whose profiles run-profdiff.py writes: a few
   functions that call each other; its addresses are all the test uses.  */
static volatile unsigned sink;

void tiny (void) { sink++; }
void leaf (void) { sink += 2; }
void cool (void) { tiny (); }
void warm (void) { cool (); }
void hot (void) { sink += 3; }

int
main (void)
{
  hot ();
  warm ();
  leaf ();
  return 0;
}
