// What every kernel shares about instruction sets: the Arch tags kernels are templated on, the
// element bit patterns that fill kernels work in, and the store strategy with the one store-span
// helper every kernel writes its runs through (plain, streaming or rep-string stores).
//
// Kernels always name their Arch explicitly (never xsimd's default batch), because one build of
// refops compiles the same kernel template once per instruction set, each in its own
// translation unit (src/arch/). The header-only layer uses default_arch: the best one the
// consumer's compiler flags allow.
#pragma once

#include <refops/kernels/abi.hpp>

#include <algorithm>
#include <bit>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <optional>
#include <type_traits>

#include <xsimd/xsimd.hpp>

#include <refops/arch.hpp>
#include <refops/kernels/cache_info.hpp>

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

// ---------------------------------------------------------------------------------------------
// Store strategy: the one place that decides how a kernel's output reaches memory
// (docs/decisions.md, "Store strategy"). A kernel asks choose_stores() once per call, with the
// bytes of the WHOLE call (a layer that splits a call among threads passes the same request to
// every chunk, so all chunks store alike), then writes every run through store_span(),
// fill_span() or copy_span(), and calls finish_stores() once at the end.

// What the caller of a kernel says about its stores: a forced strategy (ExecuteOptions::stores)
// and the output bytes of the whole call (0: the kernel's own output is the whole call).
struct StoreRequest {
  std::optional<StoreStrategy> forced;
  std::size_t call_bytes = 0;
};

// REFOPS_STORES=auto|plain|stream|rep, read once; unset, empty or auto: nothing forced. An
// unknown value is ignored with one warning on stderr.
inline std::optional<StoreStrategy> stores_from_environment() {
  static const std::optional<StoreStrategy> forced = []() -> std::optional<StoreStrategy> {
    const char* env = std::getenv("REFOPS_STORES");
    if (env == nullptr || *env == '\0' || std::strcmp(env, "auto") == 0) return std::nullopt;
    for (StoreStrategy s : {StoreStrategy::plain, StoreStrategy::stream, StoreStrategy::rep})
      if (name_of(s) == env) return s;
    std::fprintf(stderr, "refops: REFOPS_STORES=%s is not auto, plain, stream or rep; ignored\n", env);
    return std::nullopt;
  }();
  return forced;
}

// What a kernel knows about its output when it asks for a strategy.
struct StoreNeeds {
  std::size_t output_bytes;        // this kernel call's output (the request may name more)
  bool zero_background;            // all but sparse elements are zero bytes, in whole spans
  std::size_t bytes_per_sparse;    // output bytes per element that differs from the background
};

// Sparse writes at most this dense make a zeroing pass plus a patch pass cheaper than one
// streamed pass: each patched line is read back once (about 1.5% more traffic at 4 KiB).
inline constexpr std::size_t rep_min_bytes_per_sparse = 1024;

// The strategy for one call. Forced (the request, else REFOPS_STORES) wins. Otherwise:
// - a zero background in one contiguous block with sparse writes at least 1 KiB apart: rep, at
//   any size (on the AMD Zen 3 host of issue 10 one large memset(0) ran at 28-31 GB/s against
//   19 for streaming stores, and in cache it matched memset where plain vector fills reached
//   0.8 of it);
// - outputs smaller than the last-level cache: plain (the output can stay in the cache for
//   whoever reads it next);
// - other large outputs: stream.
template <class Arch>
StoreStrategy choose_stores(const StoreRequest& request, const StoreNeeds& needs) {
  if (request.forced) return *request.forced;
  if (const auto env = stores_from_environment()) return *env;
  if (needs.zero_background && needs.bytes_per_sparse >= rep_min_bytes_per_sparse) return StoreStrategy::rep;
  const std::size_t bytes = std::max(request.call_bytes, needs.output_bytes);
  if (bytes < streaming_threshold_bytes()) return StoreStrategy::plain;
  return has_streaming_stores<Arch> ? StoreStrategy::stream : StoreStrategy::plain;
}

// Orders streaming stores before whatever the caller does next (the output is complete and
// visible to other threads when the kernel returns).
template <class Arch>
void streaming_fence() {
#if defined(__SSE2__)
  if constexpr (has_streaming_stores<Arch>) _mm_sfence();
#endif
}
template <class Arch>
void finish_stores(StoreStrategy s) {
  if (s == StoreStrategy::stream) streaming_fence<Arch>();
}

// Stores the vector v at p (any alignment): streamed when `s` is stream and p is
// vector-aligned, else a plain unaligned store.
template <class Arch, class U>
void store_batch(U* p, const xsimd::batch<U, Arch>& v, StoreStrategy s) {
  if constexpr (has_streaming_stores<Arch>) {
    if (s == StoreStrategy::stream && reinterpret_cast<std::uintptr_t>(p) % sizeof(v) == 0) {
      stream_store<Arch>(p, v);
      return;
    }
  }
  v.store_unaligned(p);
}

// The store-span helper: writes elements [0, n) at p, where vector_at(i) is the vector of
// elements [i, i + lanes) and element_at(i) element i alone. Spans of a vector or more are
// written as whole vectors only: a ragged head or tail is one unaligned vector overlapping its
// neighbour (the same bits stored twice while in L1), so element_at is used only below one
// vector. With `stream`, the vectors from the first vector-aligned address on are streamed;
// a misaligned head is a plain store. (rep has no meaning for computed vectors: plain.)
template <class Arch, class U, class VectorAt, class ElementAt>
void store_span(U* p, std::size_t n, StoreStrategy s, VectorAt&& vector_at, ElementAt&& element_at) {
  if constexpr (is_vector_arch<Arch>) {
    using batch = xsimd::batch<U, Arch>;
    constexpr std::size_t lanes = batch::size;
    if (n >= lanes) {
      std::size_t i = 0;
      if (s == StoreStrategy::stream && has_streaming_stores<Arch>) {
        const auto address = reinterpret_cast<std::uintptr_t>(p);
        const std::size_t head = ((sizeof(batch) - address % sizeof(batch)) % sizeof(batch)) / sizeof(U);
        if (address % sizeof(U) == 0 && head + lanes <= n) {
          if (head != 0) vector_at(std::size_t{0}).store_unaligned(p);
          for (i = head; i + lanes <= n; i += lanes) store_batch<Arch>(p + i, vector_at(i), s);
          if (i < n) vector_at(n - lanes).store_unaligned(p + n - lanes);
          return;
        }
      }
      for (; i + 2 * lanes <= n; i += 2 * lanes) {
        vector_at(i).store_unaligned(p + i);
        vector_at(i + lanes).store_unaligned(p + i + lanes);
      }
      for (; i + lanes <= n; i += lanes) vector_at(i).store_unaligned(p + i);
      if (i < n) vector_at(n - lanes).store_unaligned(p + n - lanes);
      return;
    }
  }
  (void)s;
  for (std::size_t i = 0; i < n; ++i) p[i] = element_at(i);
}

// True when every byte of the pattern is the same (what memset can fill).
template <class U>
bool bytes_uniform(U pattern) {
  const U one_byte = static_cast<U>(pattern & 0xFF);
  U repeated = 0;
  for (std::size_t b = 0; b < sizeof(U); ++b) repeated = static_cast<U>(repeated | (one_byte << (8 * b)));
  return repeated == pattern;
}

// Fills by the string instructions: memset when the pattern's bytes are uniform; otherwise on
// x86-64 `rep stosq` of the pattern repeated to 8 bytes (after element stores up to an 8-byte
// boundary); elsewhere plain vector stores.
template <class Arch, class U>
void rep_fill(U* p, std::size_t n, U pattern) {
  if (bytes_uniform(pattern)) {
    std::memset(p, static_cast<unsigned char>(pattern & 0xFF), n * sizeof(U));
    return;
  }
#if defined(__x86_64__)
  const auto address = reinterpret_cast<std::uintptr_t>(p);
  if (address % sizeof(U) == 0) {
    std::size_t i = 0;
    for (; i < n && (address + i * sizeof(U)) % 8 != 0; ++i) p[i] = pattern;
    std::uint64_t word = 0;
    for (std::size_t b = 0; b < 8; b += sizeof(U)) word |= std::uint64_t{pattern} << (8 * b);
    std::size_t words = (n - i) * sizeof(U) / 8;
    void* destination = p + i;
    __asm__ volatile("rep stosq" : "+D"(destination), "+c"(words) : "a"(word) : "memory");
    for (i += (n - i) / (8 / sizeof(U)) * (8 / sizeof(U)); i < n; ++i) p[i] = pattern;
    return;
  }
#endif
  fill<Arch>(p, n, pattern);
}

// n copies of `pattern` at p by strategy s.
template <class Arch, class U>
void fill_span(U* p, std::size_t n, U pattern, StoreStrategy s) {
  static_assert(std::is_unsigned_v<U>);
  if (s == StoreStrategy::rep) {
    rep_fill<Arch>(p, n, pattern);
  } else if (s == StoreStrategy::stream && has_streaming_stores<Arch>) {
    if constexpr (is_vector_arch<Arch>) {
      const xsimd::batch<U, Arch> v(pattern);
      store_span<Arch>(p, n, s, [&](std::size_t) { return v; }, [&](std::size_t) { return pattern; });
    }
  } else {
    fill<Arch>(p, n, pattern);
  }
}

// n elements from src to dst (not overlapping) by strategy s: rep and plain are memcpy (the
// C library's copy, rep movsb on x86 for long runs).
template <class Arch, class U>
void copy_span(U* dst, const U* src, std::size_t n, StoreStrategy s) {
  if constexpr (is_vector_arch<Arch> && has_streaming_stores<Arch>) {
    if (s == StoreStrategy::stream) {
      using batch = xsimd::batch<U, Arch>;
      store_span<Arch>(dst, n, s, [&](std::size_t i) { return batch::load_unaligned(src + i); },
                       [&](std::size_t i) { return src[i]; });
      return;
    }
  }
  std::memcpy(dst, src, n * sizeof(U));
}

// fill() with streaming stores (fill_span's stream strategy). Call streaming_fence<Arch>() once
// after the last one.
template <class Arch, class U>
void stream_fill(U* p, std::size_t count, U pattern) {
  fill_span<Arch>(p, count, pattern, StoreStrategy::stream);
}

}  // namespace refops::simd::inline REFOPS_KERNEL_ABI
