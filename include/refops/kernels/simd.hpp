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

// ---- Lane helpers for reductions (first moved here from the HARDMAX kernel). -----------------
// xsimd 8.1 has no batch_bool::mask(), no reduce_max and no integer max that builds cleanly on
// every level; these fill those gaps for signed integer lanes K.
namespace refops::simd::inline REFOPS_KERNEL_ABI {

// The lane of the lowest set bit of a mask with `bits_per_lane` bits per lane; `lanes` if none.
inline std::size_t lowest_lane(std::uint64_t mask, std::size_t bits_per_lane, std::size_t lanes) {
  return mask == 0 ? lanes : static_cast<std::size_t>(std::countr_zero(mask)) / bits_per_lane;
}

// The first lane that is true, or the lane count when none is. Each x86 level reads its own
// mask register; other Arches go through memory.
template <class Arch, class K>
std::size_t first_true(const xsimd::batch_bool<K, Arch>& b) {
  constexpr std::size_t lanes = xsimd::batch<K, Arch>::size;
#if defined(__AVX512F__)
  if constexpr (std::is_base_of_v<xsimd::avx512f, Arch>)
    return lowest_lane(static_cast<typename xsimd::batch_bool<K, Arch>::register_type>(b), 1, lanes);
  else
#endif
#if defined(__AVX2__)
  if constexpr (std::is_base_of_v<xsimd::avx2, Arch>)
    return lowest_lane(static_cast<std::uint32_t>(_mm256_movemask_epi8(static_cast<__m256i>(b))), sizeof(K), lanes);
  else
#endif
#if defined(__SSE2__)
  if constexpr (std::is_base_of_v<xsimd::sse2, Arch>)
    return lowest_lane(static_cast<std::uint32_t>(_mm_movemask_epi8(static_cast<__m128i>(b))), sizeof(K), lanes);
  else
#endif
  {
    alignas(64) K flags[lanes];
    xsimd::select(b, xsimd::batch<K, Arch>(K(1)), xsimd::batch<K, Arch>(K(0))).store_aligned(flags);
    for (std::size_t i = 0; i < lanes; ++i)
      if (flags[i] != 0) return i;
    return lanes;
  }
}

// One bit per lane (bit i: lane i is true), for up to 64 lanes: the mask register on AVX-512,
// a movemask on SSE2 and AVX2 (16-bit lanes packed to bytes first), memory elsewhere.
template <class Arch, class K>
std::uint64_t lane_bits(const xsimd::batch_bool<K, Arch>& b) {
  constexpr std::size_t lanes = xsimd::batch<K, Arch>::size;
#if defined(__AVX512F__)
  if constexpr (std::is_base_of_v<xsimd::avx512f, Arch>)
    return static_cast<std::uint64_t>(static_cast<typename xsimd::batch_bool<K, Arch>::register_type>(b));
  else
#endif
#if defined(__AVX2__)
  if constexpr (std::is_base_of_v<xsimd::avx2, Arch> && sizeof(K) == 4) {
    return static_cast<std::uint32_t>(_mm256_movemask_ps(_mm256_castsi256_ps(static_cast<__m256i>(b))));
  } else if constexpr (std::is_base_of_v<xsimd::avx2, Arch> && sizeof(K) == 2) {
    const __m256i i = static_cast<__m256i>(b);
    const auto m = static_cast<std::uint32_t>(_mm256_movemask_epi8(_mm256_packs_epi16(i, i)));
    return (m & 0xFFu) | ((m >> 8) & 0xFF00u);  // the pack works within 128-bit halves
  } else
#endif
#if defined(__SSE2__)
  if constexpr (std::is_base_of_v<xsimd::sse2, Arch> && sizeof(K) == 4) {
    return static_cast<std::uint32_t>(_mm_movemask_ps(_mm_castsi128_ps(static_cast<__m128i>(b))));
  } else if constexpr (std::is_base_of_v<xsimd::sse2, Arch> && sizeof(K) == 2) {
    const __m128i i = static_cast<__m128i>(b);
    return static_cast<std::uint32_t>(_mm_movemask_epi8(_mm_packs_epi16(i, i))) & 0xFFu;
  } else
#endif
  {
    alignas(64) K flags[lanes];
    xsimd::select(b, xsimd::batch<K, Arch>(K(1)), xsimd::batch<K, Arch>(K(0))).store_aligned(flags);
    std::uint64_t bits = 0;
    for (std::size_t i = 0; i < lanes; ++i) bits |= static_cast<std::uint64_t>(flags[i] != 0) << i;
    return bits;
  }
}

// The larger of two signed integer vectors, lane by lane. The native instruction on AVX2 (and
// 16-bit lanes on SSE2); elsewhere a compare-and-select: GCC 12 warns (-Wmaybe-uninitialized,
// an error here) inside its own _mm512_max_epi32 header code, and SSE2 has no 32-bit max.
template <class Arch, class K>
xsimd::batch<K, Arch> max_of(const xsimd::batch<K, Arch>& a, const xsimd::batch<K, Arch>& b) {
  static_assert(std::is_signed_v<K> && std::is_integral_v<K>);
  using B = xsimd::batch<K, Arch>;
#if defined(__AVX2__)
  if constexpr (std::is_base_of_v<xsimd::avx2, Arch> && sizeof(K) == 4) return B(_mm256_max_epi32(a, b));
  if constexpr (std::is_base_of_v<xsimd::avx2, Arch> && sizeof(K) == 2) return B(_mm256_max_epi16(a, b));
#endif
#if defined(__SSE2__)
  if constexpr (std::is_base_of_v<xsimd::sse2, Arch> && sizeof(K) == 2) return B(_mm_max_epi16(a, b));
#endif
  return xsimd::select(b > a, b, a);
}

// The largest lane, through memory (a fallback where no native lane swap exists).
template <class Arch, class K>
K max_lane(const xsimd::batch<K, Arch>& v) {
  constexpr std::size_t lanes = xsimd::batch<K, Arch>::size;
  alignas(64) K lane[lanes];
  v.store_aligned(lane);
  K m = lane[0];
  for (std::size_t i = 1; i < lanes; ++i) m = lane[i] > m ? lane[i] : m;
  return m;
}

// Whether swap_lanes<S> on K lanes is one native shuffle: 32- and 64-bit lanes on x86, 16-bit
// lanes only with AVX512BW. Elsewhere xsimd 8.1 would emulate it, and max_lane is cheaper.
template <class Arch, class K>
inline constexpr bool native_swizzle =
#if defined(__AVX512BW__)
    std::is_base_of_v<xsimd::avx512bw, Arch> ||
#endif
#if defined(__AVX512F__)
    (sizeof(K) >= 4 && std::is_base_of_v<xsimd::avx512f, Arch>) ||
#endif
#if defined(__AVX2__)
    (sizeof(K) >= 4 && std::is_base_of_v<xsimd::avx2, Arch>) ||
#endif
#if defined(__SSE2__)
    (sizeof(K) >= 4 && std::is_base_of_v<xsimd::sse2, Arch>) ||
#endif
    false;

// The lane numbers 0, 1, 2, ... and their partners at distance S, as xsimd batch constants.
struct LaneNumber {
  static constexpr std::size_t get(std::size_t i, std::size_t) { return i; }
};
template <std::size_t S>
struct XorLane {
  static constexpr std::size_t get(std::size_t i, std::size_t) { return i ^ S; }
};

// v with each lane i moved to lane i ^ S (only where native_swizzle<Arch, K>). On AVX-512 the
// zero-masking permute with every lane selected: GCC 12's plain _mm512_permutexvar_* (what
// xsimd::swizzle calls) reports -Wmaybe-uninitialized inside its own header, an error here.
template <std::size_t S, class Arch, class K>
xsimd::batch<K, Arch> swap_lanes(const xsimd::batch<K, Arch>& v) {
  using B = xsimd::batch<K, Arch>;
  using Index = xsimd::batch<std::make_unsigned_t<K>, Arch>;
#if defined(__AVX512F__)
  if constexpr (std::is_base_of_v<xsimd::avx512f, Arch>) {
    const __m512i i = Index(xsimd::make_batch_constant<Index, XorLane<S>>()), x = xsimd::bitwise_cast<B>(v);
    if constexpr (sizeof(K) == 8) return B(_mm512_maskz_permutexvar_epi64(__mmask8(0xFF), i, x));
    else if constexpr (sizeof(K) == 4) return B(_mm512_maskz_permutexvar_epi32(__mmask16(0xFFFF), i, x));
#if defined(__AVX512BW__)
    else return B(_mm512_maskz_permutexvar_epi16(__mmask32(0xFFFFFFFF), i, x));
#endif
  } else
#endif
  {
    return B(xsimd::swizzle(v, xsimd::make_batch_constant<Index, XorLane<S>>()));
  }
}

// Every lane gets the largest lane of v: a butterfly of lane swaps at distance S, S/2, ..., 1
// where swaps are native, max_lane elsewhere.
template <class Arch, class K, std::size_t S = xsimd::batch<K, Arch>::size / 2>
xsimd::batch<K, Arch> spread_max(const xsimd::batch<K, Arch>& v) {
  if constexpr (!native_swizzle<Arch, K>) {
    return xsimd::batch<K, Arch>(max_lane<Arch>(v));
  } else if constexpr (S == 0) {
    return v;
  } else {
    return spread_max<Arch, K, S / 2>(max_of<Arch>(v, swap_lanes<S>(v)));
  }
}


// Lane r of the result is the largest lane of v[r], for `lanes` vectors v[0..lanes) (v is
// overwritten): a transposing butterfly. Each level pairs v[r] with v[r + S]; the lanes whose
// bit S is clear carry v[r]'s partial maxima, the others v[r + S]'s, so a level costs two
// blends, one lane swap and one maximum for two vectors, and log2(lanes) levels leave lane r
// holding row r: about four operations per vector instead of a butterfly per vector. Only where
// native_swizzle<Arch, K>.
template <std::size_t S>
struct BitClear {
  static constexpr bool get(std::size_t i, std::size_t) { return (i & S) == 0; }
};

// a in the lanes whose bit S is clear, b in the others. On AVX-512 a masked blend: xsimd 8.1
// splits 16-bit selects into halves there, and GCC 12 then reports -Wuninitialized inside its
// own _mm512_extractf64x4_pd header code.
template <std::size_t S, class Arch, class K>
xsimd::batch<K, Arch> blend_by_bit(const xsimd::batch<K, Arch>& a, const xsimd::batch<K, Arch>& b) {
  using B = xsimd::batch<K, Arch>;
#if defined(__AVX512F__)
  if constexpr (std::is_base_of_v<xsimd::avx512f, Arch>) {
    std::uint64_t set = 0;  // the lanes that take b
    for (std::size_t i = 0; i < B::size; ++i) set |= static_cast<std::uint64_t>((i & S) != 0) << i;
    if constexpr (sizeof(K) == 8) return B(_mm512_mask_blend_epi64(static_cast<__mmask8>(set), a, b));
    else if constexpr (sizeof(K) == 4) return B(_mm512_mask_blend_epi32(static_cast<__mmask16>(set), a, b));
#if defined(__AVX512BW__)
    else return B(_mm512_mask_blend_epi16(static_cast<__mmask32>(set), a, b));
#endif
  } else
#endif
  {
    return xsimd::select(xsimd::make_batch_bool_constant<B, BitClear<S>>(), a, b);
  }
}
template <class Arch, class K, std::size_t S = xsimd::batch<K, Arch>::size / 2>
[[gnu::always_inline]] inline xsimd::batch<K, Arch> lane_maxima(xsimd::batch<K, Arch>* v) {
  using B = xsimd::batch<K, Arch>;
  if constexpr (S == 0) {
    return v[0];
  } else {
    for (std::size_t r = 0; r < S; ++r) {
      const B a = v[r], b = v[r + S];
      v[r] = max_of<Arch>(blend_by_bit<S>(a, b), swap_lanes<S>(blend_by_bit<S>(b, a)));
    }
    return lane_maxima<Arch, K, S / 2>(v);
  }
}

}  // namespace refops::simd::inline REFOPS_KERNEL_ABI
