// prog.cc - the program the export tests profile.  It has what the
// exports must cope with: long C++ names (templates, namespaces, an
// operator), functions named as dot keywords, a cycle, a recursive
// function, a diamond (two callers of one leaf), a function whose lines
// weigh differently and a long call chain.
#include <map>
#include <string>
#include <vector>

static volatile unsigned long sink;

// The work, done in each function itself so that each has time of its
// own: about N times a nanosecond.
#define WORK(n) \
  for (unsigned long i_ = 0; i_ < (n); i_++) \
    sink = sink + i_ * 7

namespace geometry
{
template <typename T> struct Matrix
{
  unsigned long multiply (const std::map<std::string, std::vector<T> > &m,
                          unsigned long n)
  {
    WORK (n);
    return m.size ();
  }
};

struct Vec
{
  unsigned long x;
  Vec operator+ (const Vec &o) const
  {
    WORK (o.x);
    return Vec{ x + o.x };
  }
};
}

// Named as dot's keywords: a dot file must quote them.
extern "C" void node (unsigned long n) { WORK (n); }
extern "C" void edge (unsigned long n) { WORK (n); node (n / 2); }
extern "C" void graph (unsigned long n) { WORK (n / 4); edge (n); }

// A cycle: is_even and is_odd call each other.
static bool is_odd (unsigned n);
static bool
is_even (unsigned n)
{
  WORK (200000);
  return n == 0 ? true : is_odd (n - 1);
}
static bool
is_odd (unsigned n)
{
  WORK (100000);
  return n == 0 ? false : is_even (n - 1);
}

static unsigned long
fib (unsigned n)
{
  WORK (3000);
  return n < 2 ? n : fib (n - 1) + fib (n - 2);
}

// A diamond: left and right both call shared_leaf.  Its lines weigh
// 3:2:1, for the line-by-line views (-l).
static void
shared_leaf (unsigned long n)
{
  WORK (n / 2);
  WORK (n / 3);
  WORK (n / 6);
}
static void left (void) { shared_leaf (3000000); }
static void right (void) { shared_leaf (6000000); }

static void level6 (void) { WORK (4000000); }
static void level5 (void) { level6 (); }
static void level4 (void) { level5 (); }
static void level3 (void) { WORK (1000000); level4 (); }
static void level2 (void) { level3 (); }
static void level1 (void) { level2 (); }

int
main (void)
{
  std::map<std::string, std::vector<double> > m;
  geometry::Matrix<double> mat;
  geometry::Vec v{ 1 }, w{ 2000000 };

  m["a"].push_back (1.0);
  for (int i = 0; i < 60; i++)
    {
      mat.multiply (m, 1500000);
      v = v + w;
      graph (1000000);
      is_even (60);
      left ();
      right ();
      level1 ();
    }
  fib (18);
  return 0;
}
