// What every kernel shares about instruction sets: the Target tags kernels are templated on, the
// element bit patterns that fill kernels work in, and the one store-span helper every kernel
// writes its runs through (plain, streaming or rep-string stores; store_choice.hpp picks which).
//
// Kernels always name their Target explicitly (never xsimd's default batch), because one build of
// refops compiles the same kernel template once per instruction set, each in its own
// translation unit (src/arch/). The header-only layer uses default_arch: the best one the
// consumer's compiler flags allow.
#pragma once

#include <refops/kernels/abi.hpp>

#include <algorithm>
#include <array>
#include <bit>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <type_traits>
#include <utility>

#include <xsimd/xsimd.hpp>

#include <refops/arch.hpp>

#if defined(__SSE2__) || defined(__AVX2__) || defined(__AVX512F__)
#include <immintrin.h>
#endif

namespace refops::simd::inline REFOPS_KERNEL_ABI {

// Denormal inputs compared as the numbers they are while the guard lives. A caller may run with
// denormals read as zero (x86 MXCSR.DAZ) or flushed (AArch64 FPCR.FZ, which flushes inputs as
// well as results), as ML runtimes often do for speed; a float compare or maximum, vector or
// scalar, then ties a denormal with 0 and HARDMAX would pick the wrong element. The mode
// belongs to the calling thread: cleared on entry when set, put back on exit (when not set,
// one read of the control register is the whole cost).
class DenormalsAsNumbers {
 public:
  DenormalsAsNumbers() {
#if defined(__SSE2__)
    saved_ = _mm_getcsr();
    if ((saved_ & daz) != 0) _mm_setcsr(saved_ & ~daz);
#elif defined(__aarch64__)
    asm volatile("mrs %0, fpcr" : "=r"(saved_));
    if ((saved_ & fz) != 0) asm volatile("msr fpcr, %0" : : "r"(saved_ & ~fz));
#endif
  }
  ~DenormalsAsNumbers() {
#if defined(__SSE2__)
    if ((saved_ & daz) != 0) _mm_setcsr(saved_);
#elif defined(__aarch64__)
    if ((saved_ & fz) != 0) asm volatile("msr fpcr, %0" : : "r"(saved_));
#endif
  }
  DenormalsAsNumbers(const DenormalsAsNumbers&) = delete;
  DenormalsAsNumbers& operator=(const DenormalsAsNumbers&) = delete;

 private:
#if defined(__SSE2__)
  static constexpr unsigned daz = 1u << 6;  // MXCSR's denormals-are-zero bit
  unsigned saved_ = 0;
#elif defined(__aarch64__)
  static constexpr std::uint64_t fz = std::uint64_t{1} << 24;  // FPCR's flush-to-zero bit
  std::uint64_t saved_ = 0;
#endif
};

// The portable path: plain C++ loops, no vector types. The reference every other path must
// match bit for bit.
struct scalar_arch {
  static constexpr const char* name() { return "scalar"; }
};

template <class Target>
inline constexpr bool is_vector_arch = !std::is_same_v<Target, scalar_arch>;

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
template <class Target, class U>
void fill(U* p, std::size_t count, U pattern) {
  static_assert(std::is_unsigned_v<U>);
  std::size_t i = 0;
  if constexpr (is_vector_arch<Target>) {
    using batch = xsimd::batch<U, Target>;
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

// True when this Target can store around the cache (non-temporal stores).
template <class Target>
inline constexpr bool has_streaming_stores =
#if defined(__AVX512F__)
    std::is_base_of_v<xsimd::avx512f, Target> ||
#endif
#if defined(__AVX2__)
    std::is_base_of_v<xsimd::avx2, Target> ||
#endif
#if defined(__SSE2__)
    std::is_base_of_v<xsimd::sse2, Target> ||
#endif
    false;

// True when Target is AVX2 or one of AVX-512's. xsimd 8.1 derives the AVX-512 targets from
// `generic`, not from avx2, so is_base_of<avx2> alone leaves them out.
template <class Target>
inline constexpr bool avx2_or_avx512 =
#if defined(__AVX512F__)
    std::is_base_of_v<xsimd::avx512f, Target> ||
#endif
#if defined(__AVX2__)
    std::is_base_of_v<xsimd::avx2, Target> ||
#endif
    false;

// True when this Target narrows 64-bit lanes to 32 in vector registers (narrow_store_64_to_32).
// Until 2026-11-29 this was is_base_of<avx2> alone, on the belief that xsimd derives AVX-512
// from it: AVX-512 then took the lane-by-lane path, and the AVX-512 branch below never ran.
template <class Target>
inline constexpr bool narrows_64_to_32 = avx2_or_avx512<Target>;

// The low 32 bits of each 64-bit lane of a, then of b, stored at out (unaligned): a truncation,
// two vectors into one. Only for narrows_64_to_32<Target>. Lane by lane through memory it was
// the INT64-index ONE_HOT's bound in cache (one_hot.hpp, positions_of).
template <class Target>
[[gnu::always_inline]] inline void narrow_store_64_to_32([[maybe_unused]] const xsimd::batch<std::uint64_t, Target>& a,
                                                         [[maybe_unused]] const xsimd::batch<std::uint64_t, Target>& b,
                                                         [[maybe_unused]] std::uint32_t* out) {
#if defined(__AVX512F__)
  if constexpr (std::is_base_of_v<xsimd::avx512f, Target>) {
    // The masked form with every lane set: GCC 12 warns inside its header for the plain one.
    _mm256_storeu_si256(reinterpret_cast<__m256i*>(out), _mm512_maskz_cvtepi64_epi32(0xFF, a));
    _mm256_storeu_si256(reinterpret_cast<__m256i*>(out + 8), _mm512_maskz_cvtepi64_epi32(0xFF, b));
    return;
  } else
#endif
#if defined(__AVX2__)
  if constexpr (std::is_base_of_v<xsimd::avx2, Target>) {
    // Each vector's even 32-bit lanes to its low half, then the two low halves side by side.
    const __m256i even_first = _mm256_setr_epi32(0, 2, 4, 6, 1, 3, 5, 7);
    const __m256i lo = _mm256_permutevar8x32_epi32(a, even_first), hi = _mm256_permutevar8x32_epi32(b, even_first);
    _mm256_storeu_si256(reinterpret_cast<__m256i*>(out), _mm256_permute2x128_si256(lo, hi, 0x20));
    return;
  } else
#endif
  {
    static_assert(narrows_64_to_32<Target>, "narrow_store_64_to_32 needs AVX2 or AVX-512");
  }
}

// a < b lane by lane for unsigned integer lanes. AVX2 has only signed compares, and xsimd 8.1
// takes unsigned ones to two SSE halves (an extract, the sign flip and compare of each half,
// an insert): here the sign bit of both is flipped and the signed compare decides, three
// operations. With xsimd's, ONE_HOT's INT64 indices on AVX2 ran at 0.66 of the same bytes,
// UINT32 ones at 0.94; with these 0.77 (16 x 4194304 along axis 0, the Intel Xeon guest;
// one_hot.hpp, vector_positions and the next tile's asks did the rest). AVX-512 and NEON
// compare unsigned lanes themselves.
template <class Target, class U>
[[gnu::always_inline]] inline xsimd::batch_bool<U, Target> less_unsigned(const xsimd::batch<U, Target>& a,
                                                                         const xsimd::batch<U, Target>& b) {
  static_assert(std::is_unsigned_v<U>);
#if defined(__AVX2__)
  constexpr bool avx2_only =
#  if defined(__AVX512F__)
      !std::is_base_of_v<xsimd::avx512f, Target> &&
#  endif
      std::is_base_of_v<xsimd::avx2, Target>;
  if constexpr (avx2_only && (sizeof(U) == 4 || sizeof(U) == 8)) {
    using S = std::make_signed_t<U>;
    using signed_batch = xsimd::batch<S, Target>;
    const xsimd::batch<U, Target> sign(U{1} << (8 * sizeof(U) - 1));
    const auto less = xsimd::bitwise_cast<signed_batch>(a ^ sign) < xsimd::bitwise_cast<signed_batch>(b ^ sign);
    return xsimd::batch_bool<U, Target>(static_cast<__m256i>(less));  // the same lanes, read unsigned
  } else
#endif
  {
    return a < b;
  }
}

// Stores the vector `v` at the vector-aligned address p around the cache. Only for
// has_streaming_stores<Target>.
template <class Target, class U>
void stream_store(U* p, const xsimd::batch<U, Target>& v) {
#if defined(__AVX512F__)
  if constexpr (std::is_base_of_v<xsimd::avx512f, Target>) {
    _mm512_stream_si512(reinterpret_cast<__m512i*>(p), xsimd::bitwise_cast<xsimd::batch<std::int32_t, Target>>(v));
    return;
  } else
#endif
#if defined(__AVX2__)
  if constexpr (std::is_base_of_v<xsimd::avx2, Target>) {
    _mm256_stream_si256(reinterpret_cast<__m256i*>(p), xsimd::bitwise_cast<xsimd::batch<std::int32_t, Target>>(v));
    return;
  } else
#endif
#if defined(__SSE2__)
  if constexpr (std::is_base_of_v<xsimd::sse2, Target>) {
    _mm_stream_si128(reinterpret_cast<__m128i*>(p), xsimd::bitwise_cast<xsimd::batch<std::int32_t, Target>>(v));
    return;
  } else
#endif
  {
    static_assert(has_streaming_stores<Target>, "no streaming stores on this Target");
  }
}

// Streams the 16-byte pieces [from, to) of the vector v that starts at the 16-byte-aligned
// address p: the ends of a span on the 16-byte grid but not on the vector grid (SpanWriter),
// and AVX-512's stream_store_16. Through L1 rather than by extracts (GCC 12 warns that the
// AVX-512 extracts' masked builtins read an uninitialized operand). Only for
// has_streaming_stores<Target>.
template <class Target, class U>
void stream_pieces_16(U* p, const xsimd::batch<U, Target>& v, std::size_t from, std::size_t to) {
#if defined(__SSE2__)
  alignas(64) U elements[xsimd::batch<U, Target>::size];
  v.store_aligned(elements);
  for (std::size_t k = from; k < to; ++k)
    _mm_stream_si128(reinterpret_cast<__m128i*>(p) + k, _mm_load_si128(reinterpret_cast<const __m128i*>(elements) + k));
#else
  (void)p, (void)v, (void)from, (void)to;
#endif
}

// Stores the vector `v` at the 16-byte-aligned address p around the cache, in 16-byte pieces:
// for outputs on the 16-byte grid but not on the vector grid (NumPy's arrays), which then
// stream every byte instead of being written plain (HARDMAX rows of 16 at +16 bytes: 0.48 to
// 0.83 of a streaming copy). Only for has_streaming_stores<Target>.
template <class Target, class U>
void stream_store_16(U* p, const xsimd::batch<U, Target>& v) {
#if defined(__AVX512F__)
  if constexpr (std::is_base_of_v<xsimd::avx512f, Target>) {
    stream_pieces_16<Target>(p, v, 0, 4);
    return;
  } else
#endif
#if defined(__AVX2__)
  if constexpr (std::is_base_of_v<xsimd::avx2, Target>) {
    auto* q = reinterpret_cast<__m128i*>(p);
    const __m256i x = xsimd::bitwise_cast<xsimd::batch<std::int32_t, Target>>(v);
    _mm_stream_si128(q, _mm256_castsi256_si128(x));
    _mm_stream_si128(q + 1, _mm256_extracti128_si256(x, 1));
    return;
  } else
#endif
  {
    stream_store<Target>(p, v);  // 16-byte vectors (SSE2): the same store
  }
}

// How a loop stores the whole vectors of short rows (HARDMAX's rows of 16, ONE_HOT's depth
// 16), chosen once per run of rows and fixed at compile time: planning each 64-byte row's
// stores through store_span cost about as much as computing the row.
enum class VectorStores {
  plain,      // vector stores
  stream,     // streamed vectors: every row starts on the vector grid
  stream_16,  // streamed 16-byte pieces (stream_store_16): every row starts on the 16-byte grid,
              // not all on the vector grid (NumPy's arrays). Streaming their middles with plain
              // vectors at the ends ran at 0.37 of memcpy (HARDMAX rows of 16), plain rows 0.55.
};

// The stores for rows of whole vectors, the first at p, `row_step` elements apart, under s.
template <class Target, class U>
VectorStores vector_stores_for(const U* p, std::ptrdiff_t row_step, StoreStrategy s) {
  if constexpr (has_streaming_stores<Target>) {
    const auto on_grid = [&](std::size_t bytes) {
      return reinterpret_cast<std::uintptr_t>(p) % bytes == 0 &&
             (row_step * static_cast<std::ptrdiff_t>(sizeof(U))) % static_cast<std::ptrdiff_t>(bytes) == 0;
    };
    if (s == StoreStrategy::stream && on_grid(sizeof(xsimd::batch<U, Target>))) return VectorStores::stream;
    if (s == StoreStrategy::stream && on_grid(16)) return VectorStores::stream_16;
  }
  (void)p, (void)row_step, (void)s;
  return VectorStores::plain;
}

// Calls f(std::integral_constant<VectorStores, S>{}) for the kind s, so the caller's loop is
// instantiated once per kind (kinds without streaming stores on this Target are never made).
template <class Target, class F>
void with_vector_stores(VectorStores s, F&& f) {
  if constexpr (has_streaming_stores<Target>) {
    if (s == VectorStores::stream) return f(std::integral_constant<VectorStores, VectorStores::stream>{});
    if (s == VectorStores::stream_16) return f(std::integral_constant<VectorStores, VectorStores::stream_16>{});
  }
  (void)s;
  f(std::integral_constant<VectorStores, VectorStores::plain>{});
}

// Stores v at p as S says.
template <VectorStores S, class Target, class U>
[[gnu::always_inline]] inline void store_vector(U* p, const xsimd::batch<U, Target>& v) {
  if constexpr (S == VectorStores::stream) stream_store<Target>(p, v);
  else if constexpr (S == VectorStores::stream_16) stream_store_16<Target>(p, v);
  else v.store_unaligned(p);
}

// ---------------------------------------------------------------------------------------------
// Writing a run of the output: a kernel asks store_choice.hpp's choose_stores() once per call
// for the strategy, then writes every run through store_span(), fill_span() or copy_span(),
// and calls finish_stores() once at the end.

// Orders streaming stores before whatever the caller does next (the output is complete and
// visible to other threads when the kernel returns).
template <class Target>
void streaming_fence() {
#if defined(__SSE2__)
  if constexpr (has_streaming_stores<Target>) _mm_sfence();
#endif
}
template <class Target>
void finish_stores(StoreStrategy s) {
  if (s == StoreStrategy::stream) streaming_fence<Target>();
}

// A cache line: the unit a streamed write must own whole (store_span).
inline constexpr std::size_t cache_line_bytes = 64;

// Elements of U a kernel writes per cache line on Target: a line, or one vector where a vector
// is wider than a line (a streamed write then still owns whole lines).
template <class Target, class U>
inline constexpr std::size_t line_elements =
    std::max(cache_line_bytes / sizeof(U), std::size_t{xsimd::batch<U, Target>::size});

// Where a prefetch brings its line (__builtin_prefetch's locality): every level (prefetcht0), or
// L2 and beyond (prefetcht1). A stream read from memory a page or so ahead goes to L2: on the
// Intel Xeon guest (family 6 model 207) a streamed copy that asked 4 KiB ahead ran at 18.2-19.8
// GB/s into L1 and 21.3-22.4 into L2 (none: 17.0-19.2; glibc's memcpy 18.6-21.6), as a line on
// its way to L1 holds one of the core's few L1 miss buffers the whole trip from memory, and L2
// has more. Rows read a few hundred bytes at a time, and inputs in the cache, want their lines in
// L1 (rows of 250 from memory 0.87 -> 0.82 of memcpy, rows of 100 in cache 0.91 -> 0.74-0.88
// into L2; docs/decisions.md, "Prefetches a page ahead into L2"). AMD's Zen 1 to 3 treat both
// hints alike; Zen 4 takes prefetcht1 to L2, as Intel does.
inline constexpr int prefetch_to_l1 = 3, prefetch_to_l2 = 2;

// A hint to bring the line `bytes` past p into the cache (Locality: prefetch_to_l1 or _l2). The
// address is formed as an integer: ahead of the last rows it lies past the array, where a
// pointer may not point (a prefetch never faults, so the address itself is harmless).
template <int Locality = prefetch_to_l1>
[[gnu::always_inline]] inline void prefetch_ahead(const void* p, std::ptrdiff_t bytes) {
  __builtin_prefetch(reinterpret_cast<const void*>(reinterpret_cast<std::uintptr_t>(p) + static_cast<std::uintptr_t>(bytes)),
                     0, Locality);
}

// Asks for the line `bytes` past p into L2 and for the line `near_bytes` past p into L1, from L2
// where the first ask brought it: for loops that compute on what they read and want it in L1
// (HARDMAX's scans and packed rows). Into L2 alone those lost in the cache and on packed rows
// (docs/decisions.md, "Prefetches a page ahead into L2"). (Not `near`: <windows.h> defines
// `near` and `far` as macros, and these headers are included by users' code.)
[[gnu::always_inline]] inline void prefetch_far_and_near(const void* p, std::ptrdiff_t bytes,
                                                         std::ptrdiff_t near_bytes = 512) {
  prefetch_ahead<prefetch_to_l2>(p, bytes);
  prefetch_ahead<prefetch_to_l1>(p, near_bytes);
}

// What a loop that reads a stream and computes on it asks for ahead of it (the loop's own rule
// says which): nothing (the hardware prefetcher alone), the line `bytes` ahead into L1
// (prefetch_ahead), or far and near (prefetch_far_and_near).
enum class StreamPrefetch { none, ahead, far_and_near };
template <StreamPrefetch Ask>
[[gnu::always_inline]] inline void prefetch_stream(const void* p, std::ptrdiff_t bytes) {
  if constexpr (Ask == StreamPrefetch::far_and_near) prefetch_far_and_near(p, bytes);
  else if constexpr (Ask == StreamPrefetch::ahead) prefetch_ahead(p, bytes);
}

// Asks for every cache line of the `bytes` at p: DIAGONAL_MATRIX's streamed rows read the
// input under a run of Value, though they do not use it, so the hardware's read stream goes on
// (read_through_gap_bytes), or ask into L2 for the start of the run after one they skip.
template <int Locality = prefetch_to_l1>
inline void prefetch_lines(const void* p, std::size_t bytes) {
  const auto start = reinterpret_cast<std::uintptr_t>(p);
  for (std::uintptr_t line = start - start % cache_line_bytes; line < start + bytes; line += cache_line_bytes)
    prefetch_ahead<Locality>(reinterpret_cast<const void*>(line), 0);
}

// Elements of U from `address` to the next cache-line boundary (0 on one).
template <class U>
std::size_t elements_to_line(std::uintptr_t address) {
  return ((cache_line_bytes - address % cache_line_bytes) % cache_line_bytes) / sizeof(U);
}

// Page-offset aliasing ("4K aliasing"): a core matches a load against the older stores still
// in its store queue by the low 12 bits of their addresses first, and a load whose page offset
// falls in a pending store's waits on it as if it read what the store writes. A loop that loads
// one stream while it stores another in step, the stores' page offset a few lines ahead of the
// loads', then runs at half speed: HARDMAX rows of 1024 floats, whose output rows were written
// a row behind the input rows, 16 to 64 bytes ahead in page offset, ran at 0.53-0.61 of memcpy
// on Zen 1, and at 0.87-0.93 with 1 to 3 KiB between them (docs/performance.md). So such a
// loop lags its stores (lag_apart_from_loads) or leads them (lead_apart_from_loads), and a
// copy loads ahead of what it stores (store_span).
inline constexpr std::size_t page_offset_period = 4096;

// How far apart in page offset (0 to half a page, either way) a store at `store` is from a
// load at `load`.
inline std::size_t page_offset_distance(std::uintptr_t store, std::uintptr_t load) {
  const std::size_t d = (store - load) % page_offset_period;
  return std::min(d, page_offset_period - d);
}

// A lag, in bytes, for stores made at `store - lag` beside loads at `load`: 0 when that is a
// quarter page apart already, else the one of first, first + step, ... (at most `last`) that is
// farthest apart (0 if none is farther).
inline std::size_t lag_apart_from_loads(std::uintptr_t store, std::uintptr_t load, std::size_t first, std::size_t step,
                                        std::size_t last) {
  std::size_t best_lag = 0, best = page_offset_distance(store, load);
  if (best >= page_offset_period / 4) return 0;
  for (std::size_t lag = first; lag <= last && lag < first + page_offset_period; lag += step) {
    const std::size_t d = page_offset_distance(store - lag, load);
    if (d > best) best = d, best_lag = lag;
  }
  return best_lag;
}

// A lead, in bytes (a whole number of `step`s below a page), for stores made at `store + lead`
// beside loads at `load`: the lag of lag_apart_from_loads a page later.
inline std::size_t lead_apart_from_loads(std::uintptr_t store, std::uintptr_t load, std::size_t step) {
  const std::size_t lag = lag_apart_from_loads(store + page_offset_period, load, step, step, page_offset_period - step);
  return lag == 0 ? 0 : page_offset_period - lag;
}

// The streamed part [first, last) of a span of n elements at `address`, when it has one.
struct StreamedPart {
  std::size_t first = 0, last = 0;
};

// Where store_span streams: never into a line it also writes with plain stores. A line held
// both in the cache (a plain store's read for ownership) and in a write-combining buffer
// costs a partial flush of that buffer: streamed rows whose plain vector head overlapped their
// first streamed vector ran at 0.02-0.2 of the aligned speed (HARDMAX rows of 16, ONE_HOT and
// HARDMAX rows of 1024, on NumPy's 16-byte-aligned arrays). So:
// - a span that starts and ends on vector boundaries is streamed whole (no plain store at
//   all, whatever lines its ends share with its neighbours, which then start or end on vector
//   boundaries too);
// - any other span streams its whole lines only, and the plain vectors at each end cover
//   whole lines (one line more at an end shorter than a vector), so no line is written both
//   ways; a span without such a line is written plain.
template <std::size_t Lanes, class U>
StreamedPart streamed_part(std::uintptr_t address, std::size_t n) {
  constexpr std::size_t vector_bytes = Lanes * sizeof(U), line = cache_line_bytes / sizeof(U);
  static_assert(cache_line_bytes % vector_bytes == 0);
  if (address % sizeof(U) != 0 || n < Lanes) return {};
  if (address % vector_bytes == 0 && n % Lanes == 0) return {0, n};
  std::size_t first = elements_to_line<U>(address);
  if (first != 0 && first < Lanes) first += line;  // a head shorter than a vector
  if (first + line > n) return {};
  std::size_t last = first + (n - first) / line * line;
  if (last != n && n - last < Lanes) last -= line;  // a tail shorter than a vector
  if (last <= first) return {};
  return {first, last};
}

// Plain vectors over [from, to), to - from >= lanes: the last one overlaps the one before.
// vector_at by value: a vector store may alias any memory, so the operands of a generator
// reached through a reference were loaded again after every store (three loads a vector in
// ONE_HOT's axis-0 loop).
template <class Target, class U, class VectorAt>
void store_plain_vectors(U* p, std::size_t from, std::size_t to, VectorAt vector_at) {
  constexpr std::size_t lanes = xsimd::batch<U, Target>::size;
  std::size_t i = from;
  for (; i + 2 * lanes <= to; i += 2 * lanes) {
    vector_at(i).store_unaligned(p + i);
    vector_at(i + lanes).store_unaligned(p + i + lanes);
  }
  for (; i + lanes <= to; i += lanes) vector_at(i).store_unaligned(p + i);
  if (i < to) vector_at(to - lanes).store_unaligned(p + to - lanes);
}

// The store-span helper, written a piece at a time (store_span below writes a span at once):
// SpanWriter stores elements [0, n) at p, where vector_at(i) is the vector of elements
// [i, i + lanes) and element_at(i) element i alone. step() stores the next line's worth of the
// span's middle (step<k>() the next k lines, with one test for all k where that many are left),
// advance(k) the vectors of the middle that end at or before element k,
// finish() the rest. A kernel that reads one row
// while it writes the previous one (HARDMAX's long rows) calls step() after every input line
// it loads, so loads and stores take turns a line at a time: a copy that read a kilobyte and
// then wrote a kilobyte ran at 0.64-0.80 of memcpy on Zen 3, one that took turns a line at a
// time at 0.89-0.98 (rows of 4 KiB, streamed).
//
// Spans of a vector or more are written as whole vectors only: a ragged head or tail is one
// unaligned vector overlapping its neighbour (the same bits stored twice while in L1), so
// element_at is used only below one vector. With `stream`, a span on the 16-byte grid is
// streamed whole, its ends in 16-byte pieces (every span of a call is then streamed whole, so
// no line is written both ways); otherwise streamed_part() says which vectors are streamed
// (the middle). The head is stored on construction and the tail by finish(). (rep has no
// meaning for computed vectors: plain.)
template <class Target, class U, class VectorAt, class ElementAt>
class SpanWriter {
 public:
  SpanWriter(U* p, std::size_t n, StoreStrategy s, VectorAt vector_at, ElementAt element_at)
      : p_(p), n_(n), vector_at_(vector_at), element_at_(element_at) {
    if constexpr (is_vector_arch<Target>) {
      if (n < lanes) return;
      if constexpr (has_streaming_stores<Target>) {
        const auto address = reinterpret_cast<std::uintptr_t>(p);
        if (s == StoreStrategy::stream && vector_bytes > 16 && address % 16 == 0 && n * sizeof(U) % 16 == 0 &&
            !(address % vector_bytes == 0 && n % lanes == 0)) {
          // On the 16-byte grid (NumPy's arrays): the ends streamed in 16-byte pieces, so no
          // line is written plain (HARDMAX rows of 1024 at +16 bytes wrote two of every 65
          // lines plain, each a read for ownership).
          next_ = (vector_bytes - address % vector_bytes) % vector_bytes / sizeof(U);
          last_ = next_ + (n - next_) / lanes * lanes;
          stream_pieces_16<Target>(p, vector_at_(0), 0, next_ * sizeof(U) / 16);
          streamed_ = pieces_ = true;
          return;
        }
        const StreamedPart part =
            s == StoreStrategy::stream ? streamed_part<lanes, U>(address, n) : StreamedPart{};
        if (part.last != 0) {
          if (part.first != 0) store_plain_vectors<Target>(p, 0, part.first, vector_at_);
          streamed_ = true;
          next_ = part.first;
          last_ = part.last;
          return;
        }
      }
      last_ = n / lanes * lanes;  // plain: whole vectors from 0, then one overlapping the last
    }
    (void)s;
  }

  // The hot calls are forced inline: a call out of a scan loop spills its vector registers.
  template <std::size_t Lines = 1>
  [[gnu::always_inline]] void step() {
    if constexpr (is_vector_arch<Target>) {
      constexpr std::size_t line = line_elements<Target, U>, span = Lines * line;
      if (next_ + span > last_) {
        if constexpr (Lines > 1)
          for (std::size_t k = 0; k < Lines; ++k) step<1>();
        return;
      }
      if (streamed_) {
        for (std::size_t h = 0; h < span; h += lanes) stream(next_ + h);
      } else {
        for (std::size_t h = 0; h < span; h += lanes) vector_at_(next_ + h).store_unaligned(p_ + next_ + h);
      }
      next_ += span;
    }
  }

  [[gnu::always_inline]] void advance(std::size_t k) {
    if constexpr (is_vector_arch<Target>) {
      const std::size_t to = k < last_ ? k : last_;
      // Every vector of a streamed middle is aligned: no test per store.
      if (streamed_) store_to(to, [this](std::size_t i) { stream(i); });
      else store_to(to, [this](std::size_t i) { vector_at_(i).store_unaligned(p_ + i); });
    }
  }

  void finish() {
    if constexpr (is_vector_arch<Target>) {
      if (n_ >= lanes) {
        advance(last_);
        if (last_ == n_) return;
        if (pieces_) stream_pieces_16<Target>(p_ + n_ - lanes, vector_at_(n_ - lanes), (last_ + lanes - n_) * sizeof(U) / 16, vector_bytes / 16);
        else if (streamed_) store_plain_vectors<Target>(p_, last_, n_, vector_at_);
        else vector_at_(n_ - lanes).store_unaligned(p_ + n_ - lanes);
        return;
      }
    }
    for (std::size_t i = 0; i < n_; ++i) p_[i] = element_at_(i);
  }

 private:
  static constexpr std::size_t lanes = xsimd::batch<U, Target>::size, vector_bytes = lanes * sizeof(U);

  template <class Store>
  [[gnu::always_inline]] void store_to(std::size_t to, Store store) {
    for (; next_ + 2 * lanes <= to; next_ += 2 * lanes) {
      store(next_);
      store(next_ + lanes);
    }
    for (; next_ + lanes <= to; next_ += lanes) store(next_);
  }

  [[gnu::always_inline]] void stream(std::size_t i) {
    if constexpr (has_streaming_stores<Target>) stream_store<Target>(p_ + i, vector_at_(i));
  }

  U* p_;
  std::size_t n_;
  VectorAt vector_at_;
  ElementAt element_at_;
  bool streamed_ = false, pieces_ = false;  // pieces_: the streamed ends are 16-byte pieces
  std::size_t next_ = 0, last_ = 0;  // the middle's next vector, and its end
};

// A SpanWriter of zeros: a zero background written while a kernel reads (HARDMAX's
// reductions stream their output's zeros a line per line loaded).
template <class Target, class U>
auto zeros_writer(U* p, std::size_t n, StoreStrategy s) {
  // Not const: a writer of captureless lambdas is assignable (hardmax_columns.hpp's fold keeps
  // a copy in registers and assigns it back).
  auto zero = [](std::size_t) { return xsimd::batch<U, Target>(U(0)); };
  auto zero_element = [](std::size_t) { return U(0); };
  return SpanWriter<Target, U, decltype(zero), decltype(zero_element)>(p, n, s, zero, zero_element);
}

// The whole span at once: what SpanWriter stores, in one loop. (Not a SpanWriter finished at
// once: that kept the writer's state in memory across the streamed stores, and DIAGONAL_MATRIX's
// streamed identity rows ran at 0.6 of this loop.)
template <class Target, class U, class VectorAt, class ElementAt>
void store_span(U* p, std::size_t n, StoreStrategy s, VectorAt&& vector_at, ElementAt&& element_at) {
  if constexpr (is_vector_arch<Target>) {
    using batch = xsimd::batch<U, Target>;
    constexpr std::size_t lanes = batch::size;
    if (n >= lanes) {
      if constexpr (has_streaming_stores<Target>) {
        const StreamedPart part =
            s == StoreStrategy::stream ? streamed_part<lanes, U>(reinterpret_cast<std::uintptr_t>(p), n) : StreamedPart{};
        if (part.last != 0) {
          if (part.first != 0) store_plain_vectors<Target>(p, 0, part.first, vector_at);
          // Every vector of the part is aligned: no test per store. The callable is copied: what
          // it captures (copy_span's source) then stays in registers, where through the caller's
          // reference it was loaded again after every streamed store, which may alias it.
          auto at = vector_at;
          std::size_t i = part.first;
          // Four vectors are loaded ahead of the four streamed before them, so a copy whose
          // destination is just past its source in page offset (Trilu's rows at +16 bytes)
          // never loads right after a store to the same page offset (page_offset_period).
          if (i + 4 * lanes <= part.last) {
            auto a = at(i), b = at(i + lanes), c = at(i + 2 * lanes), d = at(i + 3 * lanes);
            for (; i + 8 * lanes <= part.last; i += 4 * lanes) {
              const auto e = at(i + 4 * lanes), f = at(i + 5 * lanes), g = at(i + 6 * lanes), h = at(i + 7 * lanes);
              stream_store<Target>(p + i, a);
              stream_store<Target>(p + i + lanes, b);
              stream_store<Target>(p + i + 2 * lanes, c);
              stream_store<Target>(p + i + 3 * lanes, d);
              a = e, b = f, c = g, d = h;
            }
            stream_store<Target>(p + i, a);
            stream_store<Target>(p + i + lanes, b);
            stream_store<Target>(p + i + 2 * lanes, c);
            stream_store<Target>(p + i + 3 * lanes, d);
            i += 4 * lanes;
          }
          for (; i < part.last; i += lanes) stream_store<Target>(p + i, at(i));
          if (part.last != n) store_plain_vectors<Target>(p, part.last, n, vector_at);
          return;
        }
      }
      store_plain_vectors<Target>(p, 0, n, vector_at);
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
template <class Target, class U>
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
  fill<Target>(p, n, pattern);
}

// n copies of `pattern` at p by strategy s.
template <class Target, class U>
void fill_span(U* p, std::size_t n, U pattern, StoreStrategy s) {
  static_assert(std::is_unsigned_v<U>);
  if (s == StoreStrategy::rep) {
    rep_fill<Target>(p, n, pattern);
  } else if (s == StoreStrategy::stream && has_streaming_stores<Target>) {
    if constexpr (is_vector_arch<Target>) {
      const xsimd::batch<U, Target> v(pattern);
      // By value: a vector store may alias any memory, so a pattern reached through a
      // reference is loaded again after every store.
      store_span<Target>(p, n, s, [v](std::size_t) { return v; }, [pattern](std::size_t) { return pattern; });
    }
  } else {
    fill<Target>(p, n, pattern);
  }
}

// Parts of a streamed copy read side by side hold at least this many bytes each: each part is a
// stream the prefetchers follow, and a shorter one ends before they have found it.
inline constexpr std::size_t streamed_copy_part_bytes = 4096;

// How far ahead of its reads each part of a streamed copy asks for its input, into L2: the
// four parts together then have about as much on its way as the one pass's 4 KiB (copy_span).
// On the Intel Xeon guest (family 6 model 207) a Trilu 4096 x 8192 written 16 bytes past a line
// (its loads each across two lines) ran at 0.83-0.86 of memcpy in 4 parts asking nothing,
// 0.88-0.94 asking 1 KiB ahead (512 bytes 0.88-0.91, 2 KiB 0.83-0.91); on a line 0.93-1.01
// either way (three rounds alternated, 3 repetitions each).
inline constexpr std::ptrdiff_t streamed_copy_part_ahead_bytes = 1024;

// A streamed copy of n elements as up to `streams` equal parts, one line-aligned group of 4
// vectors of each in turn, so the reads run as that many streams; false (nothing written)
// when fewer than 2 parts of streamed_copy_part_bytes fit or dst is not element-aligned.
template <class Target, class U>
bool copy_streamed_in_parts(U* dst, const U* src, std::size_t n, std::size_t streams) {
  using batch = xsimd::batch<U, Target>;
  constexpr std::size_t lanes = batch::size, group = 4 * lanes;
  constexpr std::size_t ahead = streamed_copy_part_ahead_bytes / sizeof(U);
  const std::size_t parts = std::min(streams, n * sizeof(U) / streamed_copy_part_bytes);
  const auto address = reinterpret_cast<std::uintptr_t>(dst);
  if (parts < 2 || address % sizeof(U) != 0) return false;
  const auto load = [src](std::size_t i) { return batch::load_unaligned(src + i); };
  const auto element = [src](std::size_t i) { return src[i]; };
  // The head up to dst's first line, then parts of whole groups from there (a group is 1 to 4
  // lines, so every part starts on a line), then the tail the parts leave.
  const std::size_t head = elements_to_line<U>(address);
  const std::size_t part = (n - head) / parts / group * group;
  store_span<Target>(dst, head, StoreStrategy::stream, load, element);
  for (std::size_t at = head; at < head + part; at += group) {
    // No part asks past its own end (copy_span says why a copy asks for nothing past its span).
    const bool ask = at + group + ahead <= head + part;
    for (std::size_t k = 0; k < parts; ++k) {
      const std::size_t i = at + k * part;
      if (ask)
        for (std::size_t b = 0; b < group * sizeof(U); b += cache_line_bytes)
          prefetch_ahead<prefetch_to_l2>(src + i, streamed_copy_part_ahead_bytes + static_cast<std::ptrdiff_t>(b));
      const batch a = load(i), b = load(i + lanes), c = load(i + 2 * lanes), d = load(i + 3 * lanes);
      stream_store<Target>(dst + i, a);
      stream_store<Target>(dst + i + lanes, b);
      stream_store<Target>(dst + i + 2 * lanes, c);
      stream_store<Target>(dst + i + 3 * lanes, d);
    }
  }
  const std::size_t done = head + parts * part;
  const U* rest = src + done;
  store_span<Target>(
      dst + done, n - done, StoreStrategy::stream, [rest](std::size_t i) { return batch::load_unaligned(rest + i); },
      [rest](std::size_t i) { return rest[i]; });
  return true;
}

// n elements from src to dst (not overlapping) by strategy s: rep and plain are memcpy (the
// C library's copy, rep movsb on x86 for long runs). A streamed copy whose source comes from
// memory may read `read_streams` parts side by side (copy_streamed_in_parts); 1 reads it in one
// pass, as a copy from cache should.
template <class Target, class U>
void copy_span(U* dst, const U* src, std::size_t n, StoreStrategy s, std::size_t read_streams = 1) {
  if constexpr (is_vector_arch<Target> && has_streaming_stores<Target>) {
    if (s == StoreStrategy::stream) {
      if (read_streams > 1 && copy_streamed_in_parts<Target>(dst, src, n, read_streams)) return;
      using batch = xsimd::batch<U, Target>;
      // One pass. src by value (a vector store may alias it); asked for 4 KiB ahead, as the loads of
      // this loop stalled on memory (DIAGONAL_MATRIX1's Trilu 4096 x 8192 went from 0.71-0.78
      // to 0.77-0.86 of a streaming copy on one thread; 2 and 8 KiB ahead did less; Zen 3), into
      // L2 (prefetch_to_l2: on the Intel guest 0.86-0.92 -> 0.96-0.97 of memcpy, at +16 bytes
      // 0.78-0.80 -> 0.88).
      constexpr std::ptrdiff_t ahead_bytes = 4096;
      constexpr std::size_t ahead = ahead_bytes / sizeof(U), line = cache_line_bytes / sizeof(U);
      // The last 4 KiB asks for nothing: past the span lie lines the caller may never read (a
      // Trilu row's copied run ends where the next row's zeroed run starts, whose input is
      // skipped), and asking for them read up to 4 KiB more per run (a copy of 96 MiB in runs
      // of 0 to 32 KiB took 3-5% less time bounded; Intel guest, out at +16 bytes and +0). The
      // cut is on a line of dst, so no line is written by both halves.
      std::size_t asked = 0;  // dst[0, asked) is written by the loop that asks ahead
      if (n > ahead + 2 * line) {
        asked = n - ahead;
        asked -= reinterpret_cast<std::uintptr_t>(dst + asked) % cache_line_bytes / sizeof(U);
        store_span<Target>(
            dst, asked, s,
            [src](std::size_t i) {
              prefetch_ahead<prefetch_to_l2>(src + i, ahead_bytes);
              return batch::load_unaligned(src + i);
            },
            [src](std::size_t i) { return src[i]; });
      }
      const U* rest = src + asked;
      store_span<Target>(
          dst + asked, n - asked, s, [rest](std::size_t i) { return batch::load_unaligned(rest + i); },
          [rest](std::size_t i) { return rest[i]; });
      return;
    }
  }
  std::memcpy(dst, src, n * sizeof(U));
}

// Vectors a repeated pattern may hold in registers (repeat_span): half of the vector registers
// (AVX-512's 32, NEON's 32; AVX2's and SSE2's 16), the rest left to the loop.
template <class Target>
inline constexpr std::size_t pattern_vectors =
#if defined(__AVX512F__)
    std::is_base_of_v<xsimd::avx512f, Target> ? 16 :
#endif
#if defined(__aarch64__)
    std::is_base_of_v<xsimd::neon64, Target> ? 16 :
#endif
    8;

// Continues the periodic content of p over [from, n) with plain stores (p[i] = p[i % period];
// p[0, from) already holds it, from >= pattern_vectors<Target> vectors): the first
// pattern_vectors vectors are loaded once and stored from registers, when a whole number of
// periods fits them; false (nothing written) otherwise. A store of a loaded vector costs a
// load beside it: copying a 16 KiB block along an output in cache (2 MiB, Zen 4) ran at 0.68
// of memset, stores from registers at 0.97.
template <class Target, class U>
bool repeat_span(U* p, std::size_t from, std::size_t n, std::size_t period) {
  if constexpr (is_vector_arch<Target>) {
    using batch = xsimd::batch<U, Target>;
    constexpr std::size_t count = pattern_vectors<Target>, span = count * batch::size;
    if (span % period != 0 || from < span) return false;
    return [&]<std::size_t... R>(std::index_sequence<R...>) {
      const std::array<batch, count> v{batch::load_unaligned(p + R * batch::size)...};
      std::size_t i = from - from % span;  // the pattern's phase is 0 at every multiple of span
      for (; i + span <= n; i += span) (v[R].store_unaligned(p + i + R * batch::size), ...);
      if (i < n) std::memcpy(p + i, p, (n - i) * sizeof(U));
      return true;
    }(std::make_index_sequence<count>{});
  } else {
    (void)p, (void)from, (void)n, (void)period;
    return false;
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
template <class Target, class K>
std::size_t first_true(const xsimd::batch_bool<K, Target>& b) {
  constexpr std::size_t lanes = xsimd::batch<K, Target>::size;
#if defined(__AVX512F__)
  if constexpr (std::is_base_of_v<xsimd::avx512f, Target>)
    return lowest_lane(static_cast<typename xsimd::batch_bool<K, Target>::register_type>(b), 1, lanes);
  else
#endif
#if defined(__AVX2__)
  if constexpr (std::is_base_of_v<xsimd::avx2, Target>)
    return lowest_lane(static_cast<std::uint32_t>(_mm256_movemask_epi8(static_cast<__m256i>(b))), sizeof(K), lanes);
  else
#endif
#if defined(__SSE2__)
  if constexpr (std::is_base_of_v<xsimd::sse2, Target>)
    return lowest_lane(static_cast<std::uint32_t>(_mm_movemask_epi8(static_cast<__m128i>(b))), sizeof(K), lanes);
  else
#endif
  {
    alignas(64) K flags[lanes];
    xsimd::select(b, xsimd::batch<K, Target>(K(1)), xsimd::batch<K, Target>(K(0))).store_aligned(flags);
    for (std::size_t i = 0; i < lanes; ++i)
      if (flags[i] != 0) return i;
    return lanes;
  }
}

// One bit per lane (bit i: lane i is true), for up to 64 lanes: the mask register on AVX-512,
// a movemask on SSE2 and AVX2 (16-bit lanes packed to bytes first), memory elsewhere.
template <class Target, class K>
std::uint64_t lane_bits(const xsimd::batch_bool<K, Target>& b) {
  constexpr std::size_t lanes = xsimd::batch<K, Target>::size;
#if defined(__AVX512F__)
  if constexpr (std::is_base_of_v<xsimd::avx512f, Target>)
    return static_cast<std::uint64_t>(static_cast<typename xsimd::batch_bool<K, Target>::register_type>(b));
  else
#endif
#if defined(__AVX2__)
  if constexpr (std::is_base_of_v<xsimd::avx2, Target> && sizeof(K) == 4) {
    return static_cast<std::uint32_t>(_mm256_movemask_ps(_mm256_castsi256_ps(static_cast<__m256i>(b))));
  } else if constexpr (std::is_base_of_v<xsimd::avx2, Target> && sizeof(K) == 2) {
    const __m256i i = static_cast<__m256i>(b);
    const auto m = static_cast<std::uint32_t>(_mm256_movemask_epi8(_mm256_packs_epi16(i, i)));
    return (m & 0xFFu) | ((m >> 8) & 0xFF00u);  // the pack works within 128-bit halves
  } else
#endif
#if defined(__SSE2__)
  if constexpr (std::is_base_of_v<xsimd::sse2, Target> && sizeof(K) == 4) {
    return static_cast<std::uint32_t>(_mm_movemask_ps(_mm_castsi128_ps(static_cast<__m128i>(b))));
  } else if constexpr (std::is_base_of_v<xsimd::sse2, Target> && sizeof(K) == 2) {
    const __m128i i = static_cast<__m128i>(b);
    return static_cast<std::uint32_t>(_mm_movemask_epi8(_mm_packs_epi16(i, i))) & 0xFFu;
  } else
#endif
  {
    alignas(64) K flags[lanes];
    xsimd::select(b, xsimd::batch<K, Target>(K(1)), xsimd::batch<K, Target>(K(0))).store_aligned(flags);
    std::uint64_t bits = 0;
    for (std::size_t i = 0; i < lanes; ++i) bits |= static_cast<std::uint64_t>(flags[i] != 0) << i;
    return bits;
  }
}

// The larger (max_of) or smaller (min_of) of two integer vectors, lane by lane: the native
// instruction on AVX2, on AVX-512 (its masked form: GCC 12 warns,
// -Wmaybe-uninitialized, an error here, inside its own header code for the unmasked
// _mm512_max_epi32, and the mask of all lanes is the same operation), on SSE2's signed 16-bit
// lanes and on NEON (xsimd's max and min are native there); elsewhere a compare-and-select
// (SSE2 has no 32-bit or unsigned 16-bit max).
template <class Target, class K, bool Max>
xsimd::batch<K, Target> extreme_of(const xsimd::batch<K, Target>& a, const xsimd::batch<K, Target>& b) {
  static_assert(std::is_integral_v<K>);
  using B [[maybe_unused]] = xsimd::batch<K, Target>;  // unused where no intrinsic applies
  [[maybe_unused]] constexpr bool is_signed = std::is_signed_v<K>;
#if defined(__AVX512BW__)
  if constexpr (std::is_base_of_v<xsimd::avx512bw, Target> && sizeof(K) == 2) {
    const __mmask32 all = 0xFFFFFFFFu;
    if constexpr (Max) return B(is_signed ? _mm512_maskz_max_epi16(all, a, b) : _mm512_maskz_max_epu16(all, a, b));
    else return B(is_signed ? _mm512_maskz_min_epi16(all, a, b) : _mm512_maskz_min_epu16(all, a, b));
  }
#endif
#if defined(__AVX512F__)
  // 32- and 64-bit lanes are AVX-512F; the compare-and-select below ran HARDMAX's long rows in
  // cache at 0.62 of memcpy against AVX2's 0.79 (a compare into a mask and a blend, twice the
  // latency of one max, on the chain each accumulator waits on).
  if constexpr (std::is_base_of_v<xsimd::avx512f, Target> && sizeof(K) == 4) {
    const __mmask16 all = 0xFFFFu;
    if constexpr (Max) return B(is_signed ? _mm512_maskz_max_epi32(all, a, b) : _mm512_maskz_max_epu32(all, a, b));
    else return B(is_signed ? _mm512_maskz_min_epi32(all, a, b) : _mm512_maskz_min_epu32(all, a, b));
  }
  if constexpr (std::is_base_of_v<xsimd::avx512f, Target> && sizeof(K) == 8) {
    const __mmask8 all = 0xFFu;
    if constexpr (Max) return B(is_signed ? _mm512_maskz_max_epi64(all, a, b) : _mm512_maskz_max_epu64(all, a, b));
    else return B(is_signed ? _mm512_maskz_min_epi64(all, a, b) : _mm512_maskz_min_epu64(all, a, b));
  }
#endif
#if defined(__AVX2__)
  if constexpr (std::is_base_of_v<xsimd::avx2, Target> && sizeof(K) == 4) {
    if constexpr (Max) return B(is_signed ? _mm256_max_epi32(a, b) : _mm256_max_epu32(a, b));
    else return B(is_signed ? _mm256_min_epi32(a, b) : _mm256_min_epu32(a, b));
  }
  if constexpr (std::is_base_of_v<xsimd::avx2, Target> && sizeof(K) == 2) {
    if constexpr (Max) return B(is_signed ? _mm256_max_epi16(a, b) : _mm256_max_epu16(a, b));
    else return B(is_signed ? _mm256_min_epi16(a, b) : _mm256_min_epu16(a, b));
  }
#endif
#if defined(__SSE2__)
  if constexpr (std::is_base_of_v<xsimd::sse2, Target> && sizeof(K) == 2 && is_signed)
    return B(Max ? _mm_max_epi16(a, b) : _mm_min_epi16(a, b));
#endif
#if defined(__aarch64__)
  if constexpr (std::is_base_of_v<xsimd::neon64, Target> && sizeof(K) <= 4) return Max ? xsimd::max(a, b) : xsimd::min(a, b);
#endif
  if constexpr (Max) return xsimd::select(b > a, b, a);
  else return xsimd::select(b < a, b, a);
}
template <class Target, class K>
xsimd::batch<K, Target> max_of(const xsimd::batch<K, Target>& a, const xsimd::batch<K, Target>& b) {
  return extreme_of<Target, K, true>(a, b);
}
template <class Target, class K>
xsimd::batch<K, Target> min_of(const xsimd::batch<K, Target>& a, const xsimd::batch<K, Target>& b) {
  return extreme_of<Target, K, false>(a, b);
}

// Whether max_of and min_of of signed 16-bit lanes and max_of of unsigned ones are one
// instruction each (HARDMAX's FLOAT16 raw-bit extremes): AVX2, AVX-512BW and NEON, not SSE2.
template <class Target, class K>
inline constexpr bool native_16bit_extremes = sizeof(K) == 2 && (
#if defined(__AVX512BW__)
    std::is_base_of_v<xsimd::avx512bw, Target> ||
#endif
#if defined(__AVX2__)
    std::is_base_of_v<xsimd::avx2, Target> ||
#endif
#if defined(__aarch64__)
    std::is_base_of_v<xsimd::neon64, Target> ||
#endif
    false);

// Whether gather_32 is one instruction: AVX2 and AVX-512. Elsewhere it would load lane by
// lane, and a caller's scalar loop is as good.
template <class Target>
inline constexpr bool native_gather_32 = avx2_or_avx512<Target>;

// Lane i: the 32 bits at byte p + offset[i] * Scale (only where native_gather_32<Target>), one
// instruction. Scale is the size of the elements the offsets count, 4 for 32-bit elements, 2
// to read two neighbouring 16-bit elements at once. By the intrinsics: xsimd 8.1's
// batch::gather never reaches its AVX2 or AVX-512 kernels (their enable_if does not match) and
// inserts lane by lane, which cost HARDMAX's gathered pass resolution (hardmax_columns.hpp)
// most of its gain on AVX-512. AVX-512 takes the masked form with every lane set: the plain
// one draws GCC 12's -Wmaybe-uninitialized inside its header.
template <class Target, int Scale = sizeof(std::int32_t)>
xsimd::batch<std::int32_t, Target> gather_32([[maybe_unused]] const void* p,
                                             [[maybe_unused]] const xsimd::batch<std::int32_t, Target>& offset) {
  static_assert(native_gather_32<Target>);
  static_assert(Scale == 1 || Scale == 2 || Scale == 4 || Scale == 8);
  using B = xsimd::batch<std::int32_t, Target>;
#if defined(__AVX512F__)
  if constexpr (std::is_base_of_v<xsimd::avx512f, Target>)
    return B(_mm512_mask_i32gather_epi32(_mm512_setzero_si512(), __mmask16(0xFFFF), offset, p, Scale));
  else
#endif
#if defined(__AVX2__)
  if constexpr (std::is_base_of_v<xsimd::avx2, Target>)
    return B(_mm256_i32gather_epi32(static_cast<const int*>(p), offset, Scale));
  else
#endif
    static_assert(!sizeof(B*), "native_gather_32 holds only for the targets above");
}

// The larger of two float vectors without NaNs, lane by lane (on a NaN, or on -0.0 against
// +0.0, either operand). AVX-512 takes the zero-masked form: xsimd::max's _mm512_max_ps draws
// the same GCC 12 warning as _mm512_max_epi32 above, and the mask of all lanes is the same max.
template <class Target, class F>
xsimd::batch<F, Target> max_of_numbers(const xsimd::batch<F, Target>& a, const xsimd::batch<F, Target>& b) {
  static_assert(std::is_floating_point_v<F>);
#if defined(__AVX512F__)
  if constexpr (std::is_base_of_v<xsimd::avx512f, Target> && sizeof(F) == 4)
    return xsimd::batch<F, Target>(_mm512_maskz_max_ps(__mmask16(0xFFFF), a, b));
  if constexpr (std::is_base_of_v<xsimd::avx512f, Target> && sizeof(F) == 8)
    return xsimd::batch<F, Target>(_mm512_maskz_max_pd(__mmask8(0xFF), a, b));
#endif
  return xsimd::max(a, b);
}

// The largest lane, through memory (a fallback where no native lane swap exists).
template <class Target, class K>
K max_lane(const xsimd::batch<K, Target>& v) {
  constexpr std::size_t lanes = xsimd::batch<K, Target>::size;
  alignas(64) K lane[lanes];
  v.store_aligned(lane);
  K m = lane[0];
  for (std::size_t i = 1; i < lanes; ++i) m = lane[i] > m ? lane[i] : m;
  return m;
}

// Whether swap_lanes<S> on K lanes is one native shuffle: 32- and 64-bit lanes on x86, 16-bit
// lanes only with AVX512BW. Elsewhere xsimd 8.1 would emulate it, and max_lane is cheaper.
template <class Target, class K>
inline constexpr bool native_swizzle =
#if defined(__AVX512BW__)
    std::is_base_of_v<xsimd::avx512bw, Target> ||
#endif
#if defined(__AVX512F__)
    (sizeof(K) >= 4 && std::is_base_of_v<xsimd::avx512f, Target>) ||
#endif
#if defined(__AVX2__)
    (sizeof(K) >= 4 && std::is_base_of_v<xsimd::avx2, Target>) ||
#endif
#if defined(__SSE2__)
    (sizeof(K) >= 4 && std::is_base_of_v<xsimd::sse2, Target>) ||
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

// Whether swap_lanes<S> on K lanes is cheap: native, or 16-bit lanes where 32-bit swaps are
// native (FLOAT16 keys on SSE2 and AVX2), since two 16-bit lanes are one 32-bit lane.
template <class Target, class K>
inline constexpr bool cheap_lane_swaps =
    native_swizzle<Target, K> || (sizeof(K) == 2 && native_swizzle<Target, std::uint32_t>);

// v with each lane i moved to lane i ^ S (only where cheap_lane_swaps<Target, K>). On AVX-512
// the zero-masking permute with every lane selected: GCC 12's plain _mm512_permutexvar_* (what
// xsimd::swizzle calls) reports -Wmaybe-uninitialized inside its own header, an error here.
// 16-bit lanes without a native swap: at distance S >= 2 a 32-bit swap at S / 2, at distance 1
// a rotation of every 32-bit lane by 16 bits.
template <std::size_t S, class Target, class K>
xsimd::batch<K, Target> swap_lanes(const xsimd::batch<K, Target>& v) {
  using B = xsimd::batch<K, Target>;
  using Index = xsimd::batch<std::make_unsigned_t<K>, Target>;
  if constexpr (!native_swizzle<Target, K>) {
    static_assert(sizeof(K) == 2 && native_swizzle<Target, std::uint32_t>);
    using W = xsimd::batch<std::uint32_t, Target>;
    const W w = xsimd::bitwise_cast<W>(v);
    if constexpr (S == 1) return xsimd::bitwise_cast<B>((w << 16) | (w >> 16));
    else return xsimd::bitwise_cast<B>(swap_lanes<S / 2>(w));
  } else
#if defined(__AVX512F__)
  if constexpr (std::is_base_of_v<xsimd::avx512f, Target>) {
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
// where swaps are cheap, max_lane elsewhere.
template <class Target, class K, std::size_t S = xsimd::batch<K, Target>::size / 2>
xsimd::batch<K, Target> spread_max(const xsimd::batch<K, Target>& v) {
  if constexpr (!cheap_lane_swaps<Target, K>) {
    return xsimd::batch<K, Target>(max_lane<Target>(v));
  } else if constexpr (S == 0) {
    return v;
  } else {
    return spread_max<Target, K, S / 2>(max_of<Target>(v, swap_lanes<S>(v)));
  }
}


// Lane r of the result is the largest lane of v[r], for `lanes` vectors v[0..lanes) (v is
// overwritten): a transposing butterfly. Each level pairs v[r] with v[r + S]; the lanes whose
// bit S is clear carry v[r]'s partial maxima, the others v[r + S]'s, so a level costs two
// blends, one lane swap and one maximum for two vectors, and log2(lanes) levels leave lane r
// holding row r: about four operations per vector instead of a butterfly per vector. Only where
// native_swizzle<Target, K>.
template <std::size_t S>
struct BitClear {
  static constexpr bool get(std::size_t i, std::size_t) { return (i & S) == 0; }
};

// a in the lanes whose bit S is clear, b in the others. On AVX-512 a masked blend: xsimd 8.1
// splits 16-bit selects into halves there, and GCC 12 then reports -Wuninitialized inside its
// own _mm512_extractf64x4_pd header code.
template <std::size_t S, class Target, class K>
xsimd::batch<K, Target> blend_by_bit(const xsimd::batch<K, Target>& a, const xsimd::batch<K, Target>& b) {
  using B = xsimd::batch<K, Target>;
#if defined(__AVX512F__)
  if constexpr (std::is_base_of_v<xsimd::avx512f, Target>) {
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
template <class Target, class K, std::size_t S = xsimd::batch<K, Target>::size / 2>
[[gnu::always_inline]] inline xsimd::batch<K, Target> lane_maxima(xsimd::batch<K, Target>* v) {
  using B = xsimd::batch<K, Target>;
  if constexpr (S == 0) {
    return v[0];
  } else {
    for (std::size_t r = 0; r < S; ++r) {
      const B a = v[r], b = v[r + S];
      v[r] = max_of<Target>(blend_by_bit<S>(a, b), swap_lanes<S>(blend_by_bit<S>(b, a)));
    }
    return lane_maxima<Target, K, S / 2>(v);
  }
}

}  // namespace refops::simd::inline REFOPS_KERNEL_ABI
