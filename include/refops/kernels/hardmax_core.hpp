// HARDMAX / HARDMAX1 (SPEC section 4): what every path shares. The semantics, on every path:
// - A group is every element that shares all kept (non-reduced) coordinates. The output is 1 at
//   the group's first maximum and 0 elsewhere: exactly one 1 per group.
// - Ties go to the lowest index: "first" is the smallest row-major index over the reduced axes
//   taken in increasing dimension order, whatever the order of `axes` (ReduceArgMax with
//   DML_AXIS_DIRECTION_INCREASING).
// - -0.0 == +0.0 (the first of the two wins, like any tie). Infinities compare as usual.
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
// The kernel is split by shape: this file (types, keys, the canonical plan, the reference),
// hardmax_rows.hpp (the reduced dimension is innermost), hardmax_columns.hpp (a kept dimension
// is innermost) and hardmax.hpp (the choice between them, and the public entry point).
#pragma once

#include <refops/kernels/abi.hpp>

#include <algorithm>
#include <cassert>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <type_traits>

#include <refops/data_type.hpp>
#include <refops/dims.hpp>
#include <refops/nan_mode.hpp>
#include <refops/tensor_view.hpp>
#include <refops/kernels/loop_nest.hpp>
#include <refops/kernels/simd.hpp>
#include <refops/kernels/store_choice.hpp>

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
template <class Target, class T, class K = typename Traits<T>::K>
xsimd::batch<K, Target> key_of(const xsimd::batch<K, Target>& bits, const xsimd::batch<K, Target>& nan) {
  using B = xsimd::batch<K, Target>;
  const B magnitude = bits & B(std::numeric_limits<K>::max());
  const B key = xsimd::select(bits < B(K(0)), B(K(0)) - magnitude, magnitude);
  return xsimd::select(magnitude > B(static_cast<K>(Traits<T>::inf)), nan, key);
}

template <class Target, class T, class K = typename Traits<T>::K>
xsimd::batch<K, Target> load_key(const T* p, const xsimd::batch<K, Target>& nan) {
  return key_of<Target, T>(xsimd::batch<K, Target>::load_unaligned(reinterpret_cast<const K*>(p)), nan);
}

// ---- The canonical problem. -----------------------------------------------------------------

// Operand 0 is the input, operand 1 the output; strides in elements.
struct Plan {
  simd::LoopNest<2> all;      // every dimension, folded, roles kept / reduced
  simd::LoopNest<2> kept;     // the kept dimensions in order: one group per coordinate
  simd::LoopNest<2> reduced;  // the reduced dimensions in order: a group's elements, row-major
  std::uint64_t group_size = 1;

  // The tensor's elements (input and output alike).
  std::uint64_t elements() const {
    std::uint64_t n = 1;
    for (std::size_t d = 0; d < all.rank; ++d) n *= all.sizes[d];
    return n;
  }
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

// ---- What the vector paths share. ---------------------------------------------------------------

// Calls f(input offset, output offset, input step, output step, count) for every run of groups
// along the innermost kept dimension (one run of one group when nothing is kept), so a path can
// take several neighbouring groups at once.
template <class F>
void for_each_group_run(const simd::LoopNest<2>& kept, F&& f) {
  if (kept.rank == 0) return f(std::ptrdiff_t{0}, std::ptrdiff_t{0}, std::ptrdiff_t{0}, std::ptrdiff_t{0}, std::size_t{1});
  const std::size_t inner = kept.rank - 1;
  simd::for_each_offset(kept, inner, [&](const std::array<std::ptrdiff_t, 2>& base) {
    f(base[0], base[1], kept.strides[0][inner], kept.strides[1][inner], kept.sizes[inner]);
  });
}

// Calls f(input offset, output offset) for every group: the innermost kept dimension is a
// plain loop, so short groups do not pay for the general coordinate walk.
template <class F>
void for_each_group(const simd::LoopNest<2>& kept, F&& f) {
  for_each_group_run(kept, [&](std::ptrdiff_t i, std::ptrdiff_t o, std::ptrdiff_t in_step, std::ptrdiff_t out_step,
                               std::size_t n) {
    for (std::size_t j = 0; j < n; ++j, i += in_step, o += out_step) f(i, o);
  });
}

// The key vector type and the output vectors.
template <class Target, class T>
struct Lanes {
  using U = typename Traits<T>::U;
  using K = typename Traits<T>::K;
  using B = xsimd::batch<K, Target>;
  static constexpr std::size_t lanes = B::size;

  // What the scans (hardmax_rows.hpp, hardmax_columns.hpp) write in step with their loads: an
  // object whose step() stores the next output line (simd::SpanWriter), called after every 64
  // bytes loaded (step<2>() after 128: the rows' scans take two lines an iteration). NoWrites:
  // nothing to write.
  struct NoWrites {
    template <std::size_t Lines = 1>
    [[gnu::always_inline]] void step() {}
  };

  // The zeros of a zero background on a dense output whose rows are read in its order, filled
  // by memset (rep) behind the reads: rows_read(k) after k elements of rows are read, and once
  // at least `fill_from` elements are due, one memset of them; finish() fills the rest. The
  // fill's stores then overlap the next rows' loads, where one memset before or after every
  // read did not (docs/decisions.md, "HARDMAX's rep fills follow the reads"). step(), the
  // streamed writers' call per line loaded, does nothing.
  struct ZerosBehindReads {
    U* next;
    std::size_t fill_from;  // elements: 0 fills after every rows_read
    std::size_t due = 0;
    template <std::size_t Lines = 1>
    [[gnu::always_inline]] void step() {}
    [[gnu::always_inline]] void rows_read(std::size_t elements) {
      if ((due += elements) >= fill_from) finish();
    }
    void finish() {
      simd::fill_span<Target>(next, due, U{0}, StoreStrategy::rep);
      next += due;
      due = 0;
    }
  };

  // A scan's writer, kept in registers where it can be assigned back afterwards (NoWrites, the
  // zeros writers): reached through a reference, its position was loaded and stored back around
  // every line's streamed stores (a vector store may alias it), which held axes {0,2} at
  // 0.55-0.59 of memcpy on one Zen 1 thread (0.92-0.97 in registers). The long rows' writer
  // holds lambdas, cannot be assigned, and is used in place. A scan steps `LocalWriter<Lines>
  // writes = lines;` and ends with `give_back(writes, lines)`.
  template <class Lines>
  using LocalWriter = std::conditional_t<std::is_copy_assignable_v<Lines>, Lines, Lines&>;
  template <class Lines>
  static void give_back(const Lines& local, Lines& lines) {
    if constexpr (std::is_copy_assignable_v<Lines>) lines = local;
  }

  // One output vector: T's 1 in lane `at` (when at < lanes) and 0 elsewhere.
  static B one_hot_vector(std::size_t at) {
    const B lane_number = xsimd::make_batch_constant<B, simd::LaneNumber>();
    const K target = at < lanes ? static_cast<K>(at) : K(-1);  // -1 is no lane
    return xsimd::select(lane_number == B(target), B(static_cast<K>(Traits<T>::one)), B(K(0)));
  }
};

}  // namespace refops::kernels::inline REFOPS_KERNEL_ABI::hardmax_detail
