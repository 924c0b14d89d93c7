/* support/msort.h - the one sort every report uses.

   GNU gprof sorts with the C library's qsort, which in glibc 2.36 is a
   top-down merge sort.  Several of gprof's comparators are not consistent
   orderings, so byte-identical reports need that exact algorithm, not
   just any stable sort.  This is it, independent of the C library.  */

#ifndef GPROF_SUPPORT_MSORT_H
#define GPROF_SUPPORT_MSORT_H

#include <stddef.h>
#include <stdint.h>

/* Compares two elements of the array (the pointers themselves).  */
typedef int (*msort_cmp) (const void *a, const void *b, void *ctx);

/* Sort an array of N pointers: split at N/2 (the left half is the
   smaller), sort both halves, merge taking from the left run whenever
   cmp (left, right) <= 0.  */
void msort_ptrs (void **v, size_t n, msort_cmp cmp, void *ctx);

/* msort_ptrs's order, for a CMP that orders V[i] by the numbers HI[i],
   then LO[i] (LO may be NULL), before anything else: a radix sort on the
   numbers, then msort_ptrs within each run of equal numbers.  */
void msort_ranked (void **v, const uint64_t *hi, const uint64_t *lo,
                   size_t n, msort_cmp cmp, void *ctx);

/* A number for X that orders as X does, most first: equal numbers (0
   and -0 too) get equal ones.  Not for NaN.  */
uint64_t rank_descending (double x);

/* A stable sort for comparators that are consistent orderings, where
   every stable sort gives the merge sort's result: insertion sort for
   short arrays (the callers and callees of one function), msort_ptrs
   for long ones.  */
void sort_stable_ptrs (void **v, size_t n, msort_cmp cmp, void *ctx);

/* Sort the N numbers at KEY ascending, stably, and PAYLOAD (N values,
   or NULL) along with them: an LSD radix sort, 8 or 16 bits a pass, that
   skips the digits in which no two keys differ.  For orders by a number
   (then by position) that qsort with a comparator takes n log n calls
   for.  */
void radix_sort_u64 (uint64_t *key, size_t *payload, size_t n);

/* The N records of SIZE bytes at BASE put in the order of their numbers
   KEY[0 .. N - 1] (radix_sort_u64's: ascending, stable); KEY is left
   sorted with them.  */
void radix_sort_records (void *base, size_t n, size_t size, uint64_t *key);

#endif
