// HARDMAX, vector paths for the rows shape: the innermost dimension is reduced and contiguous
// in the input. Each group is one or more contiguous rows; a block-max pass remembers the first
// block whose maximum strictly beats the best so far, then one rescan of that block locates the
// first maximum, and the group's output rows (zeros and one 1) are written at once while they
// are hot. Two common cases have their own loops: a group that is one row of at most four whole
// vectors (rows of 16, say) keeps its keys in registers, spreads the maximum over the lanes
// with a butterfly and stores compare-and-select vectors; a group that is one longer row writes
// the previous row's output block by block while it reads this row, so reads and writes
// overlap. Semantics: hardmax_core.hpp.
#pragma once

#include <refops/kernels/hardmax_core.hpp>

namespace refops::kernels::inline REFOPS_KERNEL_ABI::hardmax_detail {

template <class Arch, class T>
struct Rows : Lanes<Arch, T> {
  using L = Lanes<Arch, T>;
  using typename L::U, typename L::K, typename L::B;
  using L::lanes, L::one_hot_vector, L::store_output;
  // Elements per block. Each group rescans one block (to locate its first
  // maximum), so a small block keeps that short; a block costs one vector compare with the
  // best so far, and a horizontal maximum only when it beats it (rare after the first few).
  static constexpr std::size_t block = 1024 / sizeof(T);

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
        a0 = simd::max_of<Arch>(a0, key_of<Arch, T>(B::load_unaligned(q + i), nan));
        a1 = simd::max_of<Arch>(a1, key_of<Arch, T>(B::load_unaligned(q + i + lanes), nan));
      }
      for (; i + lanes <= n; i += lanes) a0 = simd::max_of<Arch>(a0, key_of<Arch, T>(B::load_unaligned(q + i), nan));
      a0 = simd::max_of<Arch>(a0, a1);
      if (xsimd::any(a0 > B(best))) block_best = simd::max_lane<Arch>(a0);
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
      const std::size_t lane = simd::first_true<Arch>(key_of<Arch, T>(B::load_unaligned(q + i), nan) == target);
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

  static bool is_short_row(std::size_t n) { return n % lanes == 0 && n <= 4 * lanes; }

  // One group that is one contiguous row of n = m * lanes elements (is_short_row(n)), written
  // to a contiguous output row.
  static void short_row(const T* p, U* o, std::size_t n, const B& nan, bool streaming) {
    const std::size_t m = n / lanes;
    B k[4];
    B top = k[0] = load_key<Arch, T>(p, nan);
    for (std::size_t i = 1; i < m; ++i) top = simd::max_of<Arch>(top, k[i] = load_key<Arch, T>(p + i * lanes, nan));
    top = simd::spread_max<Arch>(top);
    bool found = false;
    for (std::size_t i = 0; i < m; ++i) {
      const std::size_t lane = found ? lanes : simd::first_true<Arch>(k[i] == top);
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
};

}  // namespace refops::kernels::inline REFOPS_KERNEL_ABI::hardmax_detail
