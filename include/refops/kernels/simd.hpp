// What every kernel shares about instruction sets: the Arch tags kernels are templated on, the
// element bit patterns that fill kernels work in, and row fills with normal or streaming stores.
//
// Kernels always name their Arch explicitly (never xsimd's default batch), because one build of
// refops compiles the same kernel template once per instruction set, each in its own
// translation unit (src/arch/). The header-only layer uses default_arch: the best one the
// consumer's compiler flags allow.
#pragma once

#include <refops/kernels/abi.hpp>

#include <bit>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <type_traits>

#include <xsimd/xsimd.hpp>

#if defined(__SSE2__) || defined(__AVX2__) || defined(__AVX512F__)
#include <immintrin.h>
#endif

namespace refops::simd::inline REFOPS_KERNEL_ABI {

// The portable path: plain C++ loops, no vector types. The reference every other path must
// match bit for bit.
struct scalar_arch {
  static constexpr const char* name() { return "scalar"; }
};

template <class Arch>
inline constexpr bool is_vector_arch = !std::is_same_v<Arch, scalar_arch>;

#if XSIMD_WITH_SSE2 || XSIMD_WITH_NEON64
using default_arch = xsimd::default_arch;
#else
using default_arch = scalar_arch;
#endif

// The unsigned integer with the size of T: fills and copies move bit patterns, so FLOAT16 and
// the signed types share the unsigned kernels, and -0.0 or a NaN payload survives exactly.
template <std::size_t Bytes> struct uint_of_size;
template <> struct uint_of_size<1> { using type = std::uint8_t; };
template <> struct uint_of_size<2> { using type = std::uint16_t; };
template <> struct uint_of_size<4> { using type = std::uint32_t; };
template <> struct uint_of_size<8> { using type = std::uint64_t; };
template <class T>
using bits_t = typename uint_of_size<sizeof(T)>::type;

template <class T>
bits_t<T> to_bits(T value) {
  bits_t<T> bits;
  std::memcpy(&bits, &value, sizeof(T));
  return bits;
}

// Stores `count` copies of `pattern` at p (any alignment).
template <class Arch, class U>
void fill(U* p, std::size_t count, U pattern) {
  static_assert(std::is_unsigned_v<U>);
  std::size_t i = 0;
  if constexpr (is_vector_arch<Arch>) {
    using batch = xsimd::batch<U, Arch>;
    constexpr std::size_t lanes = batch::size;
    const batch v(pattern);
    for (; i + 4 * lanes <= count; i += 4 * lanes) {
      v.store_unaligned(p + i);
      v.store_unaligned(p + i + lanes);
      v.store_unaligned(p + i + 2 * lanes);
      v.store_unaligned(p + i + 3 * lanes);
    }
    for (; i + lanes <= count; i += lanes) v.store_unaligned(p + i);
    if (i < count && count >= lanes) {  // ragged end: one vector overlapping the last one
      v.store_unaligned(p + count - lanes);
      return;
    }
  }
  for (; i < count; ++i) p[i] = pattern;
}

// True when this Arch can store around the cache (non-temporal stores).
template <class Arch>
inline constexpr bool has_streaming_stores =
#if defined(__AVX512F__)
    std::is_base_of_v<xsimd::avx512f, Arch> ||
#endif
#if defined(__AVX2__)
    std::is_base_of_v<xsimd::avx2, Arch> ||
#endif
#if defined(__SSE2__)
    std::is_base_of_v<xsimd::sse2, Arch> ||
#endif
    false;

// Stores the vector `v` at the vector-aligned address p around the cache. Only for
// has_streaming_stores<Arch>.
template <class Arch, class U>
void stream_store(U* p, const xsimd::batch<U, Arch>& v) {
#if defined(__AVX512F__)
  if constexpr (std::is_base_of_v<xsimd::avx512f, Arch>) {
    _mm512_stream_si512(reinterpret_cast<__m512i*>(p), xsimd::bitwise_cast<xsimd::batch<std::int32_t, Arch>>(v));
    return;
  } else
#endif
#if defined(__AVX2__)
  if constexpr (std::is_base_of_v<xsimd::avx2, Arch>) {
    _mm256_stream_si256(reinterpret_cast<__m256i*>(p), xsimd::bitwise_cast<xsimd::batch<std::int32_t, Arch>>(v));
    return;
  } else
#endif
#if defined(__SSE2__)
  if constexpr (std::is_base_of_v<xsimd::sse2, Arch>) {
    _mm_stream_si128(reinterpret_cast<__m128i*>(p), xsimd::bitwise_cast<xsimd::batch<std::int32_t, Arch>>(v));
    return;
  } else
#endif
  {
    static_assert(has_streaming_stores<Arch>, "no streaming stores on this Arch");
  }
}

// Stores one aligned vector of `pattern` around the cache. Only for has_streaming_stores<Arch>.
template <class Arch, class U>
void stream_vector(U* p, U pattern) {
  stream_store<Arch>(p, xsimd::batch<U, Arch>(pattern));
}

// Orders streaming stores before whatever the caller does next (the output is complete and
// visible to other threads when the kernel returns).
template <class Arch>
void streaming_fence() {
#if defined(__SSE2__)
  if constexpr (has_streaming_stores<Arch>) _mm_sfence();
#endif
}

// Like fill(), with non-temporal stores for the whole vectors between the first and last
// vector-aligned address; the ragged ends use normal stores. Falls back to fill() where the
// Arch has no streaming stores. Call streaming_fence<Arch>() once after the last one.
template <class Arch, class U>
void stream_fill(U* p, std::size_t count, U pattern) {
  if constexpr (!has_streaming_stores<Arch>) {
    fill<Arch>(p, count, pattern);
  } else {
    constexpr std::size_t bytes = sizeof(xsimd::batch<U, Arch>);
    constexpr std::size_t lanes = bytes / sizeof(U);
    const auto address = reinterpret_cast<std::uintptr_t>(p);
    std::size_t head = ((bytes - address % bytes) % bytes) / sizeof(U);
    if (address % sizeof(U) != 0 || head >= count) {  // misaligned elements or tiny: no gain
      fill<Arch>(p, count, pattern);
      return;
    }
    fill<Arch>(p, head, pattern);
    std::size_t i = head;
    for (; i + lanes <= count; i += lanes) stream_vector<Arch>(p + i, pattern);
    fill<Arch>(p + i, count - i, pattern);
  }
}

}  // namespace refops::simd::inline REFOPS_KERNEL_ABI
