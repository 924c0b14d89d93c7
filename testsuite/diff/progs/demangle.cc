// demangle.cc - C++ names for the demangler: namespaces, templates,
// overloads, operators, constructors, virtual methods and a lambda.

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <vector>

static volatile unsigned long sink;

namespace geo
{
template <typename T> struct Vec
{
  T x, y;
  Vec (T a, T b) : x (a), y (b) {}
  T dot (const Vec &o) const
  {
    for (int i = 0; i < 20; i++)
      sink += (unsigned long) i;
    return x * o.x + y * o.y;
  }
  Vec operator+ (const Vec &o) const { return Vec (x + o.x, y + o.y); }
};

struct Shape
{
  virtual ~Shape () {}
  virtual double area () const = 0;
};

struct Square : Shape
{
  double side;
  explicit Square (double s) : side (s) {}
  double area () const override { return side * side; }
};

namespace detail
{
__attribute__ ((noinline)) int
area (int w, int h)
{
  return w * h;
}

__attribute__ ((noinline)) double
area (double r)
{
  for (int i = 0; i < 100; i++)
    sink += (unsigned long) i;
  return 3.0 * r * r;
}
} // namespace detail
} // namespace geo

template <typename T>
__attribute__ ((noinline)) T
accumulate_dots (const std::vector<geo::Vec<T> > &v)
{
  T s = 0;
  for (size_t i = 1; i < v.size (); i++)
    s += v[i].dot (v[i - 1]);
  return s;
}

int
main (int argc, char **argv)
{
  int rounds = argc > 1 ? std::atoi (argv[1]) : 1000;
  double total = 0;

  for (int r = 0; r < rounds; r++)
    {
      std::vector<geo::Vec<int> > vi;
      std::vector<geo::Vec<double> > vd;
      for (int i = 0; i < 100; i++)
        {
          vi.push_back (geo::Vec<int> (i, r) + geo::Vec<int> (1, 1));
          vd.push_back (geo::Vec<double> (i * 0.5, r * 0.25));
        }
      std::sort (vi.begin (), vi.end (),
                 [] (const geo::Vec<int> &a, const geo::Vec<int> &b) {
                   return a.x * 31 % 17 < b.x * 31 % 17;
                 });
      total += accumulate_dots (vi) + accumulate_dots (vd);
      geo::Square sq (r);
      const geo::Shape &s = sq;
      total += s.area () + geo::detail::area (r, 2) + geo::detail::area (0.5 * r);
    }
  std::printf ("%.0f\n", total);
  return 0;
}
