// HARDMAX / HARDMAX1 typed kernels (SPEC section 4).
//
// Semantics, on every path:
// - A group is every element that shares all kept (non-reduced) coordinates. The output is 1 at
//   the group's first maximum and 0 elsewhere: exactly one 1 per group. "First" is the smallest
//   row-major index over the reduced axes taken in increasing dimension order, whatever the
//   order of `axes` (ReduceArgMax with DML_AXIS_DIRECTION_INCREASING).
// - Ties go to the first, including -0.0 against +0.0 (they compare equal). Infinities compare
//   as usual.
// - NaN, NanMode::propagate: NaN beats every number and the first NaN wins.
//   NanMode::ignore: NaN never wins; an all-NaN group puts its 1 at its first element.
// - The 1 and the 0 are those of T (FLOAT16 1.0 is 0x3C00). Output padding is never written.
// - The kernels assume a valid description (the compiled layer validates): same sizes, axes
//   distinct and in range, no overlap.
//
// Two implementations of that one rule:
// - The scalar reference (simd::scalar_arch, and every shape the vector paths do not take)
//   compares values as SPEC words it: beats(candidate, best) with the NaN rule spelled out and
//   FLOAT16 widened to float (exact).
// - The vector paths compare integer keys: the bits of a float turned into a signed integer
//   whose order is the value order (negatives as -magnitude, so -0.0 and +0.0 share key 0), and
//   every NaN mapped to one key outside the numbers' range (the largest key for propagate, the
//   smallest for ignore). Then "first maximum" is a plain strict greater-than on integers: no
//   NaN operand-order quirk (xsimd 8.1's max on x86), and FLOAT16 runs 16-bit lanes without a
//   widening step (still exact: the key order is the value order).
//
// Shapes (after folding adjacent dimensions of the same role, row-major order kept):
// - rows: the innermost dimension is reduced and contiguous in the input. Each group is one or
//   more contiguous rows; a block-max pass remembers the first block whose maximum strictly
//   beats the best so far, then one rescan of that block locates the first maximum, and the
//   group's output rows (zeros and one 1) are written at once while they are hot. Two common
//   cases have their own loops: a group that is one row of at most four whole vectors (rows of
//   16, say) keeps its keys in registers, spreads the maximum over the lanes with a butterfly
//   and stores compare-and-select vectors; a group that is one longer row writes the previous
//   row's output block by block while it reads this row, so reads and writes overlap.
// - columns: the innermost dimension is kept and contiguous in input and output (XNNPACK's
//   argmax-pool shape): lanes are groups, a strict greater-than per lane walks the reduced
//   elements in row-major order keeping the first index, then each output row is written by
//   comparing the winning index with the row's position. No transpose, no copy of the input.
// - anything else: the scalar reference.
#pragma once

#include <refops/kernels/abi.hpp>

#include <algorithm>
#include <bit>
#include <cassert>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <limits>
#include <type_traits>

#include <refops/data_type.hpp>
#include <refops/dims.hpp>
#include <refops/nan_mode.hpp>
#include <refops/tensor_view.hpp>
#include <refops/kernels/cache_info.hpp>
#include <refops/kernels/loop_nest.hpp>
#include <refops/kernels/simd.hpp>

namespace refops::kernels::inline REFOPS_KERNEL_ABI::hardmax_detail {

// The element types HARDMAX runs on: bits U, key K (same width), the bits of 1 and of +inf.
template <class T> struct Traits;
template <> struct Traits<float> {
  using U = std::uint32_t; using K = std::int32_t;
  static constexpr U one = 0x3F800000u, inf = 0x7F800000u;
};
template <> struct Traits<float16> {
  using U = std::uint16_t; using K = std::int16_t;
  static constexpr U one = 0x3C00u, inf = 0x7C00u;
};
template <> struct Traits<double> {
  using U = std::uint64_t; using K = std::int64_t;
  static constexpr U one = 0x3FF0000000000000u, inf = 0x7FF0000000000000u;
};

inline constexpr int kept_role = 0;
inline constexpr int reduced_role = 1;

// ---- The scalar reference: SPEC's comparison, literally. ----------------------------------

template <class T>
auto widen(T v) {
  if constexpr (std::is_same_v<T, float16>) return static_cast<float>(v);  // exact
  else return v;
}

// Does `candidate`, later in the group, displace `best`? Strictly greater, so an equal value
// (or -0.0 after +0.0) never displaces an earlier one.
template <class T>
bool beats(T candidate, T best, NanMode mode) {
  const auto c = widen(candidate), b = widen(best);
  const bool c_nan = c != c, b_nan = b != b;
  if (mode == NanMode::propagate) return c > b || (c_nan && !b_nan);  // the first NaN stays
  return c > b || (b_nan && !c_nan);  // a number displaces a leading NaN; NaN never wins
}

// ---- Keys for the vector paths. ------------------------------------------------------------

template <class T>
typename Traits<T>::K nan_key(NanMode mode) {
  using K = typename Traits<T>::K;
  return mode == NanMode::propagate ? std::numeric_limits<K>::max() : std::numeric_limits<K>::min();
}

template <class T>
typename Traits<T>::K key_of_bits(typename Traits<T>::U bits, typename Traits<T>::K nan) {
  using U = typename Traits<T>::U;
  using K = typename Traits<T>::K;
  const U magnitude = static_cast<U>(bits & (std::numeric_limits<U>::max() >> 1));
  if (magnitude > Traits<T>::inf) return nan;
  const K m = static_cast<K>(magnitude);
  return (bits >> (8 * sizeof(U) - 1)) != 0 ? static_cast<K>(-m) : m;
}

template <class T>
typename Traits<T>::K key_at(const T* p, typename Traits<T>::K nan) {
  return key_of_bits<T>(simd::to_bits(*p), nan);
}

// The same key, one vector of raw bits at a time.
template <class Arch, class T, class K = typename Traits<T>::K>
xsimd::batch<K, Arch> key_of(const xsimd::batch<K, Arch>& bits, const xsimd::batch<K, Arch>& nan) {
  using B = xsimd::batch<K, Arch>;
  const B magnitude = bits & B(std::numeric_limits<K>::max());
  const B key = xsimd::select(bits < B(K(0)), B(K(0)) - magnitude, magnitude);
  return xsimd::select(magnitude > B(static_cast<K>(Traits<T>::inf)), nan, key);
}

template <class Arch, class T, class K = typename Traits<T>::K>
xsimd::batch<K, Arch> load_key(const T* p, const xsimd::batch<K, Arch>& nan) {
  return key_of<Arch, T>(xsimd::batch<K, Arch>::load_unaligned(reinterpret_cast<const K*>(p)), nan);
}

// The larger of two key vectors. Written as compare-and-select rather than xsimd::max: keys are
// integers so both are exact, but GCC 12 warns (-Wmaybe-uninitialized, an error here) inside
// its own _mm512_max_epi32 header code.
template <class Arch, class K>
xsimd::batch<K, Arch> max_of(const xsimd::batch<K, Arch>& a, const xsimd::batch<K, Arch>& b) {
  return xsimd::select(b > a, b, a);
}

// The lane of the lowest set bit of a mask with `bits_per_lane` bits per lane; `lanes` if none.
inline std::size_t lowest_lane(std::uint64_t mask, std::size_t bits_per_lane, std::size_t lanes) {
  return mask == 0 ? lanes : static_cast<std::size_t>(std::countr_zero(mask)) / bits_per_lane;
}

// The first lane that is true, or the lane count when none is. xsimd 8.1 has no
// batch_bool::mask(), so each x86 level reads its own mask register.
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

// The largest lane (xsimd 8.1 has no reduce_max). Called once per block that beats the best
// so far, which is rare after the first few blocks of a group.
template <class Arch, class K>
K max_lane(const xsimd::batch<K, Arch>& v) {
  constexpr std::size_t lanes = xsimd::batch<K, Arch>::size;
  alignas(64) K lane[lanes];
  v.store_aligned(lane);
  K m = lane[0];
  for (std::size_t i = 1; i < lanes; ++i) m = lane[i] > m ? lane[i] : m;
  return m;
}

// ---- The canonical problem. -----------------------------------------------------------------

// Operand 0 is the input, operand 1 the output; strides in elements.
struct Plan {
  simd::LoopNest<2> all;      // every dimension, folded, roles kept / reduced
  simd::LoopNest<2> kept;     // the kept dimensions in order: one group per coordinate
  simd::LoopNest<2> reduced;  // the reduced dimensions in order: a group's elements, row-major
  std::uint64_t group_size = 1;
};

template <class T>
Plan make_plan(const TensorView<const T>& input, const TensorView<T>& output, const Dims& axes) {
  unsigned reduced_mask = 0;
  for (std::uint32_t a : axes) reduced_mask |= 1u << a;
  simd::LoopNest<2> nest;
  for (std::size_t d = 0; d < input.rank(); ++d)
    nest.push(input.sizes()[d],
              {static_cast<std::ptrdiff_t>(input.strides()[d]), static_cast<std::ptrdiff_t>(output.strides()[d])},
              ((reduced_mask >> d) & 1u) != 0 ? reduced_role : kept_role);
  Plan plan;
  plan.all = simd::canonicalize(nest);
  simd::LoopNest<2> kept, reduced;
  for (std::size_t d = 0; d < plan.all.rank; ++d) {
    const std::array<std::ptrdiff_t, 2> s{plan.all.strides[0][d], plan.all.strides[1][d]};
    (plan.all.role[d] == reduced_role ? reduced : kept).push(plan.all.sizes[d], s);
  }
  // Reduced dimensions separated only by kept ones may now fold; the order stays row-major.
  plan.kept = simd::canonicalize(kept);
  plan.reduced = simd::canonicalize(reduced);
  for (std::size_t d = 0; d < plan.reduced.rank; ++d) plan.group_size *= plan.reduced.sizes[d];
  return plan;
}

// ---- The scalar reference path. ---------------------------------------------------------------

template <class T>
void run_reference(const Plan& plan, const T* in, T* out_elements, NanMode mode) {
  using U = typename Traits<T>::U;
  U* out = reinterpret_cast<U*>(out_elements);
  simd::for_each_offset(plan.kept, plan.kept.rank, [&](const std::array<std::ptrdiff_t, 2>& group) {
    const T* g = in + group[0];
    T best = g[0];
    std::uint64_t best_index = 0, index = 0;
    simd::for_each_offset(plan.reduced, plan.reduced.rank, [&](const std::array<std::ptrdiff_t, 2>& e) {
      if (index != 0 && beats(g[e[0]], best, mode)) {
        best = g[e[0]];
        best_index = index;
      }
      ++index;
    });
    index = 0;
    simd::for_each_offset(plan.reduced, plan.reduced.rank, [&](const std::array<std::ptrdiff_t, 2>& e) {
      out[group[1] + e[1]] = index++ == best_index ? Traits<T>::one : U{0};
    });
  });
}

// ---- Vector paths. ------------------------------------------------------------------------------

// Calls f(input offset, output offset) for every group: the innermost kept dimension is a
// plain loop, so short groups do not pay for the general coordinate walk.
template <class F>
void for_each_group(const simd::LoopNest<2>& kept, F&& f) {
  if (kept.rank == 0) return f(std::ptrdiff_t{0}, std::ptrdiff_t{0});
  const std::size_t inner = kept.rank - 1;
  const std::size_t n = kept.sizes[inner];
  const std::ptrdiff_t in_step = kept.strides[0][inner], out_step = kept.strides[1][inner];
  simd::for_each_offset(kept, inner, [&](const std::array<std::ptrdiff_t, 2>& base) {
    std::ptrdiff_t i = base[0], o = base[1];
    for (std::size_t j = 0; j < n; ++j, i += in_step, o += out_step) f(i, o);
  });
}

template <class Arch, class T>
struct Vector {
  using U = typename Traits<T>::U;
  using K = typename Traits<T>::K;
  using B = xsimd::batch<K, Arch>;
  static constexpr std::size_t lanes = B::size;
  // Rows path: elements per block. Each group rescans one block (to locate its first
  // maximum), so a small block keeps that short; a block costs one vector compare with the
  // best so far, and a horizontal maximum only when it beats it (rare after the first few).
  static constexpr std::size_t block = 1024 / sizeof(T);
  // Columns path: lanes of per-group state (key and winning index) kept in L1.
  static constexpr std::size_t tile = 8192 / sizeof(T);

  // ---- rows ----

  // Updates (best, where) with one contiguous block: `where` moves only when the block's
  // maximum strictly beats `best`.
  static bool scan_block(const T* p, std::size_t n, K nan_scalar, K& best) {
    const K* q = reinterpret_cast<const K*>(p);
    const B nan(nan_scalar);
    std::size_t i = 0;
    K block_best = best;
    if (n >= lanes) {
      // Two accumulators, so each max does not wait on the previous one.
      B a0 = load_key<Arch, T>(p, nan), a1 = a0;
      for (i = lanes; i + 2 * lanes <= n; i += 2 * lanes) {
        // Rows of a page or so start on a page the hardware prefetcher has not followed into;
        // asking 2 KiB ahead keeps the next row on its way while this one is scanned.
        __builtin_prefetch(reinterpret_cast<const char*>(q + i) + 2048);
        __builtin_prefetch(reinterpret_cast<const char*>(q + i) + 2048 + 64);
        a0 = max_of<Arch>(a0, key_of<Arch, T>(B::load_unaligned(q + i), nan));
        a1 = max_of<Arch>(a1, key_of<Arch, T>(B::load_unaligned(q + i + lanes), nan));
      }
      for (; i + lanes <= n; i += lanes) a0 = max_of<Arch>(a0, key_of<Arch, T>(B::load_unaligned(q + i), nan));
      a0 = max_of<Arch>(a0, a1);
      if (xsimd::any(a0 > B(best))) block_best = max_lane<Arch>(a0);
    }
    for (; i < n; ++i) {
      const K k = key_of_bits<T>(simd::to_bits(p[i]), nan_scalar);
      block_best = k > block_best ? k : block_best;
    }
    if (block_best > best) {
      best = block_best;
      return true;
    }
    return false;
  }

  // Index in the block of the first element whose key is `best` (the block holds one).
  static std::size_t locate(const T* p, std::size_t n, K nan_scalar, K best) {
    const K* q = reinterpret_cast<const K*>(p);
    const B nan(nan_scalar);
    const B target(best);
    std::size_t i = 0;
    for (; i + lanes <= n; i += lanes) {
      const std::size_t lane = first_true<Arch>(key_of<Arch, T>(B::load_unaligned(q + i), nan) == target);
      if (lane < lanes) return i + lane;
    }
    for (; i < n; ++i)
      if (key_at(p + i, nan_scalar) == best) return i;
    assert(false && "the best block holds its maximum");
    return 0;
  }

  // One output row: zeros, and the 1 at `one_at` when it is inside the row. With streaming
  // stores, the 64-byte line that holds the 1 gets normal stores: the line is written whole by
  // one kind of store, so no streamed line is read back for ownership.
  static void write_row(U* p, std::ptrdiff_t stride, std::size_t n, std::size_t one_at, bool streaming) {
    if (stride != 1) {
      for (std::size_t i = 0; i < n; ++i) p[static_cast<std::ptrdiff_t>(i) * stride] = U{0};
      if (one_at < n) p[static_cast<std::ptrdiff_t>(one_at) * stride] = Traits<T>::one;
      return;
    }
    if (!streaming) {
      simd::fill<Arch>(p, n, U{0});
    } else if (one_at >= n) {
      simd::stream_fill<Arch>(p, n, U{0});
    } else {
      constexpr std::size_t line = 64 / sizeof(U);
      const std::size_t misalign = (reinterpret_cast<std::uintptr_t>(p + one_at) % 64) / sizeof(U);
      const std::size_t begin = one_at >= misalign ? one_at - misalign : 0;
      const std::size_t end = std::min(n, one_at + line - misalign);
      simd::stream_fill<Arch>(p, begin, U{0});
      simd::fill<Arch>(p + begin, end - begin, U{0});
      simd::stream_fill<Arch>(p + end, n - end, U{0});
    }
    if (one_at < n) p[one_at] = Traits<T>::one;
  }

  // ---- short rows: a group that is one row of at most four whole vectors ----
  //
  // The keys stay in registers from the maximum to the output, and nothing goes through memory
  // but the input and output rows: the row's maximum is spread to every lane by a butterfly
  // (log2(lanes) swizzles and maxima, no store-to-array), the first lane equal to it is the
  // winner, and each output vector is a compare-and-select of the lane index against it, stored
  // once (streamed for large outputs). Rows of 16 FLOAT32 on AVX-512 are one vector per row.

  // Swizzles whose xsimd 8.1 implementation is one native shuffle: 32- and 64-bit lanes on x86,
  // 16-bit lanes only with AVX512BW. Elsewhere the horizontal maximum goes through memory.
  static constexpr bool native_swizzle =
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

  using Index = xsimd::batch<std::make_unsigned_t<K>, Arch>;
  template <std::size_t S> struct XorLane {
    static constexpr std::size_t get(std::size_t i, std::size_t) { return i ^ S; }
  };
  struct LaneNumber {
    static constexpr std::size_t get(std::size_t i, std::size_t) { return i; }
  };

  // Every lane gets the largest lane of v: lanes swap with their partner at distance S, S/2, ...
  template <std::size_t S = lanes / 2>
  static B spread_max(const B& v) {
    if constexpr (S == 0) {
      return v;
    } else {
      return spread_max<S / 2>(max_of<Arch>(v, swap_lanes<S>(v)));
    }
  }

  // v with each lane i moved to lane i ^ S. On AVX-512 the zero-masking permute with every
  // lane selected: GCC 12's plain _mm512_permutexvar_* (what xsimd::swizzle calls) reports
  // -Wmaybe-uninitialized inside its own header, an error here.
  template <std::size_t S>
  static B swap_lanes(const B& v) {
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
      return xsimd::swizzle(v, xsimd::make_batch_constant<Index, XorLane<S>>());
    }
  }

  static B spread_max_any(const B& v) {
    if constexpr (native_swizzle) return spread_max(v);
    else return B(max_lane<Arch>(v));
  }

  // Stores one output vector: streamed when asked and the address is vector-aligned (the
  // vector then covers whole 64-byte lines or shares them only with other streamed vectors).
  static void store_output(U* p, const B& v, bool streaming) {
    if constexpr (simd::has_streaming_stores<Arch>) {
      if (streaming && reinterpret_cast<std::uintptr_t>(p) % sizeof(B) == 0) {
        simd::stream_store<Arch>(reinterpret_cast<K*>(p), v);
        return;
      }
    }
    v.store_unaligned(reinterpret_cast<K*>(p));
  }

  // One output vector: T's 1 in lane `at` (when at < lanes) and 0 elsewhere.
  static B one_hot_vector(std::size_t at) {
    const B lane_number = xsimd::make_batch_constant<B, LaneNumber>();
    const K target = at < lanes ? static_cast<K>(at) : K(-1);  // -1 is no lane
    return xsimd::select(lane_number == B(target), B(static_cast<K>(Traits<T>::one)), B(K(0)));
  }

  static bool is_short_row(std::size_t n) { return n % lanes == 0 && n <= 4 * lanes; }

  // One group that is one contiguous row of n = m * lanes elements (is_short_row(n)), written
  // to a contiguous output row.
  static void short_row(const T* p, U* o, std::size_t n, const B& nan, bool streaming) {
    const std::size_t m = n / lanes;
    B k[4];
    B top = k[0] = load_key<Arch, T>(p, nan);
    for (std::size_t i = 1; i < m; ++i) top = max_of<Arch>(top, k[i] = load_key<Arch, T>(p + i * lanes, nan));
    top = spread_max_any(top);
    bool found = false;
    for (std::size_t i = 0; i < m; ++i) {
      const std::size_t lane = found ? lanes : first_true<Arch>(k[i] == top);
      found = found || lane < lanes;
      store_output(o + i * lanes, one_hot_vector(lane), streaming);
    }
  }

  // ---- long rows, one row per group: the previous row's output is written while this row is
  // read, one block behind, so reads and (streamed) writes overlap instead of alternating a
  // read-only phase with a write-only one. Every whole output vector is a compare-and-select
  // with the 1 already in place, so no line is written by two kinds of store.

  static constexpr std::size_t no_one = ~std::size_t{0};

  // n output elements at p: zeros, and the 1 at `one_at` when it is below n (no_one: none).
  static void write_part(U* p, std::size_t n, std::size_t one_at, bool streaming) {
    K* q = reinterpret_cast<K*>(p);
    const auto scalar = [&](std::size_t i) { q[i] = i == one_at ? static_cast<K>(Traits<T>::one) : K(0); };
    std::size_t i = 0;
    if constexpr (simd::has_streaming_stores<Arch>) {
      const auto address = reinterpret_cast<std::uintptr_t>(q);
      if (streaming && address % sizeof(K) == 0) {
        const std::size_t head = ((sizeof(B) - address % sizeof(B)) % sizeof(B)) / sizeof(K);
        for (; i < head && i < n; ++i) scalar(i);
        for (; i + lanes <= n; i += lanes)
          simd::stream_store<Arch>(q + i, one_hot_vector(one_at >= i ? one_at - i : no_one));
      }
    }
    for (; i + lanes <= n; i += lanes) one_hot_vector(one_at >= i ? one_at - i : no_one).store_unaligned(q + i);
    for (; i < n; ++i) scalar(i);
  }

  // The first maximum of the row at g (`row` elements), writing the previous row's output
  // (when `previous` is not null) block by block as this row's blocks are read.
  static std::size_t scan_row_writing(const T* g, std::size_t row, K nan, K stop, U* previous,
                                      std::size_t previous_one, bool streaming) {
    K best = key_at(g, nan);
    std::size_t best_block = 0;
    bool done = best == stop;  // a leading NaN under propagate: nothing can beat it
    for (std::size_t b = 0; b < row; b += block) {
      const std::size_t n = std::min(block, row - b);
      if (!done && scan_block(g + b, n, nan, best)) {
        best_block = b;
        done = best == stop;
      }
      if (previous != nullptr) write_part(previous + b, n, previous_one >= b ? previous_one - b : no_one, streaming);
    }
    return best_block + locate(g + best_block, std::min(block, row - best_block), nan, best);
  }

  // The first maximum of a group of rows (`red` without its innermost dimension gives the
  // rows' offsets; one row when it has no other dimension).
  static std::uint64_t argmax_rows(const T* g, const simd::LoopNest<2>& red, std::size_t row, K nan, K stop) {
    K best = key_at(g, nan);
    const T* best_block = g;  // the first element is the best until something beats it
    std::size_t best_block_size = std::min(block, row);
    std::uint64_t best_block_index = 0, row_index = 0;
    bool done = best == stop;  // a leading NaN under propagate: nothing can beat it
    simd::for_each_offset(red, red.rank - 1, [&](const std::array<std::ptrdiff_t, 2>& r) {
      for (std::size_t b = 0; b < row && !done; b += block) {
        const std::size_t n = std::min(block, row - b);
        if (scan_block(g + r[0] + b, n, nan, best)) {
          best_block = g + r[0] + b;
          best_block_size = n;
          best_block_index = row_index * row + b;
          done = best == stop;
        }
      }
      ++row_index;
    });
    return best_block_index + locate(best_block, best_block_size, nan, best);
  }

  static void run_rows(const Plan& plan, const T* in, T* out_elements, NanMode mode, bool streaming) {
    U* out = reinterpret_cast<U*>(out_elements);
    const simd::LoopNest<2>& red = plan.reduced;
    const std::size_t outer = red.rank - 1;  // the reduced dimensions outside the row
    const std::size_t row = red.sizes[outer];
    const std::ptrdiff_t out_step = red.strides[1][outer];
    const K nan = nan_key<T>(mode);
    // Nothing beats a NaN under propagate, nor +inf under ignore: stop scanning the group there.
    const K stop = mode == NanMode::propagate ? nan : key_of_bits<T>(Traits<T>::inf, nan);
    // Each common shape gets its own loop, so its small body is inlined into the group walk.
    if (outer == 0 && out_step == 1 && is_short_row(row)) {
      const B nan_vector(nan);
      for_each_group(plan.kept, [&](std::ptrdiff_t in_offset, std::ptrdiff_t out_offset) {
        short_row(in + in_offset, out + out_offset, row, nan_vector, streaming);
      });
      return;
    }
    if (outer == 0 && out_step == 1) {
      U* previous = nullptr;  // the last row read, whose output is not written yet
      std::size_t previous_one = 0;
      for_each_group(plan.kept, [&](std::ptrdiff_t in_offset, std::ptrdiff_t out_offset) {
        previous_one = scan_row_writing(in + in_offset, row, nan, stop, previous, previous_one, streaming);
        previous = out + out_offset;
      });
      if (previous != nullptr) write_part(previous, row, previous_one, streaming);
      return;
    }
    for_each_group(plan.kept, [&](std::ptrdiff_t in_offset, std::ptrdiff_t out_offset) {
      const T* g = in + in_offset;
      U* o = out + out_offset;
      const std::uint64_t winner = argmax_rows(g, red, row, nan, stop);
      std::uint64_t first = 0;
      simd::for_each_offset(red, outer, [&](const std::array<std::ptrdiff_t, 2>& r) {
        const std::size_t one_at = winner >= first && winner - first < row ? static_cast<std::size_t>(winner - first) : row;
        write_row(o + r[1], out_step, row, one_at, streaming);
        first += row;
      });
    });
  }

  // ---- columns ----

  // Positions up to 2^32-1 in K lanes: 16-bit keys keep a second lane array for the high half.
  static constexpr bool split_positions = sizeof(K) < 4;
  static K low(std::uint64_t position) { return static_cast<K>(static_cast<U>(position)); }
  static K high(std::uint64_t position) { return static_cast<K>(static_cast<U>(split_positions ? position >> 16 : 0)); }

  // Stores `n` lanes of select(index == position, 1, 0) at p.
  static void write_selected(K* p, const K* index, const K* index_high, std::size_t n, std::uint64_t position,
                             bool streaming) {
    const B target(low(position)), target_high(high(position)), one(static_cast<K>(Traits<T>::one)), zero(K(0));
    auto selected = [&](std::size_t i) {
      auto hit = B::load_unaligned(index + i) == target;
      if constexpr (split_positions) hit = hit && B::load_unaligned(index_high + i) == target_high;
      return xsimd::select(hit, one, zero);
    };
    auto selected_one = [&](std::size_t i) {
      const bool hit = index[i] == low(position) && (!split_positions || index_high[i] == high(position));
      return hit ? static_cast<K>(Traits<T>::one) : K(0);
    };
    std::size_t i = 0;
    if constexpr (simd::has_streaming_stores<Arch>) {
      if (streaming) {
        const std::size_t bytes = sizeof(B);
        const std::size_t head = ((bytes - reinterpret_cast<std::uintptr_t>(p) % bytes) % bytes) / sizeof(K);
        for (; i < head && i < n; ++i) p[i] = selected_one(i);
        for (; i + lanes <= n; i += lanes) simd::stream_store<Arch>(p + i, selected(i));
      }
    }
    for (; i + lanes <= n; i += lanes) selected(i).store_unaligned(p + i);
    for (; i < n; ++i) p[i] = selected_one(i);
  }

  static void run_columns(const Plan& plan, const T* in, T* out_elements, NanMode mode, bool streaming) {
    K* out = reinterpret_cast<K*>(out_elements);
    const simd::LoopNest<2>& kept = plan.kept;
    const std::size_t outer = kept.rank - 1;
    const std::size_t width = kept.sizes[outer];
    const K nan = nan_key<T>(mode);
    alignas(64) K key[tile];
    alignas(64) K index[tile];
    alignas(64) K index_high[split_positions ? tile : 1];
    simd::for_each_offset(kept, outer, [&](const std::array<std::ptrdiff_t, 2>& group) {
      for (std::size_t j0 = 0; j0 < width; j0 += tile) {
        const std::size_t n = std::min(tile, width - j0);
        const T* g = in + group[0] + static_cast<std::ptrdiff_t>(j0);
        K* o = out + group[1] + static_cast<std::ptrdiff_t>(j0);
        std::uint64_t position = 0;
        simd::for_each_offset(plan.reduced, plan.reduced.rank, [&](const std::array<std::ptrdiff_t, 2>& e) {
          update(g + e[0], n, nan, key, index, index_high, position++);
        });
        position = 0;
        simd::for_each_offset(plan.reduced, plan.reduced.rank, [&](const std::array<std::ptrdiff_t, 2>& e) {
          write_selected(o + e[1], index, index_high, n, position++, streaming);
        });
      }
    });
  }

  // One reduced position for `n` groups side by side: a strict greater-than per lane keeps the
  // first index of the maximum; position 0 starts the state.
  static void update(const T* p, std::size_t n, K nan_scalar, K* key, K* index, K* index_high,
                     std::uint64_t position) {
    const K* q = reinterpret_cast<const K*>(p);
    const B nan(nan_scalar);
    const K pos_low = low(position), pos_high = high(position);
    const B pos(pos_low), pos_hi(pos_high);
    std::size_t i = 0;
    if (position == 0) {
      for (; i + lanes <= n; i += lanes) key_of<Arch, T>(B::load_unaligned(q + i), nan).store_unaligned(key + i);
      for (; i < n; ++i) key[i] = key_at(p + i, nan_scalar);
      std::fill(index, index + n, K(0));
      if constexpr (split_positions) std::fill(index_high, index_high + n, K(0));
      return;
    }
    for (; i + lanes <= n; i += lanes) {
      const B k = key_of<Arch, T>(B::load_unaligned(q + i), nan);
      const B best = B::load_unaligned(key + i);
      const auto wins = k > best;
      xsimd::select(wins, k, best).store_unaligned(key + i);
      xsimd::select(wins, pos, B::load_unaligned(index + i)).store_unaligned(index + i);
      if constexpr (split_positions)
        xsimd::select(wins, pos_hi, B::load_unaligned(index_high + i)).store_unaligned(index_high + i);
    }
    for (; i < n; ++i) {
      const K k = key_at(p + i, nan_scalar);
      if (k > key[i]) {
        key[i] = k;
        index[i] = pos_low;
        if constexpr (split_positions) index_high[i] = pos_high;
      }
    }
  }
};

// The whole kernel on one Arch.
template <class Arch, class T>
void run(TensorView<const T> input, TensorView<T> output, const Dims& axes, NanMode mode) {
  static_assert(std::is_same_v<T, float> || std::is_same_v<T, float16> || std::is_same_v<T, double>,
                "HARDMAX runs on FLOAT32, FLOAT16 and FLOAT64");
  assert(input.sizes() == output.sizes() && !axes.empty());
  const Plan plan = make_plan(input, output, axes);
  if constexpr (simd::is_vector_arch<Arch>) {
    using V = Vector<Arch, T>;
    const simd::LoopNest<2>& all = plan.all;
    const std::size_t last = all.rank - 1;
    const bool streaming = output.element_count() * sizeof(T) >= simd::streaming_threshold_bytes();
    if (all.rank > 0 && all.role[last] == reduced_role && all.strides[0][last] == 1) {
      V::run_rows(plan, input.data(), output.data(), mode, streaming);
      if (streaming) simd::streaming_fence<Arch>();
      return;
    }
    if (all.rank > 0 && all.role[last] == kept_role && all.strides[0][last] == 1 &&
        all.strides[1][last] == 1 && all.sizes[last] >= V::lanes) {
      V::run_columns(plan, input.data(), output.data(), mode, streaming);
      if (streaming) simd::streaming_fence<Arch>();
      return;
    }
  }
  run_reference(plan, input.data(), output.data(), mode);
}

}  // namespace refops::kernels::inline REFOPS_KERNEL_ABI::hardmax_detail

namespace refops::kernels::inline REFOPS_KERNEL_ABI {

// HARDMAX1 over `axes` (a non-empty set of distinct axes < rank; order does not matter) for
// FLOAT32, FLOAT16 and FLOAT64, any strides. Assumes a valid description.
template <class T>
void hardmax(TensorView<const T> input, TensorView<T> output, Dims axes, NanMode mode = NanMode::propagate) {
  hardmax_detail::run<simd::default_arch, T>(input, output, axes, mode);
}

}  // namespace refops::kernels::inline REFOPS_KERNEL_ABI
