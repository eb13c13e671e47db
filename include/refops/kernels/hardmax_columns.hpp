// HARDMAX, vector path for the columns shape: the innermost dimension is kept and contiguous in
// input and output (XNNPACK's argmax-pool shape, axis 0 of a matrix). Lanes are groups. Two
// passes per tile of neighbouring groups, each over memory in order:
// - the reduction reads the input once: the reduced positions are folded a pass of 2 or 4 rows
//   at a time into the tile's state (best value or key, winning position), which stays in
//   registers across those rows, so the state is loaded and stored once per pass. A
//   strict greater-than per lane keeps the first index of the maximum (each pass is folded to
//   its maximum first, and the row within the pass is found at the end). The rows of
//   the next pass, each often on its own page, are prefetched.
//   Rows of 2 KiB or less, one after the other, are read several at a time as one row of
//   about 4 KiB, and the parts' winners merged (reduce_grouped).
// - the output is all zeros but one 1 per group. With enough rows per group it is zero-filled
//   by the store strategy a chunk of rows at a time, and each chunk's ones are written right
//   after its zeros, while its lines are still in L1/L2 (the groups are ordered by chunk with
//   a counting sort on the stack); under `rep` with contiguous rows, a memset of each pass's
//   rows right after the pass reads them, and the ones after the reduction (run_columns);
//   streamed while the input is read (run_columns), the zeros go out first and
//   each 1 after them as its whole line streamed again (stream_one_lines). Groups of few rows
//   write each output row as a compare-and-select of the winning positions instead.
// No transpose, no copy of the input, no allocation. Semantics: hardmax_core.hpp.
#pragma once

#include <refops/kernels/cache_info.hpp>
#include <refops/kernels/hardmax_core.hpp>

#include <algorithm>
#include <array>
#include <atomic>
#include <bit>
#include <cmath>
#include <cstring>

namespace refops::kernels::inline REFOPS_KERNEL_ABI::hardmax_detail {

// forced_columns_prefetch (1: never, 2: always; 0: the rule) forces Columns::prefetches_for for
// the benchmark's rows and the tests (detail::force_hardmax_columns_prefetch sets every
// instruction set's copy).
inline std::atomic<std::size_t> forced_columns_prefetch{0};
// forced_columns_fold (1: each pass to its maximum, 2: row by row; 0: the rule) forces
// Columns::folds_by_rows the same way (detail::force_hardmax_columns_fold).
inline std::atomic<std::size_t> forced_columns_fold{0};

template <class Target, class T>
struct Columns : Lanes<Target, T> {
  using L = Lanes<Target, T>;
  using typename L::U, typename L::K, typename L::B;
  using L::lanes;
  using NoWrites = typename L::NoWrites;
  template <class Lines>
  using LocalWriter = typename L::template LocalWriter<Lines>;
  using L::give_back;
  // Groups side by side per tile: their state (4-8 bytes each, 2-3 arrays) stays in L1 or L2.
  // A row wider than a tile is read a tile's part at a time, as if its rows were strided, and
  // this host reads those parts slowly: 2048 groups read 4096-wide rows at 0.80 (FLOAT32)
  // and 0.75 (FLOAT16) of the speed of 4096 groups (docs/decisions.md, "Columns"). 4096 keeps
  // the call's stack near 60 KiB (state, and the writer's winners and order).
  static constexpr std::size_t tile = 4096;
  // Reduced positions folded per pass over the state (docs/decisions.md, "Columns"). A pass is
  // folded to its maximum and the row found afterwards (fold, resolve_passes). Every pass
  // loads the state once, so in the cache longer passes win: 4 rows (AVX2 in cache, 2 MiB,
  // Zen 4: 0.57-0.59 of memcpy against 0.50-0.52 with 2). From memory every row of a pass is a
  // stream of its own, often on its own page, and 2 side by side are read faster (axis 0 of a
  // 256 MiB FLOAT32 matrix 0.75-0.85 -> 0.91-0.99 of the streamed copy, FLOAT16 0.76-0.83 ->
  // 0.88-0.97). So 2 when the input cannot stay in the last-level cache, the streaming
  // threshold, on the whole call's input (call_bytes, for a part of a split call the whole
  // call's), so the parts of a split call agree; `forced` (2 or 4) overrides the rule for tests
  // and the benchmark's forced rows. Except on Intel CPUs, whose prefetchers keep 4 streams
  // fed: on the Intel Xeon guest (family 6 model 207), from memory, 4 rows beat 2 on every
  // columns case in two full runs (axis 0 1.06-1.07 against 1.00-1.03 of memcpy, 16384 x 4096
  // 1.03 against 1.00-1.02, FLOAT16 1.04-1.05 against 1.00-1.01). And except FLOAT16 on
  // AVX-512 in the cache when its zeros stream while it reads (zeros_stream: fills_while_reading),
  // where 2 won: on the Intel Xeon guest (model 167) axis 0 of 1024 x 1024 took 122-124 us a
  // call with 2, 127-133 with 4; written after the reads (rep), 512 x 1024 took 52-55 with 4,
  // 61-63 with 2 (docs/decisions.md, "Columns").
  // Passes of 16 rows helped 2 KiB FLOAT16 rows until those were grouped (reduce_grouped), and
  // cost rows of 4 KiB and more 40% (16 streams side by side).
  static std::size_t pass_rows_for(std::size_t call_bytes, std::size_t forced, bool zeros_stream) {
    if (forced == 2 || forced == 4) return forced;
    if (!simd::exceeds_cache(call_bytes)) return float16_on_avx512 && zeros_stream ? 2 : 4;
    return simd::intel_cpu() ? 4 : 2;
  }
  static constexpr bool float16_on_avx512 =
      std::is_same_v<T, float16> && std::is_base_of_v<xsimd::avx512f, Target>;
  // Whether each pass asks for the rows one pass ahead (reduce_rows), on the whole call's input
  // as pass_rows_for: only when it comes from memory (simd::exceeds_cache, the streaming
  // threshold), where perf once showed the loads stalled without them (docs/decisions.md,
  // "Columns"). In the cache the lines are in L2 or L3 from the call or the producer before,
  // and the prefetches only take load slots. Until 2026-12-07 they were left out only when
  // input and output fit in L2 together: on the Intel Xeon guest (family 6 model 167, 2 MiB
  // L2), axis 0 at 1 MiB without / with them (us a call): FLOAT32 passes of 4 50.2-50.5 /
  // 51.8-53.1, FLOAT16 passes of 2 53.1-53.9 / 55.2-56.0; at 2 MiB never asking was 1-2%
  // ahead there, 2-4% on model 207 (2026-12-01), and 5-8% on model 207 in three runs of
  // 2026-12-07 (FLOAT32 0.94 / 0.88-0.90 of memcpy, at +16 bytes 0.96-0.99 / 0.91-0.92,
  // FLOAT16 0.86-0.89 / 0.81-0.84); at 8 MiB, in L3, in process, FLOAT32 2048 x 1024 510 /
  // 533-538 us a call, FLOAT16 4096 x 1024 522-526 / 540-621. From memory a tie on both
  // models (256 MiB, 1.03 / 1.03 of memcpy on model 207).
  static bool prefetches_for(std::size_t call_bytes) {
    return simd::rule_unless_forced(simd::exceeds_cache(call_bytes), forced_columns_prefetch);
  }
  // Whether a pass folds row by row (each row's compare and selects: fold's fold_each_row)
  // rather than to its maximum, whose row resolve_passes finds after the reduction (by gathers,
  // a line per group and row of its pass). On AVX-512 a row's compare lands in a mask register
  // and each select is one masked blend, so the row-by-row fold takes about the pass maximum's
  // operations, and the gathers are saved. On the Intel Xeon guest (family 6 model 207, 2 MiB
  // L2), axis 0 in process, the two alternated (us a call): FLOAT32 256 x 1024 (1 MiB) 55.8 /
  // 52.3, 512 x 1024 122 / 113, 2048 x 1024 (8 MiB) 741 / 672; FLOAT16 512 x 1024 69.5 /
  // 59.6, 1024 x 1024 132-138 / 117-123. From memory (the streaming threshold, as the rules
  // above) the pass maximum stays: there its late passes skip the state's loads and stores
  // when no lane wins (fold's `lazy`), which row by row cannot, and 16384 x 4096 FLOAT32, whose
  // 32 KiB of state leave L1, ran at 1.06 of memcpy against 0.99 row by row (65536 x 1024 a
  // tie). On AVX2 the compare is a vector and each select a blend (two for NaN-aware
  // compares), and the pass maximum won in the cache too: FLOAT32 256 x 1024 0.55 / 0.40 of
  // memcpy, FLOAT16 512 x 1024 0.52 / 0.44 (docs/decisions.md, "Columns").
  static constexpr bool folds_by_rows_on_this_target = std::is_base_of_v<xsimd::avx512f, Target>;
  static bool folds_by_rows(std::size_t call_bytes) {
    return simd::rule_unless_forced(folds_by_rows_on_this_target && !simd::exceeds_cache(call_bytes),
                                    forced_columns_fold);
  }
  // How a call reads its passes: the rules above, taken once per call (or part of a split call).
  struct Passes {
    std::size_t rows;  // 2 or 4
    bool prefetch;
    bool by_rows;  // folds_by_rows
  };
  static Passes passes_for(std::size_t call_bytes, std::size_t forced_rows, bool zeros_stream) {
    return {pass_rows_for(call_bytes, forced_rows, zeros_stream), prefetches_for(call_bytes),
            folds_by_rows(call_bytes)};
  }
  // From this row on, a vector of lanes wins a pass with a probability of about 1/8 or less
  // (random rows), and a pass skips the state's loads and stores when none wins (fold).
  template <std::size_t PassRows>
  static constexpr std::uint64_t lazy_from_row = 8 * PassRows * lanes;
  // From this many rows per group on, the output is zero-filled and patched: the patches (one
  // per group) cost less than a compare-and-select of every output vector.
  static constexpr std::uint64_t patch_min_rows = 32;
  // Output bytes zeroed before their patches are written (the lines stay in L2), and the most
  // chunks per tile (the counting sort's table on the stack).
  static constexpr std::size_t chunk_bytes = 64 * 1024;
  static constexpr std::size_t max_chunks = 256;

  // Positions up to 2^32-1 in K lanes: 16-bit keys keep a second lane array for the high half.
  static constexpr bool split_positions = sizeof(K) < 4;
  static K low(std::uint64_t position) { return static_cast<K>(static_cast<U>(position)); }
  static K high(std::uint64_t position) { return static_cast<K>(static_cast<U>(split_positions ? position >> 16 : 0)); }
  // Lane j's winning position (index_high is read only when positions are split: it is one
  // element long otherwise).
  static std::uint32_t position_of(const K* index, const K* index_high, std::size_t j) {
    if constexpr (split_positions)
      return static_cast<std::uint32_t>(static_cast<U>(index_high[j])) << 16 | static_cast<U>(index[j]);
    else return static_cast<std::uint32_t>(static_cast<U>(index[j]));
  }
  // The state's best as a key: the float compares keep the best value's bits, whose key orders
  // them as the compares did.
  static K state_key(K state, K nan) { return float_compares ? key_of_bits<T>(static_cast<U>(state), nan) : state; }

  // Whether the shape takes this path: the innermost dimension kept, contiguous in both, and at
  // least a vector wide.
  static bool takes(const simd::LoopNest<2>& all) {
    const std::size_t last = all.rank - 1;
    return all.rank > 0 && all.role[last] == kept_role && all.strides[0][last] == 1 && all.strides[1][last] == 1 &&
           all.sizes[last] >= lanes;
  }

  // Whether every tile's output rows are one contiguous block (one reduced dimension whose
  // output rows follow each other, and one tile per run of groups).
  static bool contiguous_rows(const Plan& plan, std::size_t width) {
    return width <= tile && plan.reduced.rank == 1 && plan.reduced.strides[1][0] == static_cast<std::ptrdiff_t>(width);
  }

  static bool patches(const Plan& plan) { return plan.group_size >= patch_min_rows; }

  // What the output looks like to choose_stores: zeros with one 1 per group, in one block per
  // tile when the rows are contiguous, and then streamed while the input is read.
  static simd::StoreNeeds store_needs(const Plan& plan, std::size_t output_bytes) {
    const bool zero_background = patches(plan) && contiguous_rows(plan, width_of(plan));
    return {.output_bytes = output_bytes,
            .bytes_per_sparse = static_cast<std::size_t>(plan.group_size) * sizeof(T),
            .zero_background = zero_background,
            .fills_while_reading = zero_background,
            .reduction_outlasts_a_copy = zero_background && std::is_same_v<T, float16>};
  }

  // Calls f(input offset, output offset, n, g) for every tile: n neighbouring groups, the first
  // of them group number g (row-major over the kept coordinates).
  template <class F>
  static void for_each_tile(const simd::LoopNest<2>& kept, F&& f) {
    const std::size_t outer = kept.rank - 1;
    const std::size_t width = kept.sizes[outer];
    std::size_t g = 0;
    simd::for_each_offset(kept, outer, [&](const std::array<std::ptrdiff_t, 2>& group) {
      for (std::size_t j0 = 0; j0 < width; j0 += tile) {
        const std::size_t n = std::min(tile, width - j0);
        f(group[0] + static_cast<std::ptrdiff_t>(j0), group[1] + static_cast<std::ptrdiff_t>(j0), n, g);
        g += n;
      }
    });
  }

  static std::size_t width_of(const Plan& plan) { return plan.kept.sizes[plan.kept.rank - 1]; }

  // call_bytes: the whole call's input bytes, and forced_pass_rows (0, 2 or 4), for passes_for.
  static void run_columns(const Plan& plan, const T* in, T* out_elements, NanMode mode, StoreStrategy stores,
                          std::size_t call_bytes, std::size_t forced_pass_rows) {
    U* out = reinterpret_cast<U*>(out_elements);
    const K nan = nan_key<T>(mode);
    const bool contiguous = contiguous_rows(plan, width_of(plan));
    alignas(64) K key[tile];
    alignas(64) K index[tile];
    alignas(64) K index_high[split_positions ? tile : 1];
    // Streamed zeros on a contiguous output go out while the input is read, a line per line
    // loaded, as memcpy overlaps its reads and writes; then the ones. Read first and write
    // after, the call cannot beat a read-only pass plus a fill (on the Zen 3 host one thread
    // reads at 12-13 GB/s alone and memcpy moves 10.5 each way: 0.82 of memcpy at best).
    const bool zeros_while_reading = fills_while_reading(plan, stores, contiguous);
    const Passes passes = passes_for(call_bytes, forced_pass_rows, zeros_while_reading);
    // Under rep, the zeros of a contiguous output a pass at a time, each pass's rows right after the
    // pass reads them (ZerosBehindReads, filling every pass): the fill's stores then overlap the
    // next pass's loads, where one memset after the reduction (write_patched) came after all of
    // them. On the Intel Xeon guest (family 6 model 207, 2 MiB L2), AVX-512, axis 0 at 1 MiB, two
    // rounds alternated with the one memset: FLOAT32 256 x 1024 0.68 -> 0.75-0.76 of memcpy, FLOAT16
    // 512 x 1024 0.55-0.57 -> 0.62-0.63; in process 128 x 1024 FLOAT32 24.1 -> 20.6 us a call; the
    // AVX2 path's slower reduction gained nothing (0.54 -> 0.55), nor rows of 16 KiB (passes of
    // 64 KiB, 64 x 4096: a tie). A loop reading 1 MiB with no compute beside it (docs/decisions.md,
    // "Columns"): a memset after all the reads 0.79 of memcpy, after each 16 KiB read 0.89 (4 KiB
    // 0.86, 64 KiB 0.87, 256 KiB 0.83), the size of most passes (4 rows, of 4 KiB after
    // reduce_grouped).
    const bool zeros_after_passes = !zeros_while_reading && stores == StoreStrategy::rep && contiguous && patches(plan);
    for_each_tile(plan.kept, [&](std::ptrdiff_t i, std::ptrdiff_t o, std::size_t n, std::size_t) {
      if (zeros_after_passes) {
        // A tile's rows follow each other in input and output alike (contiguous_rows): the rows
        // read so far are the output's first elements.
        typename L::ZerosBehindReads zeros{out + o, 0};
        reduce(plan.reduced, in + i, n, mode, passes, nan, key, index, index_high, zeros);
        return write(plan, out + o, n, index, index_high, stores, contiguous, true);
      }
      if (!zeros_while_reading) {
        reduce(plan.reduced, in + i, n, mode, passes, nan, key, index, index_high);
        return write(plan, out + o, n, index, index_high, stores, contiguous);
      }
      auto zeros = simd::zeros_writer<Target>(reinterpret_cast<K*>(out + o), static_cast<std::size_t>(plan.group_size) * n, stores);
      reduce(plan.reduced, in + i, n, mode, passes, nan, key, index, index_high, zeros);
      zeros.finish();
      simd::finish_stores<Target>(stores);  // the ones below land in streamed lines
      if (stream_one_lines(plan.group_size, out + o, n, index, index_high)) return;
      for (std::size_t j = 0; j < n; ++j)
        out[o + output_offset(plan.reduced, position_of(index, index_high, j)) +
            static_cast<std::ptrdiff_t>(j)] = Traits<T>::one;
    });
  }

  // The ones of a tile whose zeros were streamed, each as its whole line streamed again, that
  // line's other elements included: a plain store of a 1 first reads its line back from
  // memory, where the streamed zeros sent it. The tile's output is one block of rows x n
  // elements (contiguous_rows), on any grid: a line may end one row and start the next, and
  // is then built element by element. A line that reaches outside the block (its first or
  // last, when the block does not start or end on a line) is not ours to write whole, and
  // its 1 takes the plain store. (Until 2026-11-28 only outputs on the line grid with rows of
  // whole lines streamed their ones: axis 0 of 512 x 1024 at +16 bytes, NumPy's grid and a
  // large std::vector's, took 177-190 us a call against 141-146 on the grid, on the Intel
  // Xeon guest; now 139-142.)
  static bool stream_one_lines(std::uint64_t rows, U* o, std::size_t n, const K* index, const K* index_high) {
    if constexpr (simd::has_streaming_stores<Target>) {
      constexpr std::size_t line_bytes = simd::cache_line_bytes, line = line_bytes / sizeof(U);
      static_assert(line % lanes == 0);
      const auto begin = reinterpret_cast<std::uintptr_t>(o);
      const std::uintptr_t end = begin + static_cast<std::uintptr_t>(rows * n * sizeof(U));
      const B one(static_cast<K>(Traits<T>::one)), zero(K(0));
      alignas(64) K built[line];
      for (std::size_t j = 0; j < n; ++j) {
        const std::uint32_t position = position_of(index, index_high, j);
        U* at = o + static_cast<std::ptrdiff_t>(std::uint64_t{position} * n + j);
        const auto address = reinterpret_cast<std::uintptr_t>(at);
        const std::uintptr_t first = address & ~std::uintptr_t{line_bytes - 1};
        if (first < begin || first + line_bytes > end) {
          *at = Traits<T>::one;
          continue;
        }
        // The line's first element: row r, column c (`back` elements before the 1).
        std::uint64_t r = position;
        std::size_t c = j, back = (address - first) / sizeof(U);
        while (back > c) {  // into the rows before (several when a row is shorter than a line)
          back -= c + 1;
          c = n - 1;
          --r;
        }
        c -= back;
        K* const p = reinterpret_cast<K*>(first);
        if (c + line <= n) {
          for (std::size_t v = 0; v < line; v += lanes) {
            auto same = B::load_unaligned(index + c + v) == B(low(r));
            if constexpr (split_positions) same = same && B::load_unaligned(index_high + c + v) == B(high(r));
            simd::stream_store<Target>(p + v, xsimd::select(same, one, zero));
          }
          continue;
        }
        for (std::size_t e = 0; e < line; ++e) {
          built[e] = position_of(index, index_high, c) == r ? static_cast<K>(Traits<T>::one) : K(0);
          if (++c == n) {
            c = 0;
            ++r;
          }
        }
        for (std::size_t v = 0; v < line; v += lanes) simd::stream_store<Target>(p + v, B::load_aligned(built + v));
      }
      return true;
    }
    (void)rows, (void)o, (void)n, (void)index, (void)index_high;
    return false;
  }

  // After a pass of `elements` input elements (its rows times the groups read): rep's zeros
  // behind the reads (ZerosBehindReads, run_columns) fill their output; the other writers have
  // nothing to do.
  template <class Lines>
  [[gnu::always_inline]] static void rows_read(Lines& lines, std::size_t elements) {
    if constexpr (requires { lines.rows_read(elements); }) lines.rows_read(elements);
  }

  // Whether run_columns streams the output's zeros while it reads (see there).
  static bool fills_while_reading(const Plan& plan, StoreStrategy stores, bool contiguous) {
    return stores == StoreStrategy::stream && contiguous && patches(plan);
  }

  // ---- the reduction ----

  // FLOAT32 (and the typed layer's FLOAT64) compares the values themselves, which is as exact
  // as a key and cheaper (two compares against the key's six operations): x displaces the best
  // so far when
  //   ignore:    !(x <= best) && x == x          (NaN never wins; a number displaces a leading NaN)
  //   propagate: !(best >= x) && best == best    (NaN displaces a number; the first NaN stays)
  // and -0.0 against +0.0 is a tie either way. `key` then holds the best values' bits.
  static constexpr bool float_compares = std::is_floating_point_v<T>;
  enum class Compare { keys, propagate, ignore };

  // The state for groups [0, n) over every reduced position of the tile at g.
  // lines.step() is called after every 64 bytes a pass loads (the output's zeros are then
  // streamed in step with the reads: run_columns).

  // passes: passes_for.
  template <class Lines = NoWrites>
  static void reduce(const simd::LoopNest<2>& reduced, const T* g, std::size_t n, NanMode mode, Passes passes,
                     K nan, K* key, K* index, K* index_high, Lines&& lines = Lines{}) {
    if (passes.rows == 2) return reduce_with<2>(reduced, g, n, mode, passes, nan, key, index, index_high, lines);
    return reduce_with<4>(reduced, g, n, mode, passes, nan, key, index, index_high, lines);
  }

  template <std::size_t PassRows, class Lines>
  static void reduce_with(const simd::LoopNest<2>& reduced, const T* g, std::size_t n, NanMode mode,
                          const Passes& passes, K nan, K* key, K* index, K* index_high, Lines& lines) {
    if constexpr (float_compares) {
      if (mode == NanMode::propagate)
        return reduce_as<Compare::propagate, PassRows>(reduced, g, n, passes, nan, key, index, index_high, lines);
      return reduce_as<Compare::ignore, PassRows>(reduced, g, n, passes, nan, key, index, index_high, lines);
    } else {
      (void)mode;
      return reduce_as<Compare::keys, PassRows>(reduced, g, n, passes, nan, key, index, index_high, lines);
    }
  }

  // Contiguous rows shorter than this are reduced several at a time as one row of about this
  // many bytes (reduce_grouped).
  static constexpr std::size_t grouped_row_bytes = 4096;
  static constexpr std::size_t max_rows_grouped = 16;

  template <Compare C, std::size_t PassRows, class Lines>
  static void reduce_as(const simd::LoopNest<2>& reduced, const T* g, std::size_t n, const Passes& passes, K nan,
                        K* key, K* index, K* index_high, Lines& lines) {
    const std::size_t k = std::min(max_rows_grouped, grouped_row_bytes / (n * sizeof(T)));
    if (k >= 2 && reduced.rank == 1 && reduced.strides[0][0] == static_cast<std::ptrdiff_t>(n) &&
        reduced.sizes[0] >= 4 * PassRows * k)
      return reduce_grouped<C, PassRows>(reduced, g, n, k, passes, nan, key, index, index_high, lines);
    reduce_rows<C, PassRows>(reduced, g, n, passes, nan, key, index, index_high, lines);
  }

  // Rows of 2 KiB share their pages two by two, and this host read them at 0.7-0.8 of the
  // speed of 4 KiB rows (FLOAT16 n x 1024 against n x 2048, a standalone timing). Rows kp,
  // kp + 1, ..., kp + k - 1 are read as one row of kn lanes: lanes [hn, (h + 1)n) fold the
  // positions kp + h, each with its first maximum; the k are merged per group as the split
  // merges its blocks (hardmax_two_phase.hpp): the largest key, and on equal keys the earliest
  // position, which is the first maximum of the whole sequence. The last rows % k rows are
  // folded after the merge.
  template <Compare C, std::size_t PassRows, class Lines>
  static void reduce_grouped(const simd::LoopNest<2>& reduced, const T* g, std::size_t n, std::size_t k,
                             const Passes& passes, K nan, K* key, K* index, K* index_high, Lines& lines) {
    const std::uint64_t rows = reduced.sizes[0];
    const auto step = static_cast<std::ptrdiff_t>(k) * reduced.strides[0][0];
    simd::LoopNest<2> groups;
    groups.push(static_cast<std::size_t>(rows / k), {step, static_cast<std::ptrdiff_t>(k) * reduced.strides[1][0]});
    reduce_rows<C, PassRows>(groups, g, k * n, passes, nan, key, index, index_high, lines);
    for (std::size_t j = 0; j < n; ++j) {
      std::size_t best = j;
      K best_key = state_key(key[j], nan);
      std::uint64_t best_position = k * std::uint64_t{position_of(index, index_high, j)};
      for (std::size_t h = 1; h < k; ++h) {
        const std::size_t lane = h * n + j;
        const K lane_key = state_key(key[lane], nan);
        const std::uint64_t position = k * std::uint64_t{position_of(index, index_high, lane)} + h;
        if (lane_key > best_key || (lane_key == best_key && position < best_position)) {
          best = lane;
          best_key = lane_key;
          best_position = position;
        }
      }
      key[j] = key[best];
      index[j] = low(best_position);
      if constexpr (split_positions) index_high[j] = high(best_position);
    }
    const auto done = rows - rows % k;
    if (done == rows) return;
    const T* rest[max_rows_grouped];
    for (std::uint64_t r = done; r < rows; ++r) rest[r - done] = g + static_cast<std::ptrdiff_t>(r) * reduced.strides[0][0];
    fold<C, 0>(rest, static_cast<std::size_t>(rows - done), n, nan, key, index, index_high, done, 0, false, lines);
    rows_read(lines, static_cast<std::size_t>(rows - done) * n);
  }

  template <Compare C, std::size_t PassRows, class Lines>
  static void reduce_rows(const simd::LoopNest<2>& reduced, const T* g, std::size_t n, const Passes& passes, K nan,
                          K* key, K* index, K* index_high, Lines& lines) {
    const T* rows[PassRows];
    std::size_t count = 0;
    std::uint64_t first = 0;
    // Each pass reads `PassRows` rows side by side, each often on its own page, where the
    // hardware prefetchers do not follow; the rows one pass ahead (along the innermost
    // reduced dimension) are asked for while these are read when the input comes from memory
    // (prefetches_for). A prefetch past the tensor is harmless (it never faults).
    const std::ptrdiff_t ahead = !passes.prefetch || reduced.rank == 0
                                     ? 0
                                     : static_cast<std::ptrdiff_t>(PassRows) * reduced.strides[0][reduced.rank - 1];
    simd::for_each_offset(reduced, reduced.rank, [&](const std::array<std::ptrdiff_t, 2>& e) {
      rows[count++] = g + e[0];
      if (count == PassRows) {
        // The first pass starts the state; the others, the hot loop, have a fixed row count.
        if (first == 0) fold<C, 0>(rows, count, n, nan, key, index, index_high, first, ahead, false, lines);
        else fold<C, PassRows>(rows, count, n, nan, key, index, index_high, first, ahead, passes.by_rows, lines);
        rows_read(lines, count * n);
        first += count;
        count = 0;
      }
    });
    if (count != 0) {
      fold<C, 0>(rows, count, n, nan, key, index, index_high, first, 0, false, lines);
      rows_read(lines, count * n);
    }
    // Folded row by row, every position is the winner's already.
    if (!passes.by_rows) resolve_passes(reduced, g, n, PassRows, nan, key, index, index_high, first + count);
  }

  // After a reduction, index holds the first position of the pass whose maximum first beat the
  // state (fold): the winner is that pass's first row holding the best key. A position found
  // row by row (the first pass, the last, a pass with a NaN) is found at its first look. Keys
  // compare values as the winner's rule does: -0.0 ties +0.0, and NaNs match each other.
  static void resolve_passes(const simd::LoopNest<2>& reduced, const T* g, std::size_t n, std::size_t pass_rows, K nan,
                             const K* key, K* index, K* index_high, std::uint64_t positions) {
    std::size_t j = 0;
    if constexpr (resolves_by_gathers)
      if (gathers_fit(reduced, n, positions))
        j = resolve_passes_gathered(reduced, g, n, pass_rows, nan, key, index, index_high, positions);
    for (; j < n; ++j) {
      std::uint64_t at = position_of(index, index_high, j);
      const std::uint64_t end = std::min<std::uint64_t>(at + pass_rows, positions);
      const K best = state_key(key[j], nan);
      while (at + 1 < end && key_at(g + position_offset(reduced, at, 0) + static_cast<std::ptrdiff_t>(j), nan) != best)
        ++at;
      index[j] = low(at);
      if constexpr (split_positions) index_high[j] = high(at);
    }
  }

  // Where a gather is one instruction: the loop above exits at a random row of the pass, a
  // branch no predictor learns, and took a quarter of axis 0 of 64 x 1024 FLOAT32 in cache on
  // the Intel Xeon guest (model 167), and 40% of 128 x 1024 FLOAT16.
  static constexpr bool resolves_by_gathers =
      simd::native_gather_32<Target> && (std::is_same_v<T, float> || std::is_same_v<T, float16>);

  // Whether every offset resolve_passes_gathered forms fits 32 bits: one reduced dimension,
  // rows forward, the last row's last group below 2^31 elements from the first.
  static bool gathers_fit(const simd::LoopNest<2>& reduced, std::size_t n, std::uint64_t positions) {
    if (reduced.rank != 1 || reduced.strides[0][0] <= 0 || positions == 0) return false;
    const auto stride = static_cast<std::uint64_t>(reduced.strides[0][0]);
    return positions <= (std::uint64_t{std::numeric_limits<std::int32_t>::max()} - n) / stride;
  }

  // resolve_passes a vector of groups at a time: each row of the lanes' passes gathered, the
  // last row first, so the first match is the one kept. A lane whose pass ends at `positions`
  // gathers its pass's first row in place of the rows past the end (always in the tensor):
  // that row matches only when it wins, and h = 0 names it then anyway. Returns the groups
  // done (whole vectors). Instantiated only where resolves_by_gathers.
  // The gathers are 32-bit. FLOAT16 has none of 16 bits: a vector of groups is two sets of
  // 32-bit lanes, the even groups and the odd ones, each lane holding one group's position.
  // Group 2m's gather reads its element and group 2m + 1's (the low half is its own), and
  // group 2m + 1's reads group 2m's and its own (the high half): both elements are in the
  // tensor, since the pair is in the same row and within the vector.
  static std::size_t resolve_passes_gathered(const simd::LoopNest<2>& reduced, const T* g, std::size_t n,
                                             std::size_t pass_rows, K nan, const K* key, K* index, K* index_high,
                                             std::uint64_t positions) {
    using W = xsimd::batch<std::int32_t, Target>;
    constexpr std::size_t sets = sizeof(std::int32_t) / sizeof(K);  // 1, or 2 for FLOAT16
    static_assert(sets == 1 || sets == 2);
    // Lane m of set s is group sets * m + s of the vector, at element sets * m from its first.
    const auto stride = static_cast<std::int32_t>(reduced.strides[0][0]);
    const W pair_start = xsimd::make_batch_constant<W, simd::LaneNumber>() * W(static_cast<std::int32_t>(sets));
    const W low_half(0xFFFF), high_half(~0xFFFF);
    const W last(static_cast<std::int32_t>(positions - 1));
    const B nans(nan);
    // A FLOAT32 state holds values' bits, a FLOAT16 state keys (state_key).
    const auto best_key = [&](const B& state) { return float_compares ? key_of<Target, T>(state, nans) : state; };
    // FLOAT16: the two 16-bit halves of every 32-bit lane exchanged (the 16-bit lanes 2m and
    // 2m + 1 swapped).
    const auto swap_halves = [](const auto& w) {
      return xsimd::bitwise_cast<W>(simd::swap_lanes<1, Target>(xsimd::bitwise_cast<B>(w)));
    };
    std::size_t j = 0;
    for (; j + lanes <= n; j += lanes) {
      std::array<W, sets> at;
      if constexpr (sets == 1) {
        at[0] = W::load_aligned(index + j);
      } else {  // the two halves of the 16-bit positions, as the pairs' two groups
        const W lows = W::load_aligned(reinterpret_cast<const std::int32_t*>(index + j));
        const W highs = W::load_aligned(reinterpret_cast<const std::int32_t*>(index_high + j));
        at[0] = (lows & low_half) | (swap_halves(highs) & high_half);
        at[1] = (swap_halves(lows) & low_half) | (highs & high_half);
      }
      const B best = best_key(B::load_aligned(key + j));
      std::array<W, sets> first_offset, end, winner;
      for (std::size_t s = 0; s < sets; ++s) {
        first_offset[s] = at[s] * W(stride) + pair_start;
        // The pass's last row in the tensor: the winner when no earlier row matches.
        end[s] = simd::min_of<Target>(at[s] + W(static_cast<std::int32_t>(pass_rows - 1)), last);
        winner[s] = end[s];
      }
      for (std::size_t h = pass_rows - 1; h-- > 0;) {
        // Wrapping: a lane past the end may overflow here, and takes first_offset instead.
        const W row_offset(static_cast<std::int32_t>(static_cast<std::uint32_t>(h) * static_cast<std::uint32_t>(stride)));
        std::array<W, sets> row, bits;
        for (std::size_t s = 0; s < sets; ++s) {
          row[s] = at[s] + W(static_cast<std::int32_t>(h));
          const W offset = xsimd::select(row[s] < end[s], first_offset[s] + row_offset, first_offset[s]);
          bits[s] = simd::gather_32<Target, sizeof(T)>(g + j, offset);
        }
        if constexpr (sets == 1) {
          const auto hit = key_of<Target, T>(bits[0], nans) == best;
          winner[0] = xsimd::select(hit, row[0], winner[0]);
        } else {
          const B pairs = xsimd::bitwise_cast<B>((bits[0] & low_half) | (bits[1] & high_half));
          const W hits = xsimd::bitwise_cast<W>(xsimd::select(key_of<Target, T>(pairs, nans) == best, B(K(-1)), B(K(0))));
          winner[0] = xsimd::select((hits & low_half) != W(0), row[0], winner[0]);
          winner[1] = xsimd::select((hits & high_half) != W(0), row[1], winner[1]);
        }
      }
      if constexpr (sets == 1) {
        winner[0].store_aligned(index + j);
      } else {
        const W lows = (winner[0] & low_half) | (swap_halves(winner[1]) & high_half);
        const W highs = (swap_halves(winner[0]) & low_half) | (winner[1] & high_half);
        lows.store_aligned(reinterpret_cast<std::int32_t*>(index + j));
        highs.store_aligned(reinterpret_cast<std::int32_t*>(index_high + j));
      }
    }
    return j;
  }

  // Does x displace best (one lane or a vector of lanes)?
  template <Compare C, class V>
  static auto wins(const V& x, const V& best) {
    if constexpr (std::is_arithmetic_v<V>) {
      if constexpr (C == Compare::propagate) return !(best >= x) && best == best;
      else if constexpr (C == Compare::ignore) return !(x <= best) && x == x;
      else return x > best;
    } else {  // bitwise operators on the masks: xsimd 8.1's ! and && take detours on AVX2
      if constexpr (C == Compare::propagate) return ~(best >= x) & (best == best);
      else if constexpr (C == Compare::ignore) return ~(x <= best) & (x == x);
      else return x > best;
    }
  }

  // select(w, a, b) on position lanes, where w compares F lanes (of the same width).
  template <class F, class W>
  static B select_position(const W& w, const B& a, const B& b) {
    if constexpr (std::is_same_v<F, B>) return xsimd::select(w, a, b);
    else return xsimd::bitwise_cast<B>(xsimd::select(w, xsimd::bitwise_cast<F>(a), xsimd::bitwise_cast<F>(b)));
  }

  // Folds rows[0..count), positions first, first + 1, ..., into the state of groups [0, n);
  // position 0 starts it. Fixed != 0: count is Fixed and first is not 0; by_rows: a fixed pass
  // folds row by row too (folds_by_rows), not to its maximum.
  // Split positions whose high halves are all zero so far and stay so in this pass (below
  // 2^16, every FLOAT16 reduction of fewer rows) leave index_high alone: the first pass
  // zeroes it and the others neither load, select nor store it. A load, a select and a store
  // fewer per vector and pass, in a fold whose state's loads and stores are most of its memory
  // operations (FLOAT16 axis 0 of 512 x 1024 at 1 MiB, docs/performance.md).
  template <Compare C, std::size_t Fixed, class Lines>
  static void fold(const T* const* all_rows, std::size_t any_count, std::size_t n, K nan_scalar, K* key, K* index,
                   K* index_high, std::uint64_t first, std::ptrdiff_t ahead, bool by_rows, Lines& lines) {
    const std::uint64_t end = first + (Fixed != 0 ? Fixed : any_count);
    if (split_positions && end > std::uint64_t{1} << 16)
      return fold_lanes<C, Fixed, true>(all_rows, any_count, n, nan_scalar, key, index, index_high, first, ahead,
                                        by_rows, lines);
    fold_lanes<C, Fixed, false>(all_rows, any_count, n, nan_scalar, key, index, index_high, first, ahead, by_rows,
                                lines);
  }

  // fold, with index_high's lanes (HighLanes) or without (their high halves zero).
  template <Compare C, std::size_t Fixed, bool HighLanes, class Lines>
  static void fold_lanes(const T* const* all_rows, std::size_t any_count, std::size_t n, K nan_scalar, K* key,
                         K* index, K* index_high, std::uint64_t first, std::ptrdiff_t ahead, bool by_rows,
                         Lines& lines) {
    constexpr bool high_lanes = split_positions && HighLanes;
    const std::size_t count = Fixed != 0 ? Fixed : any_count;
    // A fixed pass's row pointers by value: through the caller's array they were loaded again
    // after every store of the state, which may alias them.
    std::array<const T*, Fixed> fixed_rows{};
    if constexpr (Fixed != 0) std::copy_n(all_rows, Fixed, fixed_rows.begin());
    const T* const* rows = Fixed != 0 ? fixed_rows.data() : all_rows;
    using F = std::conditional_t<C == Compare::keys, B, xsimd::batch<T, Target>>;
    static_assert(F::size == lanes);
    const B nan(nan_scalar);
    const auto value = [&](const T* p) {
      if constexpr (C == Compare::keys) return load_key<Target, T>(p, nan);
      else return F::load_unaligned(p);
    };
    const std::size_t start = Fixed == 0 && first == 0 ? 1 : 0;
    // Late passes load the positions and store the state only when a lane wins. Those loads
    // and stores were as many memory operations as the pass's rows (Zen 1 has two address
    // units for loads and stores together), and a lane's next win gets rarer with every row
    // folded (Fixed / first, for rows in random order). Early on the test would
    // mispredict often: 512 rows in cache ran 10-15% slower with it from the first pass.
    const bool lazy = Fixed != 0 && first >= lazy_from_row<Fixed>;
    // The writer's state in registers (Lanes::LocalWriter).
    LocalWriter<Lines> writes = lines;
    std::size_t i = 0;
    for (; i + lanes <= n; i += lanes) {
      F best;
      B at(K(0)), at_high(K(0));
      const auto load_positions = [&] {
        at = B::load_aligned(index + i);
        if constexpr (high_lanes) at_high = B::load_aligned(index_high + i);
      };
      bool changed = true;
      if (Fixed == 0 && first == 0) {
        best = value(rows[0] + i);
      } else {
        if constexpr (std::is_same_v<F, B>) best = B::load_aligned(key + i);
        else best = xsimd::bitwise_cast<F>(B::load_aligned(key + i));
        if constexpr (Fixed == 0) load_positions();
      }
      if (ahead != 0 && i % (64 / sizeof(T)) == 0)
        for (std::size_t r = 0; r < count; ++r)
          simd::prefetch_ahead<simd::prefetch_to_l2>(rows[r] + i, ahead * static_cast<std::ptrdiff_t>(sizeof(T)));
      // Row by row: a compare or two and two or three selects per row.
      const auto fold_each_row = [&] {
        if constexpr (Fixed != 0) load_positions();
        for (std::size_t r = start; r < count; ++r) {
          const F x = value(rows[r] + i);
          const auto w = wins<C>(x, best);
          best = xsimd::select(w, x, best);
          at = select_position<F>(w, B(low(first + r)), at);
          if constexpr (high_lanes) at_high = select_position<F>(w, B(high(first + r)), at_high);
        }
      };
      // A pass's maximum per lane into the state where it wins (w): the pass's first position.
      [[maybe_unused]] const auto fold_pass = [&](const F& top, const auto& w) {
        changed = !lazy || xsimd::any(w);
        if (!changed) return;
        load_positions();
        best = xsimd::select(w, top, best);
        at = select_position<F>(w, B(low(first)), at);
        if constexpr (high_lanes) at_high = select_position<F>(w, B(high(first)), at_high);
      };
      if (by_rows) {
        fold_each_row();
      } else if constexpr (C == Compare::keys && Fixed != 0 && simd::native_16bit_extremes<Target, K>) {
        // FLOAT16: the pass's maximum key per lane from three extremes of the raw bits, one
        // instruction each per row (Rows::scan_bits' idea, lane by lane), instead of a key (six)
        // and a max: the signed maximum is the largest number's key when it is not negative; a
        // negative one means the lane's rows are all negative, and the largest is the one of
        // least magnitude, the smallest signed bits (-0.0 included, key 0). A NaN shows as a
        // signed maximum above +inf's bits or an unsigned maximum above -inf's; a pass with
        // one is folded row by row. Then as below.
        using UB = xsimd::batch<U, Target>;
        const auto bits = [&](const T* p) { return B::load_unaligned(reinterpret_cast<const K*>(p)); };
        B hi = bits(rows[0] + i), lo = hi;
        UB uhi = xsimd::bitwise_cast<UB>(hi);
        for (std::size_t r = 1; r < count; ++r) {
          const B x = bits(rows[r] + i);
          hi = simd::max_of<Target>(hi, x);
          lo = simd::min_of<Target>(lo, x);
          uhi = simd::max_of<Target>(uhi, xsimd::bitwise_cast<UB>(x));
        }
        constexpr U negative_inf = U(U(1) << (8 * sizeof(U) - 1)) | Traits<T>::inf;
        if (xsimd::any(hi > B(static_cast<K>(Traits<T>::inf))) ||
            xsimd::any(simd::max_of<Target>(uhi, UB(negative_inf)) != UB(negative_inf))) {
          fold_each_row();
        } else {
          const B top = xsimd::select(hi >= B(K(0)), hi, B(K(0)) - (lo & B(std::numeric_limits<K>::max())));
          fold_pass(top, top > best);
        }
      } else if constexpr (C == Compare::keys && Fixed != 0) {
        // The pass's maximum key per lane, and the pass's first position where it beats the
        // state: one max per row instead of a compare and two or three selects (keys cost six
        // operations a vector already). resolve_passes finds the row within the pass.
        B top = value(rows[0] + i);
        for (std::size_t r = 1; r < count; ++r) top = simd::max_of<Target>(top, value(rows[r] + i));
        fold_pass(top, top > best);
      } else if constexpr (Fixed != 0) {
        // Values, as keys above: the pass's maximum, and the pass's first position where it
        // wins, which resolve_passes turns into the row. The maximum instructions pick NaNs by
        // operand order, so a pass with a NaN in any lane is folded row by row: the sum of its
        // rows is NaN then (and on +inf + -inf, which only costs the row-by-row fold; isnan,
        // because xsimd's != on floats is an ordered compare, false on NaN, on AVX). Two
        // operations per row instead of four or five (in cache the axis-0 case was bound by them).
        F top = value(rows[0] + i), sum = top;
        for (std::size_t r = 1; r < count; ++r) {
          const F x = value(rows[r] + i);
          top = simd::max_of_numbers<Target>(top, x);
          sum += x;
        }
        if (xsimd::any(xsimd::isnan(sum))) {
          fold_each_row();
        } else {
          fold_pass(top, wins<C>(top, best));
        }
      } else {
        fold_each_row();
      }
      if (changed) {
        if constexpr (std::is_same_v<F, B>) best.store_aligned(key + i);
        else xsimd::bitwise_cast<B>(best).store_aligned(key + i);
        at.store_aligned(index + i);
        // Without high lanes at_high stays zero: the first pass stores it, the others keep it.
        if constexpr (high_lanes) at_high.store_aligned(index_high + i);
        else if constexpr (split_positions)
          if (first == 0) at_high.store_aligned(index_high + i);
      }
      for (std::size_t line = simd::cache_line_bytes; line <= count * sizeof(B); line += simd::cache_line_bytes) writes.step();
    }
    give_back(writes, lines);
    for (; i < n; ++i) {
      using S = std::conditional_t<C == Compare::keys, K, T>;
      const auto scalar = [&](const T* p) {
        if constexpr (C == Compare::keys) return key_at(p, nan_scalar);
        else return *p;
      };
      S best;
      if (first == 0) {
        best = scalar(rows[0] + i);
        index[i] = K(0);
        if constexpr (split_positions) index_high[i] = K(0);
      } else {
        std::memcpy(&best, key + i, sizeof(S));
      }
      for (std::size_t r = start; r < count; ++r) {
        const S x = scalar(rows[r] + i);
        if (wins<C>(x, best)) {
          best = x;
          index[i] = low(first + r);
          if constexpr (split_positions) index_high[i] = high(first + r);
        }
      }
      std::memcpy(key + i, &best, sizeof(S));
    }
  }

  // ---- the output ----

  // Row `position`'s offset in operand 0 (input) or 1 (output) of the reduced dimensions.
  static std::ptrdiff_t position_offset(const simd::LoopNest<2>& reduced, std::uint64_t position, std::size_t operand) {
    if (reduced.rank == 1) return static_cast<std::ptrdiff_t>(position) * reduced.strides[operand][0];
    std::ptrdiff_t offset = 0;
    for (std::size_t d = reduced.rank; d-- > 0;) {
      offset += static_cast<std::ptrdiff_t>(position % reduced.sizes[d]) * reduced.strides[operand][d];
      position /= reduced.sizes[d];
    }
    return offset;
  }
  static std::ptrdiff_t output_offset(const simd::LoopNest<2>& reduced, std::uint64_t position) {
    return position_offset(reduced, position, 1);
  }

  // A winner position that no row of the block has: its group's 1 is written by another part
  // of a split call (hardmax_two_phase.hpp). Positions are below 2^32 - 1.
  static constexpr std::uint32_t no_winner = 0xFFFFFFFFu;

  // The output of groups [0, n) of a tile at o, whose winning positions are in index (and
  // index_high): zero-filled and patched, or row by row as a compare-and-select.
  static void write(const Plan& plan, U* o, std::size_t n, const K* index, const K* index_high, StoreStrategy stores,
                    bool contiguous, bool zeroed = false) {
    if (!patches(plan)) return write_selected_rows(plan.reduced, o, n, index, index_high, stores);
    std::uint32_t winner[tile];
    for (std::size_t j = 0; j < n; ++j) winner[j] = position_of(index, index_high, j);
    write_patched(plan, o, n, winner, stores, contiguous, zeroed);
  }

  // Zeros by `stores`, a chunk of rows at a time, each chunk's ones right after its zeros; a
  // group whose winner is no_winner gets zeros only. `zeroed`: the zeros are there already
  // (run_columns' ZerosBehindReads), only the ones are written.
  static void write_patched(const Plan& plan, U* o, std::size_t n, const std::uint32_t* winner, StoreStrategy stores,
                            bool contiguous, bool zeroed = false) {
    const std::uint64_t rows = plan.group_size;
    // A power of two rows a chunk, so a winner's chunk is a shift: the two divisions per group
    // of the counting sort below were most of its time (64-bit `div`; axis 0 of 256 x 1024 in
    // cache spent 8% of the call in them on the Intel guest). Still at most about chunk_bytes
    // (at least a row), and at most max_chunks chunks.
    const std::uint64_t fitting = std::bit_floor(std::max<std::uint64_t>(1, chunk_bytes / (n * sizeof(T))));
    const std::uint64_t chunk_rows = std::max(fitting, std::bit_ceil((rows + max_chunks - 1) / max_chunks));
    const int chunk_shift = std::countr_zero(chunk_rows);
    const auto chunks = static_cast<std::size_t>((rows + chunk_rows - 1) >> chunk_shift);
    // The groups ordered by the chunk of their winning row (a counting sort).
    std::uint16_t order[tile];
    static_assert(tile <= 65536);
    std::uint32_t begin[max_chunks + 1] = {};
    for (std::size_t j = 0; j < n; ++j)
      if (winner[j] != no_winner) ++begin[(std::uint64_t{winner[j]} >> chunk_shift) + 1];
    for (std::size_t c = 0; c < chunks; ++c) begin[c + 1] += begin[c];
    std::uint32_t next[max_chunks];
    std::copy(begin, begin + chunks, next);
    for (std::size_t j = 0; j < n; ++j)
      if (winner[j] != no_winner) order[next[std::uint64_t{winner[j]} >> chunk_shift]++] = static_cast<std::uint16_t>(j);
    const auto patch = [&](std::size_t c) {
      for (std::uint32_t k = begin[c]; k < begin[c + 1]; ++k) {
        const std::size_t j = order[k];
        o[output_offset(plan.reduced, winner[j]) + static_cast<std::ptrdiff_t>(j)] = Traits<T>::one;
      }
    };
    if (zeroed) {
      for (std::size_t c = 0; c < chunks; ++c) patch(c);
      return;
    }
    if (contiguous && stores == StoreStrategy::rep) {
      // (A split call's part, hardmax_two_phase.hpp; a whole call fills a pass at a time.)
      // One memset of the whole block: on the Zen 3 host of issue 10, rep stosb reaches memset's
      // speed only in single calls of tens of MiB (docs/decisions.md, "Store strategy"); the
      // ones then read one line back each.
      simd::fill_span<Target>(o, static_cast<std::size_t>(rows * n), U{0}, stores);
      for (std::size_t c = 0; c < chunks; ++c) patch(c);
      return;
    }
    if (contiguous) {
      for (std::size_t c = 0; c < chunks; ++c) {
        const std::uint64_t r0 = c * chunk_rows, r1 = std::min(rows, r0 + chunk_rows);
        simd::fill_span<Target>(o + static_cast<std::ptrdiff_t>(r0 * n), static_cast<std::size_t>((r1 - r0) * n), U{0}, stores);
        patch(c);
      }
      return;
    }
    std::uint64_t position = 0;
    std::size_t chunk = 0;
    simd::for_each_offset(plan.reduced, plan.reduced.rank, [&](const std::array<std::ptrdiff_t, 2>& e) {
      simd::fill_span<Target>(o + e[1], n, U{0}, stores);
      if ((++position & (chunk_rows - 1)) == 0 || position == rows) patch(chunk++);
    });
  }

  // Every output row as select(index == position, 1, 0) over the tile.
  static void write_selected_rows(const simd::LoopNest<2>& reduced, U* o, std::size_t n, const K* index,
                                  const K* index_high, StoreStrategy stores) {
    std::uint64_t position = 0;
    simd::for_each_offset(reduced, reduced.rank, [&](const std::array<std::ptrdiff_t, 2>& e) {
      write_selected(reinterpret_cast<K*>(o + e[1]), index, index_high, n, position++, stores);
    });
  }

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
};

}  // namespace refops::kernels::inline REFOPS_KERNEL_ABI::hardmax_detail
