//===- PyInt.h - Python int arithmetic on __int128 --------------*- C++ -*-===//
//
// Python's `//`, `%` and math.gcd on __int128, the stand-in for Python's
// unbounded ints in the symbolic engine (bounds, divides/gcd helpers, rule
// families). Header-only and free of MLIR and LLVM.
//
// floorDiv/floorMod round toward negative infinity (the remainder takes the
// sign of the divisor), unlike C++'s truncating `/` and `%`. The divisor must
// be nonzero (Python raises ZeroDivisionError; callers check first).
//
//===----------------------------------------------------------------------===//
#ifndef TINYGRAD_SUPPORT_PYINT_H
#define TINYGRAD_SUPPORT_PYINT_H

namespace mlir::tinygrad::pyint {

/// Python `a // b`.
inline __int128 floorDiv(__int128 a, __int128 b) {
  __int128 q = a / b;
  if ((a % b != 0) && ((a < 0) != (b < 0)))
    --q;
  return q;
}

/// Python `a % b`.
inline __int128 floorMod(__int128 a, __int128 b) { return a - floorDiv(a, b) * b; }

/// math.gcd(a, b): non-negative; gcd(0, 0) == 0.
inline __int128 gcd(__int128 a, __int128 b) {
  a = a < 0 ? -a : a;
  b = b < 0 ? -b : b;
  while (b) {
    __int128 t = a % b;
    a = b;
    b = t;
  }
  return a;
}

} // namespace mlir::tinygrad::pyint

#endif
