//===- HostSymbols.cpp - externals a loaded kernel may call ---------------===//
//
// Kernels are freestanding, but the compiler still emits calls to libm
// (expf, ...), to compiler-rt/libgcc builtins (half and 128-bit integer
// conversions) and to mem*. Only the names listed here are resolved, from
// the host process (dlsym), then from libm / libgcc_s, then from the few
// fallbacks this file defines for builtins an older libgcc lacks.
//
//===----------------------------------------------------------------------===//

#include "ElfLoader.h"

#include <dlfcn.h>

#include <cmath>
#include <cstdint>
#include <cstring>

namespace {

// clang-format off
const char *const kAllowed[] = {
  // libm, float and double
  "expf", "exp", "exp2f", "exp2", "expm1f", "expm1", "logf", "log", "log2f", "log2",
  "log10f", "log10", "log1pf", "log1p", "sinf", "sin", "cosf", "cos", "tanf", "tan",
  "sincosf", "sincos", "asinf", "asin", "acosf", "acos", "atanf", "atan", "atan2f", "atan2",
  "sinhf", "sinh", "coshf", "cosh", "tanhf", "tanh", "asinhf", "asinh", "acoshf", "acosh",
  "atanhf", "atanh", "powf", "pow", "sqrtf", "sqrt", "cbrtf", "cbrt", "hypotf", "hypot",
  "fmodf", "fmod", "remainderf", "remainder", "floorf", "floor", "ceilf", "ceil",
  "truncf", "trunc", "roundf", "round", "rintf", "rint", "nearbyintf", "nearbyint",
  "fabsf", "fabs", "fmaf", "fma", "fminf", "fmin", "fmaxf", "fmax", "copysignf", "copysign",
  "ldexpf", "ldexp", "frexpf", "frexp", "erff", "erf", "erfcf", "erfc",
  "tgammaf", "tgamma", "lgammaf", "lgamma",
  // memory builtins the compiler may call even when freestanding
  "memcpy", "memmove", "memset", "memcmp",
  // compiler-rt / libgcc: half and bfloat conversions
  "__extendhfsf2", "__extendhfdf2", "__truncsfhf2", "__truncdfhf2",
  "__truncsfbf2", "__truncdfbf2",
  // 128-bit integer arithmetic and conversions
  "__divti3", "__udivti3", "__modti3", "__umodti3", "__divmodti4", "__udivmodti4",
  "__multi3", "__muloti4", "__ashlti3", "__ashrti3", "__lshrti3",
  "__popcountdi2", "__popcountti2", "__clzti2", "__ctzti2",
  "__floattisf", "__floattidf", "__floatuntisf", "__floatuntidf", "__floattihf", "__floatuntihf",
  "__fixsfti", "__fixdfti", "__fixunssfti", "__fixunsdfti", "__fixhfti", "__fixunshfti",
  // integer powers and complex multiply/divide
  "__powisf2", "__powidf2", "__mulsc3", "__muldc3", "__divsc3", "__divdc3",
};
// clang-format on

// Round-to-nearest-even float -> bfloat16, NaNs stay (quiet) NaNs. Returned
// as __bf16 so the value travels in %xmm0 as the builtin's ABI says.
uint16_t floatToBF16Bits(float f) {
  uint32_t u;
  std::memcpy(&u, &f, 4);
  if ((u & 0x7fffffffu) > 0x7f800000u)
    return static_cast<uint16_t>((u >> 16) | 0x40);
  u += 0x7fffu + ((u >> 16) & 1);
  return static_cast<uint16_t>(u >> 16);
}

extern "C" __bf16 tgrt_fallback_truncsfbf2(float f) {
  return __builtin_bit_cast(__bf16, floatToBF16Bits(f));
}

extern "C" __bf16 tgrt_fallback_truncdfbf2(double d) {
  // Rounding through float would round twice. Round to float "to odd"
  // instead (an inexact result gets an odd last bit), which makes the second
  // rounding exact.
  float f = static_cast<float>(d);
  double back = static_cast<double>(f);
  uint32_t u;
  std::memcpy(&u, &f, 4);
  if (d == d && back != d && !(u & 1)) {
    // f is even and inexact: the odd neighbour between f and d is one step
    // up in magnitude if f fell short of d, else one step down.
    u = std::fabs(back) < std::fabs(d) ? u + 1 : u - 1;
    std::memcpy(&f, &u, 4);
  }
  return __builtin_bit_cast(__bf16, floatToBF16Bits(f));
}

struct Fallback {
  const char *name;
  void *address;
};
const Fallback kFallbacks[] = {
    {"__truncsfbf2", reinterpret_cast<void *>(&tgrt_fallback_truncsfbf2)},
    {"__truncdfbf2", reinterpret_cast<void *>(&tgrt_fallback_truncdfbf2)},
};

void *libraryHandle(const char *soname) {
  return dlopen(soname, RTLD_NOW | RTLD_LOCAL);
}

} // namespace

namespace tgrt {

Status resolveHostSymbol(const char *name, void **address) {
  bool allowed = false;
  for (const char *a : kAllowed)
    if (std::strcmp(a, name) == 0)
      allowed = true;
  if (!allowed)
    return fail(TGRT_NOT_FOUND, std::string("tgrt_program_load: undefined symbol '") + name +
                                    "' is not on the runtime's allow-list of host functions "
                                    "(libm, compiler-rt builtins, mem*)");
  static void *const libm = libraryHandle("libm.so.6");
  static void *const libgcc = libraryHandle("libgcc_s.so.1");
  void *p = dlsym(RTLD_DEFAULT, name);
  if (!p && libm)
    p = dlsym(libm, name);
  if (!p && libgcc)
    p = dlsym(libgcc, name);
  for (const Fallback &f : kFallbacks)
    if (!p && std::strcmp(f.name, name) == 0)
      p = f.address;
  if (!p)
    return fail(TGRT_NOT_FOUND, std::string("tgrt_program_load: undefined symbol '") + name +
                                    "' is allowed but the host process has no definition");
  *address = p;
  return TGRT_OK;
}

} // namespace tgrt
