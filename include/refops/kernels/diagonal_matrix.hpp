// DIAGONAL_MATRIX and DIAGONAL_MATRIX1 kernels (SPEC section 3): one band kernel serves both.
//
// Semantics. x is the coordinate in the last dimension, y in the second-to-last; leading
// dimensions are batch, so every 2-D slice is the same (the input, if any, is read at the same
// coordinate). With topX = x - y and Begin, End all in 64-bit (INT32_MIN/INT32_MAX never
// overflow):
//   useValue = (End >= Begin) XOR (topX >= Begin) XOR (topX < End)
//   out      = useValue ? Value : (input ? input[coordinate] : 0)
// so Value fills topX in [Begin, End); Begin > End inverts the band (Value outside
// [End, Begin), the input inside it); Begin == End never writes Value. DIAGONAL_MATRIX(Offset,
// Value) is Begin = Offset, End = Offset + 1 (computed in 64-bit, so Offset INT32_MAX works)
// with the float Value converted by value_cast: truncate toward zero and saturate into
// integers, NaN to 0, round to nearest even into FLOAT16. Offsets outside the matrix give all
// zeros. No arithmetic touches element values: every path moves bit patterns (bits_t), so
// -0.0 and NaN payloads of Value and of the input arrive unchanged.
//
// Paths. The scalar Target evaluates the formula above for every element: it is the reference.
// Vector Arches handle rows whose output elements are contiguous; other rows (and inputs that
// are strided along x) take the scalar formula. For row y the band is one interval of columns
// [lo, hi) (clamped to the row), so a row is at most three runs: before, band, after.
//  - Long rows write the runs in order with fills of a bit pattern or copies of the input row
//    (simd::fill_span / copy_span), so every byte is written once while the row is hot. When
//    Value has the background's bits (Value 0 without an input) the row is a single fill.
//    Streamed long rows cut their runs at cache-line boundaries instead, and blend the line
//    around each edge of the band vector by vector (below), so those lines are streamed too.
//  - The store strategy is chosen once per call (simd::choose_stores): plain, streaming, or,
//    for a contiguous output without an input, one memset of the whole output and then the
//    band (rep).
//  - Without an input, a batch of small packed matrices is the first matrix plus copies.
//  - Short rows (a few vectors), and the lines around the band's edges in streamed long
//    rows, compute each vector as a blend of the Value pattern and the background (zero, the
//    broadcast input element, or a load of the input row) under a lane mask, with one
//    overlapping store for a ragged end; rows shorter than a vector use the scalar formula.
#pragma once

#include <refops/kernels/abi.hpp>

#include <algorithm>
#include <array>
#include <cassert>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <limits>
#include <optional>

#include <refops/dims.hpp>
#include <refops/tensor_view.hpp>
#include <refops/value_cast.hpp>
#include <refops/kernels/cache_info.hpp>
#include <refops/kernels/loop_nest.hpp>
#include <refops/kernels/simd.hpp>
#include <refops/kernels/sparse_run.hpp>
#include <refops/kernels/store_choice.hpp>

namespace refops::kernels::inline REFOPS_KERNEL_ABI::diagonal_matrix_detail {

// SPEC's test for one element, verbatim.
inline bool band_uses_value(std::int64_t top_x, std::int64_t begin, std::int64_t end) {
  return (end >= begin) ^ (top_x >= begin) ^ (top_x < end);
}

// The columns [lo, hi) of row y whose topX lies in [min(Begin, End), max(Begin, End)),
// clamped to [0, width]. They take Value when Begin <= End and the background otherwise.
struct BandColumns {
  std::size_t lo, hi;
};
inline BandColumns band_columns(std::int64_t y, std::int64_t begin, std::int64_t end, std::size_t width) {
  const auto w = static_cast<std::int64_t>(width);
  auto clamp = [w](std::int64_t v) { return static_cast<std::size_t>(std::clamp<std::int64_t>(v, 0, w)); };
  return {clamp(y + std::min(begin, end)), clamp(y + std::max(begin, end))};
}

// How the background (the non-Value elements) of a row is produced.
enum class Background { zero, broadcast, contiguous, strided };

// One problem in bit patterns, canonicalized: batch dimensions first, then y and x.
template <class U>
struct BandProblem {
  U* out;
  const U* in;  // nullptr: no input
  simd::LoopNest<2> nest;  // operand 0 the output, 1 the input
  U value;
  std::int64_t begin, end;
  std::size_t batch_rank, height, width;
  std::ptrdiff_t out_row_step, out_col_step, in_row_step, in_col_step;
  simd::StoreRequest stores{};  // forced strategy and the whole call's bytes (thread chunks)
  std::size_t read_gap_bytes;  // the longest Value run whose input a streamed row reads anyway
  std::size_t read_streams;    // parts of a streamed copy of the input read side by side
};

// A streamed row with a contiguous input reads the input lines under its runs of Value, though
// it does not use them, when a run is at most this long: the hardware prefetcher follows a
// stream of loads, and a stream that skips lines is a new one, which it takes some 0.5 us to
// find again. A Trilu 4096 x 8192 (up to 16 KiB skipped per row) ran at 0.74-0.79 of a streamed
// copy skipping them, 0.80-0.86 reading them; a standalone copy of 24 KiB per row, skipping 256
// bytes before each, took 35% longer than one skipping nothing (Zen 4, one thread, 2 MiB
// pages). Longer runs are skipped: their lines would cost more than finding the stream again.
// On the Intel Xeon guest skipping every run was better (alternated, 3 repetitions, of memcpy:
// 0.87-0.92 skipping, 0.81 with 16 KiB, 0.82 reading all; +16 B 0.81 / 0.76 / 0.74-0.76): its
// prefetchers find a skipping stream again at once, and its one core's read bandwidth is what
// the unused lines take from. So the rule is the vendor; the benchmark's read_gap_bytes rows
// show it on any host. On Zen 3 (AVX2, 2026-11-27; five runs of 3 repetitions, two binaries)
// the three choices fell within one spread, 0.91-1.04 of the streamed copy each, so it stays
// with Zen 4's (unlike hardmax_rows.hpp's whole_line_prefetch, where Zen 3 sides with Intel).
inline std::size_t read_through_gap_bytes() { return simd::intel_cpu() ? 0 : 16384; }

// How many parts of a long streamed copy of the input are read side by side
// (simd::copy_streamed_in_parts): one core of the Intel Xeon guest (105 MiB L3) reads faster
// from several streams than from one. A standalone streamed copy of 128 MiB ran at 13.1-15.9
// GB/s (read + write) in one pass, 16.6-19.2 with 4 pages read side by side, and in chunks of
// 16 KiB to 1 MiB, each as 4 quarters side by side, at 18.3-20.3 (2 halves 17.5-18.4; quarters
// of 2 KiB gained nothing); asking further ahead did not do it (13.4-15.6). Trilu 4096 x 8192
// went from 0.89-0.90 of memcpy to 0.96-0.97, at +16 bytes 0.76-0.77 -> 0.82-0.83 (alternated, 2
// x 3 repetitions, one thread). AMD reads one pass: on Zen 4 (2026-12-04, the full run's
// forced rows, of memcpy) 4 parts lost, 0.88 -> 0.67, at +16 bytes 1.00 -> 0.73; the
// benchmark's read_streams rows show both on any host.
inline std::size_t copy_read_streams() { return simd::intel_cpu() ? 4 : 1; }

// Host choices forced by the benchmark and the tests (src/ops/diagonal_matrix_tuning.hpp); 0
// keeps the kernel's rule.
struct BandTuning {
  std::size_t read_gap_bytes = 0;
  std::size_t read_streams = 0;
};

template <class U>
BandProblem<U> make_band_problem(U* out, const Dims& sizes, const Dims& out_strides, const U* in,
                                 const Dims& in_strides, U value, std::int64_t begin, std::int64_t end,
                                 simd::StoreRequest stores = {}, BandTuning forced = {}) {
  assert(sizes.size() >= 2 && out_strides.size() == sizes.size());
  enum Role { batch = 0, row = 1, column = 2 };
  simd::LoopNest<2> nest;
  const std::size_t rank = sizes.size();
  for (std::size_t d = 0; d < rank; ++d) {
    const auto in_stride = in ? static_cast<std::ptrdiff_t>(in_strides[d]) : std::ptrdiff_t{0};
    nest.push(sizes[d], {static_cast<std::ptrdiff_t>(out_strides[d]), in_stride},
              d + 2 < rank ? batch : (d + 2 == rank ? row : column));
  }
  nest = simd::canonicalize(nest, (1u << row) | (1u << column));
  const std::size_t r = nest.rank;
  return {out,
          in,
          nest,
          value,
          begin,
          end,
          r - 2,
          nest.sizes[r - 2],
          nest.sizes[r - 1],
          nest.strides[0][r - 2],
          nest.strides[0][r - 1],
          nest.strides[1][r - 2],
          nest.strides[1][r - 1],
          stores,
          forced.read_gap_bytes != 0 ? forced.read_gap_bytes : read_through_gap_bytes(),
          forced.read_streams != 0 ? forced.read_streams : copy_read_streams()};
}

// Calls row(y, out_row, in_row) for every row of every batch slice, in memory order.
template <class U, class F>
void for_each_row(const BandProblem<U>& p, F&& row) {
  simd::for_each_offset(p.nest, p.batch_rank, [&](const std::array<std::ptrdiff_t, 2>& offset) {
    U* out_row = p.out + offset[0];
    const U* in_row = p.in ? p.in + offset[1] : nullptr;
    for (std::size_t y = 0; y < p.height; ++y) {
      row(y, out_row, in_row);
      out_row += p.out_row_step;
      if (in_row) in_row += p.in_row_step;
    }
  });
}

// The reference: SPEC's formula for every element of one row, any strides.
template <class U>
void band_row_scalar(const BandProblem<U>& p, std::size_t y, U* out_row, const U* in_row) {
  for (std::size_t x = 0; x < p.width; ++x) {
    const std::int64_t top_x = static_cast<std::int64_t>(x) - static_cast<std::int64_t>(y);
    const auto xi = static_cast<std::ptrdiff_t>(x);
    U v = U{0};
    if (band_uses_value(top_x, p.begin, p.end)) v = p.value;
    else if (in_row) v = in_row[xi * p.in_col_step];
    out_row[xi * p.out_col_step] = v;
  }
}

// The background of columns [a, a + n) of a row.
template <class Target, class U>
void background_run(const BandProblem<U>& p, Background bg, U* out_row, const U* in_row, std::size_t a,
                    std::size_t n, StoreStrategy stores) {
  if (n == 0) return;
  switch (bg) {
    case Background::zero: simd::fill_span<Target>(out_row + a, n, U{0}, stores); return;
    case Background::broadcast: simd::fill_span<Target>(out_row + a, n, in_row[0], stores); return;
    case Background::contiguous: simd::copy_span<Target>(out_row + a, in_row + a, n, stores, p.read_streams); return;
    case Background::strided: break;
  }
  for (std::size_t x = a; x < a + n; ++x)
    out_row[x] = in_row[static_cast<std::ptrdiff_t>(x) * p.in_col_step];
}

// A long contiguous row as three runs written in order.
template <class Target, class U>
void band_row_runs(const BandProblem<U>& p, Background bg, std::size_t y, U* out_row, const U* in_row,
                   StoreStrategy stores) {
  // The zero fast path (and its kin): when Value has the background's bits (Value 0 without
  // an input, or the broadcast input element), the row is one fill.
  if (bg == Background::zero || bg == Background::broadcast) {
    const U background = bg == Background::zero ? U{0} : in_row[0];
    if (background == p.value) {
      simd::fill_span<Target>(out_row, p.width, background, stores);
      return;
    }
  }
  const auto [lo, hi] = band_columns(static_cast<std::int64_t>(y), p.begin, p.end, p.width);
  const bool inside_is_value = p.begin <= p.end;
  // A narrow band over a uniform background (the identity matrix): one fill of the row, then
  // the band's few elements while the row is in L1, instead of three runs with ragged ends.
  constexpr std::size_t narrow_band = simd::cache_line_bytes / sizeof(U);
  if ((bg == Background::zero || bg == Background::broadcast) && inside_is_value && hi - lo <= narrow_band) {
    simd::fill_span<Target>(out_row, p.width, bg == Background::zero ? U{0} : in_row[0], stores);
    for (std::size_t x = lo; x < hi; ++x) out_row[x] = p.value;
    return;
  }
  auto outside = [&](std::size_t a, std::size_t n) {
    if (inside_is_value) background_run<Target>(p, bg, out_row, in_row, a, n, stores);
    else if (n) simd::fill_span<Target>(out_row + a, n, p.value, stores);
  };
  outside(0, lo);
  if (inside_is_value) {
    if (hi > lo) simd::fill_span<Target>(out_row + lo, hi - lo, p.value, stores);
  } else {
    background_run<Target>(p, bg, out_row, in_row, lo, hi - lo, stores);
  }
  outside(hi, p.width - hi);
}

// Lane masks without comparisons (xsimd 8.1 lacks some unsigned 64-bit compares on SSE2):
// loading `lanes` elements at table + 64 - k gives lanes i >= k set (ones_from) or lanes i < k
// set (ones_below), for k in [0, 64].
template <class U>
struct LaneMaskTables {
  std::array<U, 128> ones_from{}, ones_below{};
  constexpr LaneMaskTables() {
    for (std::size_t i = 0; i < 64; ++i) {
      ones_from[64 + i] = static_cast<U>(~U{0});
      ones_below[i] = static_cast<U>(~U{0});
    }
  }
};
template <class U>
inline constexpr LaneMaskTables<U> lane_mask_tables{};

// Columns [a, a + n) of a contiguous row (n >= lanes), one vector at a time: blend(Value,
// background) under the mask of the lanes in the band's columns, through the store-span helper
// (the last vector overlaps the one before). Short rows whole; long streamed rows only the
// lines around the band's edges (band_row_lines).
template <class Target, class U>
void band_blend_span(const BandProblem<U>& p, Background bg, BandColumns band, U* out_row, const U* in_row,
                     std::size_t a, std::size_t n, StoreStrategy stores) {
  using batch = xsimd::batch<U, Target>;
  static_assert(batch::size <= 64);
  const auto [lo, hi] = band;
  const batch value(p.value);
  const bool inside_is_value = p.begin <= p.end;
  U* const out = out_row + a;
  const U* const in = in_row ? in_row + a : nullptr;
  // Column numbers of the vector at x0 (relative to a) against the band.
  auto clamp_lanes = [a](std::size_t edge, std::size_t x0) {
    return std::min(edge - std::min(edge, a + x0), batch::size);
  };
  // v where the lanes of the vector at x0 are in [lo, hi), else w.
  auto blend = [=](std::size_t x0, const batch& v, const batch& w) {
    const LaneMaskTables<U>& t = lane_mask_tables<U>;
    const batch mask = batch::load_unaligned(t.ones_from.data() + 64 - clamp_lanes(lo, x0)) &
                       batch::load_unaligned(t.ones_below.data() + 64 - clamp_lanes(hi, x0));
    return w ^ ((v ^ w) & mask);
  };
  // Vectors wholly outside or wholly inside the band (all but one or two of a short row) skip
  // the masks, which cost more than a streamed store (identity rows streamed ran at 0.5 of
  // memset with them).
  auto outside = [lo, hi, a](std::size_t x0) { return a + x0 + batch::size <= lo || a + x0 >= hi; };
  auto inside = [lo, hi, a](std::size_t x0) { return a + x0 >= lo && a + x0 + batch::size <= hi; };
  auto element_at = [](std::size_t) -> U { return U{0}; };  // never called: n >= lanes
  if (stores == StoreStrategy::rep) stores = StoreStrategy::plain;  // computed vectors
  // By value: a vector store may alias any memory, so operands reached through references
  // would be loaded again after every store. A uniform background is one register for the
  // whole span, so its loop holds nothing else.
  if (bg != Background::contiguous) {
    const batch background(bg == Background::broadcast ? in_row[0] : U{0});
    const batch in_band = inside_is_value ? value : background, off_band = inside_is_value ? background : value;
    simd::store_span<Target>(
        out, n, stores,
        [=](std::size_t x0) { return outside(x0) ? off_band : inside(x0) ? in_band : blend(x0, in_band, off_band); },
        element_at);
    return;
  }
  // The input is loaded only where the vector takes some of it: a Trilu's zeroed half reads
  // nothing.
  simd::store_span<Target>(
      out, n, stores,
      [=](std::size_t x0) __attribute__((always_inline)) {
        if (inside_is_value ? inside(x0) : outside(x0)) return value;
        // Asked for 4 KiB ahead into L2: the loads of this loop stalled on memory (copy_span).
        simd::prefetch_ahead<simd::prefetch_to_l2>(in + x0, 4096);
        const batch background = batch::load_unaligned(in + x0);
        if (inside_is_value ? outside(x0) : inside(x0)) return background;
        return inside_is_value ? blend(x0, value, background) : blend(x0, background, value);
      },
      element_at);
}

// A short contiguous row (width >= lanes), whole through band_blend_span.
template <class Target, class U>
void band_row_blend(const BandProblem<U>& p, Background bg, std::size_t y, U* out_row, const U* in_row,
                    StoreStrategy stores) {
  const BandColumns band = band_columns(static_cast<std::int64_t>(y), p.begin, p.end, p.width);
  band_blend_span<Target>(p, bg, band, out_row, in_row, 0, p.width, stores);
}

// A long streamed row (width >= 16 lanes) as runs cut at cache-line boundaries: the line
// around each edge of the band through band_blend_span, the runs between as fills of Value or
// copies/fills of the background (background_run). Cut at lines, no line is written both
// plain and streamed (diagonal_band_rows says why that matters), and no run's loop tests
// an edge per vector: with one generator for the whole row testing both edges on every
// vector, those compares and branches, not memory, set the pace (Trilu 4096 x 8192 at
// 0.75-0.79 of a streaming copy, 0.85-0.87 in runs; an input row filled whole with Value at
// 0.67 of a streamed fill, 1.05 in runs; Zen 3, one thread).
template <class Target, class U>
void band_row_lines(const BandProblem<U>& p, Background bg, std::size_t y, U* out_row, const U* in_row,
                    StoreStrategy stores) {
  constexpr std::size_t lanes = xsimd::batch<U, Target>::size;
  constexpr std::size_t line = simd::line_elements<Target, U>;
  const BandColumns band = band_columns(static_cast<std::int64_t>(y), p.begin, p.end, p.width);
  const auto address = reinterpret_cast<std::uintptr_t>(out_row);
  // Cuts: the columns on a line boundary at least a vector from both ends of the row, so
  // every run and window holds a vector or more.
  const std::size_t aligned = simd::elements_to_line<U>(address);
  const std::size_t first_cut = aligned >= lanes ? aligned : aligned + (lanes - aligned + line - 1) / line * line;
  if (address % sizeof(U) != 0 || first_cut + lanes > p.width) {
    band_blend_span<Target>(p, bg, band, out_row, in_row, 0, p.width, stores);
    return;
  }
  const std::size_t last_cut = first_cut + (p.width - lanes - first_cut) / line * line;
  const auto cut_at_or_below = [&](std::size_t x) {
    return x < first_cut ? 0 : std::min(last_cut, first_cut + (x - first_cut) / line * line);
  };
  const auto cut_at_or_above = [&](std::size_t x) {
    return x <= first_cut ? first_cut : x > last_cut ? p.width : first_cut + (x - first_cut + line - 1) / line * line;
  };
  const bool inside_is_value = p.begin <= p.end;
  std::size_t at = 0;  // columns [0, at) are written
  // Columns [at, to), which hold no edge of the band: all Value or all background.
  const auto run_to = [&](std::size_t to) {
    if (to <= at) return;
    const bool in_band = at >= band.lo && to <= band.hi;
    if (in_band == inside_is_value) {
      if (bg == Background::contiguous) {
        const std::size_t gap = (to - at) * sizeof(U);
        if (gap <= p.read_gap_bytes) {
          simd::prefetch_lines(in_row + at, gap);  // read_through_gap_bytes
        } else if (to < p.width) {
          // The input after a skipped run is asked for into L2 while the run is written, so the
          // copy after it starts on lines on their way (copy_span asks for none past its own
          // span). Trilu 4096 x 8192 at +16 bytes: 0.99-1.05 -> 0.91-0.98 of memcpy's time (Intel
          // guest; docs/decisions.md, "A streamed copy asks for nothing past its span").
          simd::prefetch_lines<simd::prefetch_to_l2>(in_row + to, std::min<std::size_t>(4096, (p.width - to) * sizeof(U)));
        }
      }
      simd::fill_span<Target>(out_row + at, to - at, p.value, stores);
    } else background_run<Target>(p, bg, out_row, in_row, at, to - at, stores);
    at = to;
  };
  for (const std::size_t edge : {band.lo, band.hi}) {
    if (edge == 0 || edge >= p.width) continue;  // no edge inside the row
    const std::size_t below = cut_at_or_below(edge), above = cut_at_or_above(edge);
    if (below == above) {  // the edge is a cut: the runs either side meet there
      run_to(edge);
      continue;
    }
    run_to(below);
    if (above > at) {
      band_blend_span<Target>(p, bg, band, out_row, in_row, at, above - at, stores);
      at = above;
    }
  }
  run_to(p.width);
}

template <class Target, class U>
void diagonal_band_bits(const BandProblem<U>& p);

// Elements of the output when they are one contiguous block (packed), else 0.
template <class U>
std::size_t contiguous_elements(const BandProblem<U>& p) {
  std::size_t elements = 1;
  for (std::size_t d = p.nest.rank; d-- > 0;) {
    if (p.nest.sizes[d] > 1 && p.nest.strides[0][d] != static_cast<std::ptrdiff_t>(elements)) return 0;
    elements *= p.nest.sizes[d];
  }
  return elements;
}

// The store strategy of the whole call: the background is zero when there is no input and
// Value fills the band (or is zero too); the sparse elements are the band's.
template <class Target, class U>
StoreStrategy band_stores(const BandProblem<U>& p) {
  std::size_t elements = p.height * p.width;
  for (std::size_t d = 0; d < p.batch_rank; ++d) elements *= p.nest.sizes[d];
  const bool zero_background = !p.in && (p.begin <= p.end || p.value == U{0}) && contiguous_elements(p) != 0;
  std::size_t bytes_per_sparse = ~std::size_t{0};
  const std::int64_t band = p.end - p.begin;
  if (p.value != U{0} && band > 0)
    bytes_per_sparse = p.width * sizeof(U) / static_cast<std::size_t>(std::min<std::int64_t>(band, static_cast<std::int64_t>(p.width)));
  return simd::choose_stores<Target>(p.stores, {.output_bytes = elements * sizeof(U),
                                                .bytes_per_sparse = bytes_per_sparse,
                                                .block = zero_background ? p.out : nullptr,
                                                .zero_background = zero_background});
}

// rep on a contiguous output without an input and with Value in the band: one zero fill of the
// whole output (the single large memset that reaches the string instructions'
// no-read-for-ownership path), then the band of every row.
template <class Target, class U>
void band_fill_then_patch(const BandProblem<U>& p, std::size_t elements) {
  simd::fill_span<Target>(p.out, elements, U{0}, StoreStrategy::rep);
  if (p.value == U{0}) return;
  for_each_row(p, [&](std::size_t y, U* out_row, const U*) {
    const auto [lo, hi] = band_columns(static_cast<std::int64_t>(y), p.begin, p.end, p.width);
    for (std::size_t x = lo; x < hi; ++x) out_row[static_cast<std::ptrdiff_t>(x) * p.out_col_step] = p.value;
  });
}

template <class Target, class U>
void diagonal_band_rows(const BandProblem<U>& p, StoreStrategy stores);

// The largest slice copy_batch_slices copies, and the block it doubles a slice into.
inline constexpr std::size_t copy_block_bytes = 16384;

// Without an input every batch slice is the same: when a slice is one small contiguous block,
// write the first one (plain stores, it is read back at once) and copy it to the others (a
// copy from L1 beats recomputing short rows). Returns false when the problem does not have
// that shape.
template <class Target, class U>
bool copy_batch_slices(const BandProblem<U>& p, StoreStrategy stores) {
  const std::size_t slice = p.height * p.width;
  const bool packed_slice = (p.width == 1 || p.out_col_step == 1) &&
                            (p.height == 1 || p.out_row_step == static_cast<std::ptrdiff_t>(p.width));
  if (p.in || p.batch_rank == 0 || !packed_slice || slice * sizeof(U) > copy_block_bytes) return false;
  BandProblem<U> first = p;
  first.batch_rank = 0;
  diagonal_band_rows<Target>(first, StoreStrategy::plain);
  if (stores == StoreStrategy::rep) stores = StoreStrategy::plain;  // copies: memcpy either way
  if (const std::size_t total = contiguous_elements(p); total != 0) {
    // The slices tile one block: double the first slice up to about 16 KiB while it is in L1,
    // then copy that block along, so a batch of 1 KiB matrices costs a few calls, not one per
    // matrix (a 1 KiB copy costs about as much in the call as in the bytes).
    const std::size_t block = std::min(total, std::max<std::size_t>(1, copy_block_bytes / (slice * sizeof(U))) * slice);
    for (std::size_t done = slice; done < block; done += std::min(done, block - done))
      std::memcpy(p.out + done, p.out, std::min(done, block - done) * sizeof(U));
    if (stores == StoreStrategy::plain && simd::repeat_span<Target>(p.out, block, total, slice)) return true;
    for (std::size_t at = block; at < total; at += block)
      simd::copy_span<Target>(p.out + at, p.out, std::min(block, total - at), stores);
    return true;
  }
  simd::for_each_offset(p.nest, p.batch_rank, [&](const std::array<std::ptrdiff_t, 2>& offset) {
    if (offset[0] != 0) simd::copy_span<Target>(p.out + offset[0], p.out, slice, stores);
  });
  return true;
}

// The rows of the problem with the given stores.
template <class Target, class U>
void diagonal_band_rows(const BandProblem<U>& p, StoreStrategy stores) {
  const bool contiguous_rows = p.width == 1 || p.out_col_step == 1;
  if constexpr (simd::is_vector_arch<Target>) {
    Background bg = Background::zero;
    if (p.in) {
      if (p.width == 1 || p.in_col_step == 1) bg = Background::contiguous;
      else if (p.in_col_step == 0) bg = Background::broadcast;
      else bg = Background::strided;
    }
    constexpr std::size_t lanes = xsimd::batch<U, Target>::size;
    // Streamed long rows are cut at cache lines (band_row_lines), not at the band's edges as
    // band_row_runs cuts: runs ending in the middle of lines around the band have those lines
    // written plain by store_span (a line written both ways leaves the write-combining buffer
    // half full: 0.4 of memset for INT8 8192 x 8192 streamed as runs, before
    // simd::streamed_part), each a read for ownership.
    const bool streamed = stores == StoreStrategy::stream && bg != Background::strided;
    if (contiguous_rows && p.width >= 16 * lanes && !streamed) {
      for_each_row(p, [&](std::size_t y, U* out_row, const U* in_row) {
        band_row_runs<Target>(p, bg, y, out_row, in_row, stores);
      });
      return;
    }
    if (contiguous_rows && p.width >= 16 * lanes) {
      for_each_row(p, [&](std::size_t y, U* out_row, const U* in_row) {
        band_row_lines<Target>(p, bg, y, out_row, in_row, stores);
      });
      return;
    }
    if (contiguous_rows && p.width >= lanes && bg != Background::strided) {
      for_each_row(p, [&](std::size_t y, U* out_row, const U* in_row) {
        band_row_blend<Target>(p, bg, y, out_row, in_row, stores);
      });
      return;
    }
  }
  (void)contiguous_rows;
  (void)stores;
  for_each_row(p, [&](std::size_t y, U* out_row, const U* in_row) { band_row_scalar(p, y, out_row, in_row); });
}

// One diagonal of Value streamed over a packed output whose rows break cache lines (rows not
// a whole number of lines, or an output off the line grid: NumPy's +16 bytes), as one run of
// rows: every line built in registers and streamed whole, the line two rows share included
// (simd::RowLines, HARDMAX's rows' writer). Row by row (band_row_lines), each row's two end
// lines were written plain beside streamed ones, a read for ownership per row: the identity
// 8192 x 8192 at +16 bytes ran at 57 GB/s streamed against 72 on the line grid (Zen 4, one
// thread). Only where every row holds its one Value (the first and the last row of a slice do:
// the column moves by one a row) and rows are long enough for RowLines' positions.
template <class Target, class U>
bool stream_diagonal_run(const BandProblem<U>& p, std::size_t contiguous) {
  if constexpr (simd::has_streaming_stores<Target>) {
    constexpr std::size_t line = simd::cache_line_bytes / sizeof(U);
    const auto address = reinterpret_cast<std::uintptr_t>(p.out);
    if (p.in || p.value == U{0} || p.end != p.begin + 1 || contiguous == 0 || p.height == 0) return false;
    if (address % sizeof(U) != 0 || p.width < line || p.width + line > std::numeric_limits<U>::max()) return false;
    if (address % simd::cache_line_bytes == 0 && p.width % line == 0) return false;  // rows on lines
    const auto one_in = [&](std::size_t y) {
      const BandColumns band = band_columns(static_cast<std::int64_t>(y), p.begin, p.end, p.width);
      return band.hi == band.lo + 1;
    };
    if (!one_in(0) || !one_in(p.height - 1)) return false;
    simd::RowLines<Target, U, true> rows(p.out, U{0}, p.value);
    for (std::size_t r = 0, n = contiguous / p.width; r < n; ++r)
      rows.row(p.width, band_columns(static_cast<std::int64_t>(r % p.height), p.begin, p.end, p.width).lo);
    rows.finish();
    return true;
  }
  (void)p, (void)contiguous;
  return false;
}

// The whole problem on one Target: the store strategy once for the call, then the paths.
template <class Target, class U>
void diagonal_band_bits(const BandProblem<U>& p) {
  if constexpr (simd::is_vector_arch<Target>) {
    const StoreStrategy stores = band_stores<Target>(p);
    const std::size_t contiguous = contiguous_elements(p);
    if (stores == StoreStrategy::rep && !p.in && p.begin <= p.end && contiguous != 0) {
      band_fill_then_patch<Target>(p, contiguous);
      return;
    }
    const bool streamed_run = stores == StoreStrategy::stream && stream_diagonal_run<Target>(p, contiguous);
    if (!streamed_run && !copy_batch_slices<Target>(p, stores)) diagonal_band_rows<Target>(p, stores);
    simd::finish_stores<Target>(stores);
    return;
  }
  diagonal_band_rows<Target>(p, StoreStrategy::plain);
}

// Typed entry: `in` may be nullptr (no input); `in_strides` has one stride per output
// dimension (0 broadcasts).
template <class Target, class T>
void diagonal_band(const T* in, const Dims& in_strides, TensorView<T> output, T value, std::int64_t begin,
                   std::int64_t end) {
  using U = simd::bits_t<T>;
  diagonal_band_bits<Target>(make_band_problem(reinterpret_cast<U*>(output.data()), output.sizes(), output.strides(),
                                             reinterpret_cast<const U*>(in), in_strides, simd::to_bits(value),
                                             begin, end));
}

}  // namespace refops::kernels::inline REFOPS_KERNEL_ABI::diagonal_matrix_detail

namespace refops::kernels::inline REFOPS_KERNEL_ABI {

// DML_DIAGONAL_MATRIX: out = (y + offset == x) ? value_cast<T>(value) : 0. Output rank >= 2.
template <class T>
void diagonal_matrix(TensorView<T> output, std::int32_t offset, float value) {
  diagonal_matrix_detail::diagonal_band<simd::default_arch>(static_cast<const T*>(nullptr), Dims{}, output, value_cast<T>(value),
                                            offset, std::int64_t{offset} + 1);
}

// DML_DIAGONAL_MATRIX1: Value where Begin <= x - y < End (outside [End, Begin) when
// Begin > End), elsewhere the input at the same coordinate, or 0 without one. The input has
// the output's sizes; its strides may be 0 (broadcast).
template <class T>
void diagonal_matrix1(std::optional<TensorView<const T>> input, TensorView<T> output, T value,
                      std::int32_t fill_begin, std::int32_t fill_end) {
  assert(!input || input->sizes() == output.sizes());
  diagonal_matrix_detail::diagonal_band<simd::default_arch>(input ? input->data() : nullptr, input ? input->strides() : Dims{},
                                            output, value, fill_begin, fill_end);
}

}  // namespace refops::kernels::inline REFOPS_KERNEL_ABI
