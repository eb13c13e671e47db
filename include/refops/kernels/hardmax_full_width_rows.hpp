// HARDMAX, FLOAT32 rows on AVX-512 in full-width vectors: one contiguous row per group, longer
// than the short-row loops take: medium rows (at most a block: rows of 100 or 250 classes) and,
// on a dense output, long ones (rows of 1000, the last axis of 65536 x 1024). Semantics:
// hardmax_core.hpp.
//
// One loop per call: each row is scanned once in 16-lane vectors, every lane noting where its
// maximum first appeared (no second look at the row, no call per row), and on a dense output
// its lines are written while the next row is read (simd::RowLines: built in registers, plain
// or streamed whole, no branch on where the 1 is): a medium row's lines at once after the next
// row's scan, a long row's a line per line the next row loads. A row that holds a NaN or an
// infinity is handed to the key-based scan (Rows::first_maximum), which orders NaNs by the
// call's NanMode.
//
// Rows::run_medium_rows, the medium-row loop this replaces, runs AVX2 vectors (AVX-512 gives
// medium rows to AVX2's loops: short_rows_target), calls a function per row and writes each
// row through write_part or, streamed, a SparseRun whose per-line branch mispredicts about
// once a row. Rows::run_long_rows scans a row a block at a time and writes each row in two
// parts a row apart through two SpanWriters. Which loops run is the host's call
// (full_width_loop): on the Intel Xeon guest (family 6 model 207), one thread, alternated in
// one process, rows of 100 ran at 0.68-0.70 -> 0.90-0.94 of the streamed copy in cache
// (2 MiB) and 0.62-0.63 -> 0.81-0.83 of memcpy out of it (256 MiB); long rows, the
// benchmark's rows_loop=1 against =2, rows of 1024 at +16 bytes 0.79 -> 0.88 of memcpy, of 1000
// 0.79 -> 0.90, in cache 0.85 -> 0.93 (rows of 300, 256 MiB, in a driver: 0.58 -> 0.86). On
// AMD Zen 4 (family 25 model 17, 2026-12-02), where the old loops were tuned, this one wins
// too: rows of 100 1.45x (in cache 1.19x), of 250 1.09x (1.22x), of 300 1.52x (1.46x), long
// rows a tie from memory and 1.01-1.19x in cache (rows of 1024). So every AVX-512 host takes
// it (full_width_loop). This loop at AVX2's width lost to the old one in cache on the Intel
// guest (0.47 against 0.55): AVX2 keeps the old loops (docs/decisions.md, HARDMAX, medium
// rows; long rows).
#pragma once

#include <atomic>

#include <refops/kernels/hardmax_rows.hpp>
#include <refops/kernels/raw_vectors.hpp>
#include <refops/kernels/sparse_run.hpp>

namespace refops::kernels::inline REFOPS_KERNEL_ABI::hardmax_detail {

// Whether AVX-512's FLOAT32 rows take FullWidthRows (on every host, by the measurements above)
// or Rows' loops. forced_rows_loop (1: Rows' loops, 2: FullWidthRows and RowsInAVector; 0: the
// rules) forces it for the benchmark's rows and the tests (detail::force_hardmax_rows_loop sets
// every instruction set's copy).
inline std::atomic<std::size_t> forced_rows_loop{0};
inline bool full_width_loop() { return simd::rule_unless_forced(true, forced_rows_loop); }

// True for rows of `row` elements of `element_bytes` that FullWidthRows takes where the rule lets
// it (long ones on a dense output): FLOAT32, longer than the short-row loops' eight AVX2
// vectors. The benchmark's and the tests' forced rows, as whole_line_rows.
constexpr bool full_width_rows(std::size_t row, std::size_t element_bytes) {
  constexpr std::size_t avx2_bytes = 32, short_vectors = 8;
  return element_bytes == 4 && row > short_vectors * avx2_bytes / element_bytes;
}

template <class Target, class T>
struct FullWidthRows {
#if defined(__AVX512BW__)
  static constexpr bool available = std::is_same_v<T, float> && std::is_base_of_v<xsimd::avx512bw, Target>;
#else
  static constexpr bool available = false;
#endif
  using Full = Rows<Target, T>;  // the key-based scan for rows scan() leaves, and write_part
  using Short = Rows<short_rows_target<Target>, T>;  // the medium rows' bounds
  using U = typename Full::U;
  using K = typename Full::K;

  // The rows this loop takes, where the host's rule says: those Rows::run_medium_rows takes,
  // and those Rows::run_long_rows takes on a dense output.
  static bool takes(const Plan& plan) {
    return available && (Short::takes_medium_rows(plan) || takes_long(plan)) && full_width_loop();
  }
  static bool takes_long(const Plan& plan) {
    // Full's own short and medium loops are AVX2's (Short's): what they leave is long.
    return !Short::takes_short_loops(plan) && !Short::takes_medium_rows(plan) && Full::takes_long_rows(plan) &&
           Full::dense_output(plan.all);
  }

  // A dense output is written in whole lines while the rows are read (streamed in cache where
  // streaming is far ahead of memset: choose_stores). Any other output is written row by row
  // (write_part), as Rows' loop writes it, by the same rule for the lines rows split.
  static simd::StoreNeeds store_needs(const Plan& plan, std::size_t output_bytes, const T*) {
    const bool dense = Full::dense_output(plan.all);
    return {.output_bytes = output_bytes,
            .bytes_per_sparse = static_cast<std::size_t>(plan.group_size) * sizeof(T),
            .writes_lines_while_reading = dense,
            .stream_splits_lines = !dense && Full::rows_split_lines(plan)};
  }

  static void run_rows(const Plan& plan, const T* in, T* out_elements, NanMode mode, StoreStrategy stores) {
    if constexpr (available) {
      U* out = reinterpret_cast<U*>(out_elements);
      const std::size_t row = plan.reduced.sizes[0];
      const K nan = nan_key<T>(mode);
      const bool lines = stores != StoreStrategy::rep && Full::dense_output(plan.all) &&
                         reinterpret_cast<std::uintptr_t>(out) % sizeof(U) == 0;
      if (takes_long(plan)) {
        if (!lines) return Full::run_rows(plan, in, out_elements, mode, stores);
        if (stores == StoreStrategy::stream) return long_rows<true>(plan, in, out, nan);
        return long_rows<false>(plan, in, out, nan);
      }
      if (!lines) {
        for_each_group(plan.kept, [&](std::ptrdiff_t in_offset, std::ptrdiff_t out_offset) {
          Full::write_part(out + out_offset, row, first_maximum(in + in_offset, row, nan), stores);
        });
        return;
      }
      const auto write = [&]<bool Stream>(std::bool_constant<Stream>) {
        simd::RowLines<Target, U, Stream> run(out, U{0}, Traits<T>::one);
        for_each_group_run(plan.kept, [&](std::ptrdiff_t in_offset, std::ptrdiff_t, std::ptrdiff_t in_step, std::ptrdiff_t,
                                          std::size_t count) {
          // A copy the compiler keeps in registers: the object itself, reached from this
          // lambda, was loaded and stored back around every streamed store, which may alias it
          // (perf annotate; the loop then ran rows of 100 in cache at 0.77 of the streamed copy
          // where a standalone copy of it with its state in registers ran at 0.93).
          auto lines = run;
          for (std::size_t j = 0; j < count; ++j, in_offset += in_step)
            lines.row(row, first_maximum(in + in_offset, row, nan));
          run = lines;
        });
        run.finish();
      };
      if (stores == StoreStrategy::stream) write(std::true_type{});
      else write(std::false_type{});
    }
  }

#if defined(__AVX512BW__)
  static_assert(!available || Short::max_short_vectors * Short::lanes == 64, "full_width_rows() states Rows' bound");
  // Long rows on a dense output: each row's lines written while the next row is read, a line
  // per line it loads (a vector is a line), then what is left; the first line at once, as it
  // completes the line the row before ended in.
  template <bool Stream>
  static void long_rows(const Plan& plan, const T* in, U* out, K nan) {
    const std::size_t row = plan.reduced.sizes[0];
    simd::RowLines<Target, U, Stream> run(out, U{0}, Traits<T>::one);
    for_each_group_run(plan.kept, [&](std::ptrdiff_t in_offset, std::ptrdiff_t, std::ptrdiff_t in_step, std::ptrdiff_t,
                                      std::size_t count) {
      auto lines = run;  // in registers: FullWidthRows::run_rows says why
      for (std::size_t j = 0; j < count; ++j, in_offset += in_step) {
        const std::size_t at =
            first_maximum<true>(in + in_offset, row, nan, [&]() __attribute__((always_inline)) { lines.step(); });
        lines.end();
        lines.start(row, at);
      }
      run = lines;
    });
    run.end();
    run.finish();
  }

  // The first maximum of the row at g: scan()'s, or for a row it leaves (a NaN or an
  // infinity) the key-based scan's. each_vector: as scan().
  template <bool Far = false, class EachVector = void (*)()>
  [[gnu::always_inline]] static std::size_t first_maximum(const T* g, std::size_t row, K nan,
                                                          EachVector each_vector = [] {}) {
    const std::ptrdiff_t at = scan<Far>(g, row, each_vector);
    return at >= 0 ? static_cast<std::size_t>(at) : Full::first_maximum(g, row, nan);
  }

  using R = simd::RawFloats<64>;
  static constexpr std::size_t lanes = R::lanes;
  // How far ahead a row asks for its input: rows of a few hundred bytes leave the hardware
  // prefetcher too little of each row to follow (rows of 100 out of cache: 0.61 of memcpy
  // without, 0.80-0.82 with 2 KiB, 0.82-0.83 with 4 KiB). Into L1, but for long rows (Far), one
  // long stream, into L2 and nearer into L1 (simd::prefetch_far_and_near): rows of 1000 0.87-0.90
  // -> 0.92-0.94, of 1024 at +16 bytes 0.90-0.92 -> 0.89-0.95 of memcpy, in cache (2 MiB) 0.85-0.96
  // -> 0.91-0.93 (into L2 alone: 0.90-0.95). Medium rows lost into L2 alone (rows of 250 0.87 ->
  // 0.82) and gained nothing with both (0.88-0.90 -> 0.87-0.88).
  static constexpr std::ptrdiff_t prefetch_bytes = 2048;

  // The position of the first maximum of the n >= lanes floats at p, or -1 when they hold a
  // NaN or an infinity (R::note_non_finite, one operation a vector, cannot tell them apart; such
  // rows are rare, and the key-based scan takes them). Each lane notes where its maximum first
  // appeared (an ordered greater-than: a repeat or a -0.0 after +0.0 keeps the earlier
  // position); the first maximum is the least position among the lanes that hold the largest
  // (-0.0 equals +0.0). A last vector that overlaps the one before repeats elements, which keep
  // their positions. each_vector() runs after each whole vector but the first (long rows store
  // a line of the row before there).
  template <bool Far = false, class EachVector = void (*)()>
  [[gnu::always_inline]] static std::ptrdiff_t scan(const float* p, std::size_t n, EachVector each_vector = [] {}) {
    using V = typename R::V;
    using P = typename R::Positions;
    V hi = R::load(p);
    P at = R::lane_positions(), here = at;
    V seen = R::note_non_finite(R::none_infinite(), hi);
    const auto fold = [&](std::size_t i, P where) __attribute__((always_inline)) {
      const V x = R::load(p + i);
      at = R::note_greater(at, x, hi, where);
      hi = R::max(hi, x);
      seen = R::note_non_finite(seen, x);
    };
    std::size_t i = lanes;
    for (; i + lanes <= n; i += lanes) {
      simd::prefetch_stream<Far>(p + i, prefetch_bytes);
      here = R::advance(here, lanes);
      fold(i, here);
      each_vector();
    }
    if (i < n) fold(n - lanes, R::advance(R::lane_positions(), n - lanes));
    if (R::any_non_finite(seen)) return -1;
    return static_cast<std::ptrdiff_t>(R::first_position(hi, at, R::max_across(hi)));
  }
#endif
};

}  // namespace refops::kernels::inline REFOPS_KERNEL_ABI::hardmax_detail
