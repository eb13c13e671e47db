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
#include <cstdint>

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

// FullWidthRows' long rows are read rows_read_at_once at a time where reads_rows_side_by_side says
// (hardmax_rows.hpp): on Intel, where one core reads memory faster from several streams than from
// one, measured here (the rule's evidence for these rows; run_interleaved has its own). Rows of
// 1024 FLOAT32, 256 MiB, one thread, of memcpy in the same run, one row / 4 side by side / 8 side by
// side: on the Xeon guest with a 105 MiB L3 (family 6 model 167 stepping 8; two runs, quiet)
// 0.97-0.98 / 1.04-1.05 / 1.07-1.08, at +16 bytes 0.85-0.87 / 0.92-0.97 / 0.95-0.96; on the guest
// of the same model with a 480 MiB L3 (stepping 1, 2026-12-06, three runs of two binaries
// alternated) 0.89-0.95 / 1.04-1.05 / 0.94-0.99, at +16 bytes 0.82-0.86 / 0.91-0.96 / 0.83-0.89,
// and on two threads 4 side by side 1.22-1.25 against 8's 1.12-1.17. Eight led the first guest by
// 3% and lost to one row on the second (0.93 / 0.86 against 0.98-1.03 / 0.96 on 2026-12-06 in the
// morning); four is within 3% of the best on both, so four. With the one-row loop's software
// prefetch per row 4 lost (0.93 / 0.81: the hardware prefetcher follows the page streams by itself;
// one row without it fell to 0.78-0.80). Only for an input from memory (from_memory:
// simd::exceeds_cache of the whole call, as RowsInAVector's far prefetch): in the cache no
// prefetcher needs feeding, and 8 rows at once lost (the first guest, one row / 8 side by side, of
// memcpy or of the streamed copy: 1 MiB in and 1 MiB out, in L2, 0.62 / 0.34 in the full run,
// 0.67-0.79 / 0.45-0.51 in two runs after it; 2 MiB each, in L3, 0.87 / 0.89, then 0.76 /
// 0.53-0.55). AMD reads one row at a time: on Zen 4 (2026-12-04) 8 side by side halved the rate
// (256 MiB 1.19 -> 0.64 of the streamed copy, 1 MiB 0.83 -> 0.42); 4 is unmeasured there
// (docs/decisions.md, "HARDMAX's long rows are read side by side on Intel").

// True for the rows of `row` elements of `element_bytes` that long_rows may read side by side:
// FLOAT32 rows of a page or more, so each row read at once is a page, a stream the hardware
// prefetcher follows. Shorter rows side by side are fewer streams read in a different order, and
// gained nothing on the first guest (a threshold of 256 bytes, one row / 8, of memcpy, two runs:
// rows of 100 0.86-0.87 / 0.84-0.87, of 250 0.86-0.88 / 0.87-0.89, of 1000 0.89-0.90 / 0.91-0.92).
// The benchmark's and the tests' forced rows.
constexpr std::size_t side_by_side_min_row_bytes = 4096;
constexpr bool side_by_side_rows(std::size_t row, std::size_t element_bytes) {
  return element_bytes == 4 && row * element_bytes >= side_by_side_min_row_bytes;
}

// Whether FullWidthRows' long rows written by plain stores (in the cache: choose_stores) store
// each vector's zeros beside the read of the same vector and the row's 1 after its scan
// (long_rows_zeros_beside), rather than building each line, its 1 included, while the next row
// is read (long_rows). Every output line is then written while its input line is read, as
// memcpy does, and the scan builds no line. On the Intel Xeon guest (family 6 model 207), one
// thread, the library's own calls alternated in one process (2026-12-07, us a call, each after
// two untimed calls and a memcpy, three rounds): 256 x 1024 (1 MiB in, 1 MiB out: L2's edge)
// 42.5-51.3 against 48.3-57.3, at +16 bytes 41.1-51.8 against 46.9-58.7, 256 x 1000 40.4-55.8
// against 47.8-63.9 (the host's speed moved between rounds; each pair 12-17% apart), 64 x 1024
// (in L2) 7.5-8.9 against 8.2-13.1. A rescan of the row for its maximum, instead of noting
// positions as the scan does, gained about half as much.
// In the cache only: from memory the rows read side by side, prefetched
// (reads_rows_side_by_side), and a plain store there reads its line from memory first whichever
// way (the rule is the input's place, simd::exceeds_cache of the whole call).
// forced_rows_zeros_beside (1 lines a row behind, 2 zeros beside the reads; 0 the rule) forces
// it for the benchmark's rows and the tests (detail::force_hardmax_rows_zeros_beside).
inline std::atomic<std::size_t> forced_rows_zeros_beside{0};
inline bool zeros_beside_reads(bool from_memory) {
  return simd::rule_unless_forced(!from_memory, forced_rows_zeros_beside);
}

// True for the rows of `row` elements of `element_bytes` that are long rows on AVX-512's
// FLOAT32 loop (longer than the medium rows' block of 1 KiB, Rows::max_medium_row_bytes), for
// which the choice above applies on a dense output. The benchmark's and the tests' forced rows.
constexpr std::size_t long_row_min_bytes = 1024 + 1;
constexpr bool zeros_beside_rows(std::size_t row, std::size_t element_bytes) {
  return element_bytes == 4 && row * element_bytes >= long_row_min_bytes;
}

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

  static void run_rows(const Plan& plan, const T* in, T* out_elements, NanMode mode, StoreStrategy stores,
                       std::size_t call_bytes) {
    if constexpr (available) {
      U* out = reinterpret_cast<U*>(out_elements);
      const std::size_t row = plan.reduced.sizes[0];
      const K nan = nan_key<T>(mode);
      const bool lines = stores != StoreStrategy::rep && Full::dense_output(plan.all) &&
                         reinterpret_cast<std::uintptr_t>(out) % sizeof(U) == 0;
      if (takes_long(plan)) {
        if (!lines) return Full::run_rows(plan, in, out_elements, mode, stores, call_bytes);
        if (stores == StoreStrategy::stream) return long_rows<true>(plan, in, out, nan, call_bytes);
        return long_rows<false>(plan, in, out, nan, call_bytes);
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
  static_assert(!available || Short::max_medium_row_bytes + 1 == long_row_min_bytes, "zeros_beside_rows() states Rows' bound");
  // Long rows on a dense output: each row's lines written while the next row is read, a line
  // per line it loads (a vector is a line), then what is left; the first line at once, as it
  // completes the line the row before ended in. Side by side (reads_rows_side_by_side), rows are
  // read rows_read_at_once at a time and the batch before written meanwhile, a line per line
  // loaded.
  template <bool Stream>
  static void long_rows(const Plan& plan, const T* in, U* out, K nan, std::size_t call_bytes) {
    const std::size_t row = plan.reduced.sizes[0];
    const bool from_memory = simd::exceeds_cache(call_bytes);  // the whole call's input
    if (!Stream && zeros_beside_reads(from_memory)) return long_rows_zeros_beside(plan, in, out, nan);
    const bool side_by_side = side_by_side_rows(row, sizeof(T)) && reads_rows_side_by_side(from_memory);
    simd::RowLines<Target, U, Stream> run(out, U{0}, Traits<T>::one);
    for_each_group_run(plan.kept, [&](std::ptrdiff_t in_offset, std::ptrdiff_t, std::ptrdiff_t in_step, std::ptrdiff_t,
                                      std::size_t count) {
      auto lines = run;  // in registers: FullWidthRows::run_rows says why
      std::size_t j = side_by_side ? rows_side_by_side(lines, in + in_offset, in_step, count, row, nan) : 0;
      for (in_offset += static_cast<std::ptrdiff_t>(j) * in_step; j < count; ++j, in_offset += in_step) {
        const std::size_t at = first_maximum<simd::StreamPrefetch::far_and_near>(
            in + in_offset, row, nan, [&]() __attribute__((always_inline)) { lines.step(); });
        lines.end();
        lines.start(row, at);
      }
      run = lines;
    });
    run.end();
    run.finish();
  }

  // Long rows on a dense output by plain stores, in the cache (zeros_beside_reads says why):
  // each line's zeros stored as the scan reads the row's vector at the same place, the rest
  // after the scan, and then the row's 1 into a line still in L1. The zeros go out as whole
  // aligned vectors (a masked part at each end of the row): on an output 16 bytes off the
  // vector grid, NumPy's, unaligned vectors lost to the lines built a row behind (47.6-51.1
  // against 46.7-48.8 us a call, 256 x 1024). No software prefetch: the long rows' own
  // (far_and_near) lost here, 12% at 1 MiB and 2% at 2 MiB (docs/decisions.md).
  static void long_rows_zeros_beside(const Plan& plan, const T* in, U* out, K nan) {
    static_assert(sizeof(U) == 4 && lanes == 16);
    const std::size_t row = plan.reduced.sizes[0];
    const __m512i zero = _mm512_setzero_si512();
    for_each_group_run(plan.kept, [&](std::ptrdiff_t in_offset, std::ptrdiff_t out_offset, std::ptrdiff_t in_step,
                                      std::ptrdiff_t out_step, std::size_t count) {
      for (std::size_t j = 0; j < count; ++j, in_offset += in_step, out_offset += out_step) {
        U* const o = out + out_offset;
        U* const end = o + row;
        // The row's elements before the first vector boundary (a vector is a line: 0 to 15), then
        // whole vectors.
        const std::size_t head = simd::elements_to_line<U>(reinterpret_cast<std::uintptr_t>(o));
        _mm512_mask_storeu_epi32(o, static_cast<__mmask16>((1u << head) - 1), zero);
        U* next = o + head;
        const std::size_t at = first_maximum<simd::StreamPrefetch::none>(
            in + in_offset, row, nan, [&]() __attribute__((always_inline)) {
              _mm512_store_si512(next, zero);
              next += lanes;
            });
        for (; next + lanes <= end; next += lanes) _mm512_store_si512(next, zero);
        _mm512_mask_storeu_epi32(next, static_cast<__mmask16>((1u << (end - next)) - 1), zero);
        o[at] = Traits<T>::one;
      }
    });
  }

  // The first count / N * N of `count` rows from g, `step` apart, N = rows_read_at_once side by
  // side, without software prefetches (the measurements over side_by_side_rows say why): each
  // batch's first maxima are queued, and written while the next batch is read, a line per vector
  // loaded (as many lines as the batch loads, so the queue empties as the scan ends). Leaves the
  // last row started, as the one-row loop does. Returns the rows done.
  template <class Lines>
  [[gnu::always_inline]] static std::size_t rows_side_by_side(Lines& lines, const T* g, std::ptrdiff_t step,
                                                              std::size_t count, std::size_t row, K nan) {
    constexpr std::size_t N = rows_read_at_once;
    std::size_t queue[N];
    std::size_t queued = 0, taken = 0;
    const auto start_next = [&]() __attribute__((always_inline)) {
      lines.end();
      lines.start(row, queue[taken++]);
    };
    const auto next_line = [&]() __attribute__((always_inline)) {
      if (!lines.step() && taken < queued) start_next();
    };
    std::size_t j = 0;
    for (; j + N <= count; j += N) {
      const T* p[N];
      for (std::size_t r = 0; r < N; ++r) p[r] = g + static_cast<std::ptrdiff_t>(j + r) * step;
      std::ptrdiff_t at[N];
      scan_rows<simd::StreamPrefetch::none, N>(p, row, at, next_line);
      while (taken < queued) start_next();
      for (std::size_t r = 0; r < N; ++r)
        queue[r] = at[r] >= 0 ? static_cast<std::size_t>(at[r]) : Full::first_maximum(p[r], row, nan);
      queued = N;
      taken = 0;
    }
    while (taken < queued) start_next();
    return j;
  }

  // The first maximum of the row at g: scan()'s, or for a row it leaves (a NaN or an
  // infinity) the key-based scan's. each_vector: as scan().
  template <simd::StreamPrefetch Ask = simd::StreamPrefetch::ahead, class EachVector = void (*)()>
  [[gnu::always_inline]] static std::size_t first_maximum(const T* g, std::size_t row, K nan,
                                                          EachVector each_vector = [] {}) {
    const std::ptrdiff_t at = scan<Ask>(g, row, each_vector);
    return at >= 0 ? static_cast<std::size_t>(at) : Full::first_maximum(g, row, nan);
  }

  using R = simd::RawFloats<64>;
  static constexpr std::size_t lanes = R::lanes;
  // How far ahead a row asks for its input: rows of a few hundred bytes leave the hardware
  // prefetcher too little of each row to follow (rows of 100 out of cache: 0.61 of memcpy
  // without, 0.80-0.82 with 2 KiB, 0.82-0.83 with 4 KiB). Into L1 (StreamPrefetch::ahead), but
  // for long rows, one long stream, into L2 and nearer into L1 (far_and_near): rows of 1000
  // 0.87-0.90 -> 0.92-0.94, of 1024 at +16 bytes 0.90-0.92 -> 0.89-0.95 of memcpy, in cache
  // (2 MiB) 0.85-0.96 -> 0.91-0.93 (into L2 alone: 0.90-0.95). Medium rows lost into L2 alone
  // (rows of 250 0.87 -> 0.82) and gained nothing with both (0.88-0.90 -> 0.87-0.88).
  static constexpr std::ptrdiff_t prefetch_bytes = 2048;

  // The position of the first maximum of the n >= lanes floats at p, or -1 when they hold a
  // NaN or an infinity (R::note_non_finite, one operation a vector, cannot tell them apart; such
  // rows are rare, and the key-based scan takes them). Each lane notes where its maximum first
  // appeared (an ordered greater-than: a repeat or a -0.0 after +0.0 keeps the earlier
  // position); the first maximum is the least position among the lanes that hold the largest
  // (-0.0 equals +0.0). A last vector that overlaps the one before repeats elements, which keep
  // their positions. each_vector() runs after each whole vector but the first (long rows store
  // a line of the row before there).
  template <simd::StreamPrefetch Ask = simd::StreamPrefetch::ahead, class EachVector = void (*)()>
  [[gnu::always_inline]] static std::ptrdiff_t scan(const float* p, std::size_t n, EachVector each_vector = [] {}) {
    std::ptrdiff_t at;
    scan_rows<Ask, 1>(&p, n, &at, each_vector);
    return at;
  }

  // The same for N rows of n elements side by side: each vector position loads every row's
  // vector there, so the rows are N streams read at once (long_rows: a core reads memory faster
  // from several streams than from one). at[r]: row r's first maximum, or -1. each_vector()
  // runs after each row's whole vector but the first vector of the rows. Ask: what each row asks
  // for ahead of it (none for the rows side by side: the measurements over side_by_side_rows say
  // why).
  template <simd::StreamPrefetch Ask, std::size_t N, class EachVector>
  [[gnu::always_inline]] static void scan_rows(const float* const* p, std::size_t n, std::ptrdiff_t* at_out,
                                               EachVector each_vector) {
    using V = typename R::V;
    using P = typename R::Positions;
    V hi[N], seen[N];
    P at[N];
    P here = R::lane_positions();
#pragma GCC unroll 8
    for (std::size_t r = 0; r < N; ++r) {
      hi[r] = R::load(p[r]);
      at[r] = here;
      seen[r] = R::note_non_finite(R::none_infinite(), hi[r]);
    }
    const auto fold = [&](std::size_t r, std::size_t i, P where) __attribute__((always_inline)) {
      const V x = R::load(p[r] + i);
      at[r] = R::note_greater(at[r], x, hi[r], where);
      hi[r] = R::max(hi[r], x);
      seen[r] = R::note_non_finite(seen[r], x);
    };
    std::size_t i = lanes;
    for (; i + lanes <= n; i += lanes) {
      here = R::advance(here, lanes);
#pragma GCC unroll 8
      for (std::size_t r = 0; r < N; ++r) {
        simd::prefetch_stream<Ask>(p[r] + i, prefetch_bytes);
        fold(r, i, here);
        each_vector();
      }
    }
    if (i < n) {
      const P where = R::advance(R::lane_positions(), n - lanes);
#pragma GCC unroll 8
      for (std::size_t r = 0; r < N; ++r) fold(r, n - lanes, where);
    }
#pragma GCC unroll 8
    for (std::size_t r = 0; r < N; ++r)
      at_out[r] = R::any_non_finite(seen[r]) ? -1
                                             : static_cast<std::ptrdiff_t>(R::first_position(hi[r], at[r], R::max_across(hi[r])));
  }
#endif
};

}  // namespace refops::kernels::inline REFOPS_KERNEL_ABI::hardmax_detail
