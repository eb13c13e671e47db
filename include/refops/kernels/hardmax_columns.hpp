// HARDMAX, vector path for the columns shape: the innermost dimension is kept and contiguous in
// input and output (XNNPACK's argmax-pool shape). Lanes are groups: a strict greater-than per
// lane walks the reduced elements in row-major order keeping the first index, then each output
// row is written by comparing the winning index with the row's position. No transpose, no copy
// of the input. Semantics: hardmax_core.hpp.
#pragma once

#include <refops/kernels/hardmax_core.hpp>

#include <cmath>
#include <cstring>

namespace refops::kernels::inline REFOPS_KERNEL_ABI::hardmax_detail {

template <class Target, class T>
struct Columns : Lanes<Target, T> {
  using L = Lanes<Target, T>;
  using typename L::U, typename L::K, typename L::B;
  using L::lanes;
  // Lanes of per-group state (key and winning index) kept in L1.
  static constexpr std::size_t tile = 8192 / sizeof(T);

  // Positions up to 2^32-1 in K lanes: 16-bit keys keep a second lane array for the high half.
  static constexpr bool split_positions = sizeof(K) < 4;
  static K low(std::uint64_t position) { return static_cast<K>(static_cast<U>(position)); }
  static K high(std::uint64_t position) { return static_cast<K>(static_cast<U>(split_positions ? position >> 16 : 0)); }

  // Stores `n` lanes of select(index == position, 1, 0) at p.
  static void write_selected(K* p, const K* index, const K* index_high, std::size_t n, std::uint64_t position,
                             StoreStrategy stores) {
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
    simd::store_span<Target>(p, n, stores, selected, selected_one);
  }

  static void run_columns(const Plan& plan, const T* in, T* out_elements, NanMode mode, StoreStrategy stores) {
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
          write_selected(o + e[1], index, index_high, n, position++, stores);
        });
      }
    });
  }

  // FLOAT32 (and the typed layer's FLOAT64) compares the values themselves, which is as exact
  // as a key and cheaper (two compares against the key's six operations): x displaces the best
  // so far when
  //   ignore:    !(x <= best) && x == x          (NaN never wins; a number displaces a leading NaN)
  //   propagate: !(best >= x) && best == best    (NaN displaces a number; the first NaN stays)
  // and -0.0 against +0.0 is a tie either way. `key` then holds the best values' bits.
  static constexpr bool float_compares = std::is_floating_point_v<T>;

  template <bool Propagate>
  static void update_floats(const T* p, std::size_t n, K* key, K* index, std::uint64_t position) {
    using F = xsimd::batch<T, Target>;
    static_assert(F::size == lanes);
    const B pos(low(position));
    std::size_t i = 0;
    for (; i + lanes <= n; i += lanes) {
      const F x = F::load_unaligned(p + i);
      const F best = xsimd::bitwise_cast<F>(B::load_unaligned(key + i));
      xsimd::batch_bool<T, Target> wins;
      if constexpr (Propagate) wins = ~(best >= x) & (best == best);
      else wins = ~(x <= best) & (x == x);
      xsimd::bitwise_cast<B>(xsimd::select(wins, x, best)).store_unaligned(key + i);
      const F index_now = xsimd::bitwise_cast<F>(B::load_unaligned(index + i));
      xsimd::bitwise_cast<B>(xsimd::select(wins, xsimd::bitwise_cast<F>(pos), index_now)).store_unaligned(index + i);
    }
    for (; i < n; ++i) {
      T best;
      std::memcpy(&best, key + i, sizeof(T));
      const T x = p[i];
      const bool wins = Propagate ? !(best >= x) && !std::isnan(best) : !(x <= best) && !std::isnan(x);
      if (wins) {
        std::memcpy(key + i, &x, sizeof(T));
        index[i] = low(position);
      }
    }
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
      if constexpr (float_compares) {
        std::copy(q, q + n, key);  // the values' bits
      } else {
        for (; i + lanes <= n; i += lanes) key_of<Target, T>(B::load_unaligned(q + i), nan).store_unaligned(key + i);
        for (; i < n; ++i) key[i] = key_at(p + i, nan_scalar);
      }
      std::fill(index, index + n, K(0));
      if constexpr (split_positions) std::fill(index_high, index_high + n, K(0));
      return;
    }
    if constexpr (float_compares) {
      if (nan_scalar == nan_key<T>(NanMode::propagate)) update_floats<true>(p, n, key, index, position);
      else update_floats<false>(p, n, key, index, position);
      return;
    }
    for (; i + lanes <= n; i += lanes) {
      const B k = key_of<Target, T>(B::load_unaligned(q + i), nan);
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

}  // namespace refops::kernels::inline REFOPS_KERNEL_ABI::hardmax_detail
