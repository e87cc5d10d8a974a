//===- CallStubs.cpp - tinygrad's CPU calling convention ------------------===//
//
// tinygrad calls a CPU kernel with every argument as a uint64 (buffers as
// their address, ints in 64-bit slots that the kernel may read as int32).
// The call stubs below are one function per arity, 0..TGRT_MAX_ARGS,
// generated with templates: stub<N> casts the entry to
// void(*)(uint64_t x N) and passes args[0..N).
//
//===----------------------------------------------------------------------===//

#include "CallStubs.h"

#include "tinygrad-rt/runtime.h"

#include <array>
#include <utility>

namespace {

template <size_t> using U64 = uint64_t;

template <size_t... I> void callWithArgs(void *entry, const uint64_t *args, std::index_sequence<I...>) {
  using Fn = void (*)(U64<I>...);
  reinterpret_cast<Fn>(entry)(args[I]...);
}

template <size_t N> void callStub(void *entry, const uint64_t *args) {
  callWithArgs(entry, args, std::make_index_sequence<N>{});
}

using Stub = void (*)(void *, const uint64_t *);

template <size_t... N> constexpr auto makeStubTable(std::index_sequence<N...>) {
  return std::array<Stub, sizeof...(N)>{&callStub<N>...};
}

constexpr auto kStubs = makeStubTable(std::make_index_sequence<TGRT_MAX_ARGS + 1>{});

} // namespace

void tgrt::cpu::callKernel(void *entry, const uint64_t *args, uint32_t numArgs) {
  kStubs[numArgs](entry, args);
}
