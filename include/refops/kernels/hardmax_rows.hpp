// HARDMAX, vector paths for the rows shape: the innermost dimension is reduced and contiguous
// in the input. Semantics: hardmax_core.hpp. Four loops, by shape:
// - short rows (a group is one row of one to eight vectors, rows of 16, 10 or 40 say; a row
//   that is not whole vectors ends with a vector that overlaps the one before): reduced a block of
//   rows at a time by a transposing butterfly, outputs copied from a window with stores fixed
//   per run (plain, streamed vectors, or streamed 16-byte pieces) or, streamed blocks whose rows
//   are off the vector grid but whose bytes are whole lines, built in registers and streamed
//   whole; AVX-512 gives them to AVX2's loops (short_rows_target), but for packed rows of 2,
//   4, 8 or 16 on Intel CPUs (and under 16 bytes everywhere: hardmax_rows_in_a_vector.hpp);
// - long rows (a group is one longer row): the previous row's output is written a vector per
//   vector loaded while this row is read, so reads and writes take turns a line at a time;
// - interleaved groups (a kept dimension between reduced ones, axes {0, 2} say): one pass in
//   memory order reduces every row into its group's state, a second writes the outputs;
// - any other group of rows: a block-max pass remembers the first block whose maximum strictly
//   beats the best so far, one rescan of that block locates the first maximum, and the group's
//   output rows are written at once while they are hot.
// On AVX2 and AVX-512 a block's largest key comes from the float maximum (FLOAT32,
// scan_float_bits) or raw-bit extremes (FLOAT16, scan_bits); elsewhere from keys.
#pragma once

#include <refops/kernels/cache_info.hpp>
#include <refops/kernels/hardmax_core.hpp>
#include <refops/kernels/raw_vectors.hpp>
#include <refops/kernels/sparse_run.hpp>

#include <atomic>
#include <bit>
#include <initializer_list>
#include <utility>

namespace refops::kernels::inline REFOPS_KERNEL_ABI::hardmax_detail {

// The target whose loops take short and medium rows (Rows::takes_short_loops,
// takes_medium_rows). AVX-512 gives them to AVX2's loops, compiled here with AVX-512's flags
// (so with 32 vector registers): a block of 16 rows of 16 lanes holds more vectors than there
// are registers, and only AVX2 has the raw-bit block loop. On Zen 4,
// AVX2's loops against AVX-512's, of memcpy (one thread, 256 MiB): rows of 16 0.92 / 0.70, of
// 10 0.57 / 0.33, of 40 0.61 / 0.51, of 4 0.33 / 0.12, FLOAT16 rows of 20 0.31 / 0.25, rows of
// 16 in cache (2 MiB) 0.60 / 0.31; medium rows of 100 0.44-0.45 / 0.39-0.40, of 250 0.62-0.63
// / 0.49-0.50.
template <class Target>
using short_rows_target = std::conditional_t<std::is_base_of_v<xsimd::avx512f, Target>, xsimd::avx2, Target>;

// Whether blocks of short rows streamed as whole lines (stream_block_lines) ask for their
// input 2 KiB ahead, as the window loops do, or leave it to the hardware prefetcher. The
// hosts disagree, each measured with the other alternated (one thread, 256 MiB, of memcpy):
// on Zen 4 rows of 10 FLOAT32 ran at 0.87-0.90 without, 0.79-0.81 with; on the Intel Xeon
// guest (family 6 model 207) at 0.61-0.63 without, 0.78 with, and FLOAT16 rows of 20 at
// 0.45-0.61 against 0.78; on Zen 3 (AVX2, 2026-11-27) as on Intel: rows of 10 0.59-0.69
// without, 0.76-0.79 with, at +16 bytes 0.84-0.89 / 1.02-1.03, FLOAT16 rows of 20 0.65-0.68 /
// 0.73-0.74. So: yes, but on AMD Zen 4 and later (simd::amd_zen4_or_later).
// forced_line_prefetch (1: never, 2: always; 0: the rule) forces it for the benchmark's rows
// and the tests (detail::force_hardmax_line_prefetch sets every instruction set's copy).
inline std::atomic<std::size_t> forced_line_prefetch{0};
inline bool whole_line_prefetch() {
  return simd::rule_unless_forced(!simd::amd_zen4_or_later(), forced_line_prefetch);
}

// Whether rows are read rows_read_at_once side by side, each its own stream, rather than one after
// another: on Intel, where one core reads memory faster from several streams than from one, for an
// input from memory (from_memory: simd::exceeds_cache of the whole call; in the cache no
// prefetcher needs feeding). Two loops take it: FullWidthRows' long rows (hardmax_full_width_rows.hpp,
// with the measurements that chose 4) and the interleaved groups (run_interleaved, with theirs).
// forced_rows_side_by_side (1 one row at a time, 2 side by side; 0 the rule) forces it for the
// benchmark's rows and the tests (detail::force_hardmax_rows_side_by_side).
inline constexpr std::size_t rows_read_at_once = 4;
inline std::atomic<std::size_t> forced_rows_side_by_side{0};
inline bool reads_rows_side_by_side(bool from_memory) {
  return simd::rule_unless_forced(simd::intel_cpu() && from_memory, forced_rows_side_by_side);
}

// True where `axes` of a tensor of `sizes` reduce the last axis and a kept axis longer than 1
// comes after a reduced one: interleaved groups (Rows::run_interleaved, where its state pays),
// which read rows side by side by the rule above. The benchmark's and the tests' forced rows, as
// side_by_side_rows is for the long rows.
inline bool interleaved_groups(const Dims& sizes, const Dims& axes) {
  unsigned reduced = 0;
  for (std::uint32_t a : axes) reduced |= 1u << a;
  const std::size_t last = sizes.size() - 1;
  if (((reduced >> last) & 1u) == 0) return false;
  bool reduced_before = false;
  for (std::size_t d = 0; d < last; ++d) {
    if (((reduced >> d) & 1u) != 0) reduced_before = true;
    else if (reduced_before && sizes[d] > 1) return true;
  }
  return false;
}

// True for packed rows of `row` elements of `element_bytes` (FLOAT32 or FLOAT16) whose streamed
// blocks take the whole-line loop: longer than one AVX2 vector, shorter than two, and 8 of them
// (a raw-bit block) whole cache lines: 10, 12 or 14 FLOAT32, 20, 24 or 28 FLOAT16. The loop's
// own test (short_rows_blocks_bits_touching), and the shapes the benchmark and the tests force
// whole_line_prefetch on.
constexpr bool whole_line_rows(std::size_t row, std::size_t element_bytes) {
  constexpr std::size_t avx2_bytes = 32, block_rows = 8;
  const std::size_t lanes = avx2_bytes / element_bytes;
  return row > lanes && row < 2 * lanes && block_rows * row * element_bytes % simd::cache_line_bytes == 0;
}

template <class Target, class T>
struct Rows : Lanes<Target, T> {
  using L = Lanes<Target, T>;
  using typename L::U, typename L::K, typename L::B;
  using L::lanes, L::one_hot_vector;
  using NoWrites = typename L::NoWrites;
  template <class Lines>
  using LocalWriter = typename L::template LocalWriter<Lines>;
  using L::give_back;
  // Elements per block. Each group rescans one block (to locate its first
  // maximum), so a small block keeps that short; a block costs one vector compare with the
  // best so far, and a horizontal maximum only when it beats it (rare after the first few).
  static constexpr std::size_t block = 1024 / sizeof(T);
  // Rows of at most this many vectors take the short-row loops (short_rows, tiny_rows).
  static constexpr std::size_t max_short_vectors = 8;

  // ---- the largest key of a block without a key per element (AVX2, AVX-512) ----
  //
  // Two running lane-wise extremes of the raw bits replace the key (six operations per
  // vector) and its maximum: the signed maximum and the unsigned maximum, one instruction each.
  // Without NaN, a non-negative signed maximum is the largest number's bits, which is its key
  // (non-negative floats order as their bits; +0.0 is 0, the key of -0.0 too); a negative one
  // means every element is negative, and the largest is then the one of least magnitude, the
  // smallest signed bits (-0.0 included, key 0), which a second look at the block (in L1)
  // finds with the signed minimum. A NaN shows as a signed maximum above +inf's bits or an
  // unsigned maximum above -inf's; such a block is scanned again with keys. Exact either way.
  // (The signed minimum ran in the main loop for every block; taken only for blocks with no
  // number above zero, FLOAT16's last axis gained 2-3% on Zen 1: docs/decisions.md.)
#if defined(__AVX2__)
  // The width of the raw-bit scans: AVX-512BW's 64 bytes, else AVX2's 32.
#if defined(__AVX512BW__)
  static constexpr std::size_t raw_bytes = std::is_base_of_v<xsimd::avx512bw, Target> ? 64 : 32;
  static constexpr bool raw_target = std::is_base_of_v<xsimd::avx2, Target> || std::is_base_of_v<xsimd::avx512bw, Target>;
#else
  static constexpr std::size_t raw_bytes = 32;
  static constexpr bool raw_target = std::is_base_of_v<xsimd::avx2, Target>;
#endif
  static constexpr bool raw_extremes = raw_target && sizeof(K) <= 4;

  // The whole lines of n elements (K's) through fold_line(at), each with a writer's step after
  // it, from 0; returns where they end. Two lines an iteration, each with its prefetches right
  // before its loads (fold_line's), and then the writer's two lines (one test for both:
  // SpanWriter::step<2>), so the loop's and the writer's bookkeeping is paid once for two
  // lines; then the odd one. HARDMAX in cache is bound by its instructions on the AMD hosts
  // (docs/performance.md); callgrind, AVX2, 2 MiB in and out, a call: last axis 956,000 ->
  // 786,000 instructions plain, 1,513,000 -> 1,326,000 streamed; axes {0,2} 1,206,000 ->
  // 1,137,000 plain, 1,062,000 -> 1,009,000 streamed. The two lines' prefetches asked together
  // at the top cost the 256 MiB last axis 3-4% (AVX2, Intel guest).
  template <class FoldLine, class Writer>
  [[gnu::always_inline]] static std::size_t fold_lines(std::size_t n, FoldLine&& fold_line, Writer& writes) {
    constexpr std::size_t line = simd::cache_line_bytes / sizeof(K);
    std::size_t i = 0;
    for (; i + 2 * line <= n; i += 2 * line) {
      fold_line(i);
      fold_line(i + line);
      writes.template step<2>();
    }
    if (i + line <= n) fold_line(i), writes.step(), i += line;
    return i;
  }

  // Folds the n >= lanes elements at q into `best` like scan_block: 1 when their largest key
  // beats it (best updated), 0 when not, -1 when they hold a NaN (best untouched).
  template <class Lines>
  [[gnu::always_inline]] static int scan_bits(const K* q, std::size_t n, K& best, Lines& lines) {
    using R = simd::RawBits<raw_bytes, K>;
    using V = typename R::V;
    static_assert(R::lanes == lanes);
    V hi = R::load(q), uhi = hi;
    const auto fold = [&](std::size_t at) {
      const V x = R::load(q + at);
      hi = R::smax(hi, x);
      uhi = R::umax(uhi, x);
    };
    // A line (one or two vectors) at a time; repeats change no extreme, so vector 0 is folded
    // again, and a last vector may overlap the one before.
    constexpr std::size_t line = simd::cache_line_bytes / sizeof(K);
    LocalWriter<Lines> writes = lines;
    // Into L2, and 512 bytes ahead into L1, as every scan here (simd::prefetch_far_and_near):
    // HARDMAX axes {0,2} of 256 x 1024 x 256 went from 0.87-0.89 to 0.91-0.96 of memcpy (at +16
    // bytes 0.84 -> 0.87-0.93), FLOAT16 last axis 0.82-0.83 -> 0.86-0.88; into L2 alone had cost
    // axes {0,2} in cache 0.90-0.93 -> 0.83-0.90, and with the near ask it is 0.88-0.89.
    std::size_t i = fold_lines(n, [&](std::size_t at) __attribute__((always_inline)) {
      simd::prefetch_far_and_near(q + at, 2048);
      for (std::size_t v = 0; v < line; v += lanes) fold(at + v);
    }, writes);
    give_back(writes, lines);
    for (; i + lanes <= n; i += lanes) fold(i);
    if (i < n) fold(n - lanes);
    constexpr U sign = U(1) << (8 * sizeof(U) - 1);
    const V negative_inf = R::splat(static_cast<K>(sign | Traits<T>::inf));
    if (R::any_greater(hi, R::splat(static_cast<K>(Traits<T>::inf))) || !R::all_equal(R::umax(uhi, negative_inf), negative_inf))
      return -1;
    // The usual case once a row has a non-negative best: nothing above it, no reduction.
    if (best >= 0 && !R::any_greater(hi, R::splat(best))) return 0;
    const K h = R::max_across(hi);
    const auto least_magnitude = [&] {
      V lo = R::load(q);
      for (std::size_t at = lanes; at + lanes <= n; at += lanes) lo = R::smin(lo, R::load(q + at));
      lo = R::smin(lo, R::load(q + n - lanes));
      return static_cast<K>(-static_cast<K>(R::min_across(lo) & std::numeric_limits<K>::max()));
    };
    const K key = h >= 0 ? h : least_magnitude();
    if (key <= best) return 0;
    best = key;
    return 1;
  }

  // FLOAT32: the float maximum instruction gives the largest number's value in one operation a
  // vector, where the raw-bit extremes take three; an unordered compare, one a line, shows a NaN
  // (the maximum instruction picks a NaN by operand order, so a block with one is scanned again
  // with keys). -0.0 against +0.0 may give either, which share key 0. Same contract as scan_bits.
  // Noting: when the block beats `best`, `first` is the position in it of its first maximum.
  // Each lane notes where its maximum first appeared (an ordered greater-than, so a repeat or a
  // -0.0 after +0.0 keeps the earlier position), and the first maximum is the least position
  // among the lanes that hold it; three operations more a vector, against a rescan (locate)
  // whose exit mispredicts about once a block. Medium rows, one block each, note (rows of 100
  // out of cache: 0.50 -> 0.62 of the streamed copy, Zen 4); long rows rescan their best block
  // only once per row, and noting each of their vectors cost them 7% in cache.
  template <bool Noting, class Lines>
  [[gnu::always_inline]] static int scan_float_bits(const K* q, std::size_t n, K& best, std::size_t& first,
                                                    Lines& lines) {
    static_assert(std::is_same_v<T, float>);
    using R = simd::RawFloats<raw_bytes>;
    using V = typename R::V;
    using P = typename R::Positions;
    static_assert(R::lanes == lanes);
    const float* f = reinterpret_cast<const float*>(q);
    constexpr std::size_t line = simd::cache_line_bytes / sizeof(K);
    static_assert(line == lanes || line == 2 * lanes);
    // A line of two vectors keeps a maximum per vector, so each vector's compare waits on one
    // maximum, not two.
    constexpr std::size_t ways = line / lanes;
    V hi[ways];
    P at[ways], here[ways];
    for (std::size_t w = 0; w < ways; ++w) {
      hi[w] = R::load(f);
      at[w] = R::lane_positions();
      here[w] = R::advance(at[w], w * lanes);
    }
    typename R::Unordered unordered = R::none_unordered();
    // Folds the vector at `pos` (its lanes' positions in `where`) into way w.
    const auto fold = [&](std::size_t w, std::size_t pos, P where) __attribute__((always_inline)) {
      const V x = R::load(f + pos);
      if constexpr (Noting) at[w] = R::note_greater(at[w], x, hi[w], where);
      hi[w] = R::max(hi[w], x);
      return x;
    };
    LocalWriter<Lines> writes = lines;
    std::size_t i = fold_lines(n, [&](std::size_t at) __attribute__((always_inline)) {
      simd::prefetch_far_and_near(q + at, 2048);
      if constexpr (Noting) {
        // A line of two vectors has a NaN exactly when its two vectors compare unordered; a
        // line of one vector is compared with itself.
        const V x0 = fold(0, at, here[0]);
        const V x1 = ways == 1 ? x0 : fold(ways - 1, at + lanes, here[ways - 1]);
        unordered = R::note_unordered(unordered, x0, x1);
        for (std::size_t w = 0; w < ways; ++w) here[w] = R::advance(here[w], line);
      } else {
        // A line of two vectors: max(x0, x1) is x1 when either is a NaN, so x0 against it is
        // unordered exactly when the line holds one; comparing x0 with x1 instead had GCC load
        // x1 twice, and the loads and stores share Zen 1's two address units (in cache 10%
        // faster this way).
        const V x0 = R::load(f + at);
        const V line_max = ways == 1 ? x0 : R::max(x0, R::load(f + at + lanes));
        hi[0] = R::max(hi[0], line_max);
        unordered = R::note_unordered(unordered, x0, line_max);
      }
    }, writes);
    give_back(writes, lines);
    // A last vector may overlap the one before: a repeat is not greater, so keeps its position.
    const auto fold_last = [&](std::size_t pos) {
      const V x = fold(0, pos, R::advance(R::lane_positions(), pos));
      unordered = R::note_unordered(unordered, x, x);
    };
    for (; i + lanes <= n; i += lanes) fold_last(i);
    if (i < n) fold_last(n - lanes);
    if (R::any_unordered(unordered)) return -1;
    V top = hi[0];
    for (std::size_t w = 1; w < ways; ++w) top = R::max(top, hi[w]);
    // The usual case once a row has a best number: nothing above it, no reduction. A best below
    // -inf's key (none yet, or a NaN under ignore) has no float to compare with.
    constexpr K minus_inf_key = -static_cast<K>(Traits<T>::inf);
    if (best >= minus_inf_key) {
      const U best_bits = best >= 0 ? static_cast<U>(best) : static_cast<U>(U(1) << 31 | static_cast<U>(-best));
      if (!R::any_greater(top, best_bits)) return 0;
    }
    const float largest = R::max_across(top);
    const K key = key_of_bits<T>(simd::to_bits(largest), K(0));  // not a NaN: the nan key is unused
    if (key <= best) return 0;
    best = key;
    if constexpr (Noting) {
      std::uint32_t position = R::first_position(hi[0], at[0], largest);
      for (std::size_t w = 1; w < ways; ++w) position = std::min(position, R::first_position(hi[w], at[w], largest));
      first = position;
    }
    return 1;
  }
#else
  static constexpr bool raw_extremes = false;
#endif
  // Bits of a compare's mask per lane in the raw-bit block loop: movemask_ps gives 32-bit lanes
  // one, movemask_epi8 16-bit lanes two.
  static constexpr std::size_t mask_bits = sizeof(K) == 4 ? 1 : 2;
  // Whether rows of M vectors take the raw-bit block loop (short_rows_blocks_bits): AVX2's
  // 32-byte vectors of 32- or 16-bit lanes, a row's compare masks within 64 bits (FLOAT32 rows
  // of up to 64, FLOAT16 rows of up to 32).
  template <std::size_t M>
  static constexpr bool raw_bit_blocks =
      raw_extremes && lanes * sizeof(K) == 32 && sizeof(K) >= 2 && M * lanes * mask_bits <= 64;

  // A block's first maximum that its scan did not note (scan_block_noting): locate finds it.
  static constexpr std::size_t unknown_position = ~std::size_t{0};

  // Folds one contiguous block into `best`: true when the block's maximum strictly beats it.
  // lines.step() is called after every 64 bytes the scan loads (HARDMAX's long rows write a
  // line of the previous row's output in step with it: SpanWriter::step).
  template <class Lines = NoWrites>
  [[gnu::always_inline]] static bool scan_block(const T* p, std::size_t n, K nan_scalar, K& best,
                                                Lines&& lines = Lines{}) {
    std::size_t first;
    return scan_block_noting<false>(p, n, nan_scalar, best, first, lines);
  }

  // scan_block; when Noting and the block beats `best`, `first` is the position in it of its
  // first maximum, or unknown_position (FLOAT32 on AVX2 and AVX-512 notes it: scan_float_bits).
  template <bool Noting = true, class Lines = NoWrites>
  [[gnu::always_inline]] static bool scan_block_noting(const T* p, std::size_t n, K nan_scalar, K& best,
                                                       std::size_t& first, Lines&& lines = Lines{}) {
    const K* q = reinterpret_cast<const K*>(p);
    first = unknown_position;
    if constexpr (raw_extremes) {
      if (n >= lanes) {
        int beats;
        if constexpr (std::is_same_v<T, float>) beats = scan_float_bits<Noting>(q, n, best, first, lines);
        else beats = scan_bits(q, n, best, lines);
        if (beats >= 0) return beats == 1;
      }
    }
    const B nan(nan_scalar);
    std::size_t i = 0;
    K block_best = best;
    if (n >= lanes) {
      // Two accumulators, so each max does not wait on the previous one; whole lines at a time
      // (at least two vectors), vector 0 folded twice (a repeat changes no maximum).
      constexpr std::size_t line = simd::cache_line_bytes / sizeof(K);
      constexpr std::size_t chunk = line >= 2 * lanes ? line : 2 * lanes;
      B a0 = load_key<Target, T>(p, nan), a1 = a0;
      using Writer = std::remove_reference_t<Lines>;
      LocalWriter<Writer> writes = lines;
      for (; i + chunk <= n; i += chunk) {
        // Rows of a page or so start on a page the hardware prefetcher has not followed into;
        // asking 2 KiB ahead (into L2, and nearer into L1, as the scans above) keeps the next
        // row on its way while this one is scanned.
        for (std::size_t c = 0; c < chunk; c += line) simd::prefetch_far_and_near(q + i + c, 2048);
        for (std::size_t h = 0; h < chunk; h += 2 * lanes) {
          a0 = simd::max_of<Target>(a0, key_of<Target, T>(B::load_unaligned(q + i + h), nan));
          a1 = simd::max_of<Target>(a1, key_of<Target, T>(B::load_unaligned(q + i + h + lanes), nan));
        }
        for (std::size_t c = 0; c < chunk; c += line) writes.step();
      }
      give_back(writes, lines);
      for (; i + lanes <= n; i += lanes) a0 = simd::max_of<Target>(a0, key_of<Target, T>(B::load_unaligned(q + i), nan));
      a0 = simd::max_of<Target>(a0, a1);
      if (xsimd::any(a0 > B(best))) block_best = simd::max_lane<Target>(a0);
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
    if (best > 0 && best <= static_cast<K>(Traits<T>::inf)) {
      // A positive number's key is its own bits, and no other element has those bits (a NaN's
      // are larger, a negative number's have the sign bit): compare bits, no key per element.
      // (The rescan with keys took a sixth of a long row's time in cache; this halves it.)
      // Four vectors a test where their lanes fit one 64-bit mask: the test that leaves the
      // loop mispredicts about once a row, and FLOAT16's rows of 2 KiB spent a fifth of their
      // time in cache in this loop at two vectors a test (docs/decisions.md).
      if constexpr (4 * lanes <= 64) {
        for (; i + 4 * lanes <= n; i += 4 * lanes) {
          const B v[4] = {B::load_unaligned(q + i), B::load_unaligned(q + i + lanes), B::load_unaligned(q + i + 2 * lanes),
                          B::load_unaligned(q + i + 3 * lanes)};
          if (xsimd::any(((v[0] == target) | (v[1] == target)) | ((v[2] == target) | (v[3] == target))))
            return i + first_equal<4>(v, target);
        }
      }
      for (; i + 2 * lanes <= n; i += 2 * lanes) {
        const auto first = B::load_unaligned(q + i) == target, second = B::load_unaligned(q + i + lanes) == target;
        if (xsimd::any(first | second))
          return i + (xsimd::any(first) ? simd::first_true<Target>(first) : lanes + simd::first_true<Target>(second));
      }
    }
    for (; i + lanes <= n; i += lanes) {
      const std::size_t lane = simd::first_true<Target>(key_of<Target, T>(B::load_unaligned(q + i), nan) == target);
      if (lane < lanes) return i + lane;
    }
    for (; i < n; ++i)
      if (key_at(p + i, nan_scalar) == best) return i;
    assert(false && "the best block holds its maximum");
    return 0;
  }

  // The position of the first maximum of the n elements at p, scanned as one block.
  static std::size_t first_maximum(const T* p, std::size_t n, K nan) {
    K best = key_at(p, nan);
    std::size_t first;
    if (!scan_block_noting(p, n, nan, best, first)) return 0;  // nothing beat the first element
    return first == unknown_position ? locate(p, n, nan, best) : first;
  }

  // One output row: zeros, and the 1 at `one_at` when it is inside the row (`stride` apart).
  static void write_row(U* p, std::ptrdiff_t stride, std::size_t n, std::size_t one_at, StoreStrategy stores) {
    if (stride == 1) return write_part(p, n, one_at, stores);
    for (std::size_t i = 0; i < n; ++i) p[static_cast<std::ptrdiff_t>(i) * stride] = U{0};
    if (one_at < n) p[static_cast<std::ptrdiff_t>(one_at) * stride] = Traits<T>::one;
  }

  // ---- short rows: groups that are one row of one to eight vectors ----
  //
  // Rows of 16, say. A block of `lanes` neighbouring rows is reduced at once: each row's vectors
  // are folded into one by a lane-wise maximum, and simd::lane_maxima transposes the block's
  // partial maxima into one vector (lane r: row r's maximum) for about four operations per row,
  // with no per-row butterfly and no per-row dependency chain. Each row's first maximum is then
  // the first lane equal to that maximum, found without branches (a data-dependent branch per
  // row mispredicted about once a row), and its output row is a copy of the window
  // [0 ... 0 1 0 ... 0] at the right offset: vector loads from L1, no compares. Rows left over
  // (fewer than a block) and Arches without native lane swaps take one row at a time, with a
  // butterfly or max_lane for the maximum and the same window. On AVX2, blocks whose maxima are
  // all positive numbers (or whose elements are all negative numbers) take raw bits and a
  // software-pipelined loop (short_rows_blocks_bits), blocks of 8 rows of FLOAT32 or, up to
  // two vectors long, of FLOAT16 (which has no native 16-bit lane swaps there).

  // Rows between one and eight vectors long but not whole vectors (rows of 10 or 20 FLOAT32,
  // 10 classes say) take the same loops with their last vector moved back to end with the row
  // (`last`: its offset), overlapping the one before: a repeat changes no maximum, the first
  // equal lane is found in the earlier vector, and both write the window's same elements.
  // The general path they took before paid some 50 ns a row (rows of 10: 0.06 of memcpy).
  // Rows of five to eight vectors take these loops too: rows of 40 FLOAT32 ran at 0.32-0.34 of
  // memcpy on the long-row path and 0.60-0.66 here, rows of 60 and 64 at 0.35 / 0.41 and 0.43
  // (Zen 1). Whole rows of any length up to eight vectors pass `last` as a constant
  // (WholeLast<M>): rows of 40 taken with a variable `last` ran at 0.57-0.69 of a streamed copy,
  // 0.87-0.91 with a constant one (Zen 4). Longer rows stay on the long-row path: rows of 100
  // as 16 vectors (the last repeated) ran at 0.38 against its 0.45.

  // The offset of vector h of M in a row whose last vector is at `last`.
  template <std::size_t M>
  static std::size_t vector_offset(std::size_t h, std::size_t last) { return h + 1 < M ? h * lanes : last; }
  // `last` of a row of M whole vectors, a constant: the loops of rows of 16 keep every address
  // an immediate offset (short_rows_blocks_bits).
  template <std::size_t M>
  using WholeLast = std::integral_constant<std::size_t, (M - 1) * lanes>;

  // The output rows of n elements: the row with its 1 at i starts at bits + (n - 1 - i).
  struct Window {
    U bits[2 * max_short_vectors * lanes];
    // Zeroed by vector stores: std::fill became a `rep stosq`, whose start-up costs tens of
    // cycles on the AMD cores (docs/performance.md, "Small calls"), once in every small call.
    // Not simd::fill: its four-vector loop and ragged end cost the 1x4 call 20 instructions
    // more (1609 against 1589, AVX2). This loop rounds up to whole vectors, which `bits` (a
    // whole number of vectors, at least `zeros` long) holds.
    explicit Window(std::size_t n) {
      const std::size_t zeros = std::max(2 * n, n + lanes);  // tiny rows read a whole vector
      for (std::size_t i = 0; i < zeros; i += lanes) B(K{0}).store_unaligned(reinterpret_cast<K*>(bits + i));
      bits[n - 1] = Traits<T>::one;
    }
    const K* row_with_one_at(std::size_t n, std::size_t i) const {
      return reinterpret_cast<const K*>(bits + (n - 1 - i));
    }
  };

  // The first position of the M vectors k (the last at `last`) whose key equals `top`
  // (broadcast); one must. One bit per element and a count of trailing zeros: no branch on the
  // data.
  template <std::size_t M>
  static std::size_t first_equal(const B* k, const B& top, std::size_t last = (M - 1) * lanes) {
    if constexpr (M * lanes <= 64) {
      std::uint64_t bits = 0;
      for (std::size_t h = 0; h < M; ++h) bits |= simd::lane_bits<Target>(k[h] == top) << vector_offset<M>(h, last);
      return static_cast<std::size_t>(std::countr_zero(bits));
    } else {
      std::size_t at = last + lanes;
      for (std::size_t h = M; h-- > 0;) {  // an earlier vector's equal lane comes first
        const std::size_t lane = simd::first_true<Target>(k[h] == top);
        at = lane < lanes ? vector_offset<M>(h, last) + lane : at;
      }
      return at;
    }
  }

  // Asks for the rows of the block `ahead` rows past the one at p (about 2 KiB ahead when rows
  // touch). The hardware prefetcher alone left the reads behind the streamed writes: rows of
  // 16 ran at 0.65-0.72 of the copy on one thread, 0.78-0.85 with this (Zen 3, alternated).
  template <std::size_t M, std::size_t Rows = lanes, class Step>
  [[gnu::always_inline]] static void prefetch_block_ahead(const T* p, Step p_step) {
    constexpr std::size_t row_bytes = M * lanes * sizeof(K);
    constexpr std::ptrdiff_t ahead = std::max<std::size_t>(Rows, 2048 / row_bytes);
    const std::ptrdiff_t step = p_step * static_cast<std::ptrdiff_t>(sizeof(T));
    for (std::ptrdiff_t r = ahead; r < ahead + static_cast<std::ptrdiff_t>(Rows); ++r)
      for (std::size_t h = 0; h < row_bytes; h += simd::cache_line_bytes)
        simd::prefetch_ahead(p, r * step + static_cast<std::ptrdiff_t>(h));
  }

  using VectorStores = simd::VectorStores;

  // One output row of M vectors (the last at `last`): the window's row with its 1 at `at`.
  template <std::size_t M, VectorStores S>
  [[gnu::always_inline]] static void write_block_row(U* o, std::size_t at, const Window& window, std::size_t last) {
    const K* row = window.row_with_one_at(last + lanes, at);
    K* dst = reinterpret_cast<K*>(o);
    for (std::size_t h = 0; h < M; ++h) {
      const std::size_t at_h = vector_offset<M>(h, last);
      simd::store_vector<S, Target>(dst + at_h, B::load_unaligned(row + at_h));
    }
  }

  // One row of M vectors at p (the last at `last`), its output at o.
  template <std::size_t M, VectorStores S>
  static void short_row(const T* p, U* o, const B& nan, const Window& window, std::size_t last) {
    B k[M];
    B top = k[0] = load_key<Target, T>(p, nan);
    for (std::size_t h = 1; h < M; ++h)
      top = simd::max_of<Target>(top, k[h] = load_key<Target, T>(p + vector_offset<M>(h, last), nan));
    write_block_row<M, S>(o, first_equal<M>(k, simd::spread_max<Target>(top), last), window, last);
  }

  // The first maximum of each of `lanes` rows of M vectors (row r at p + r * p_step, its last
  // vector at `last`), by keys.
  template <std::size_t M>
  static void block_positions(const T* p, std::ptrdiff_t p_step, const B& nan, std::size_t* at, std::size_t last) {
    B k[lanes][M];
    B top[lanes];
    for (std::size_t r = 0; r < lanes; ++r) {
      const T* q = p + static_cast<std::ptrdiff_t>(r) * p_step;
      top[r] = k[r][0] = load_key<Target, T>(q, nan);
      for (std::size_t h = 1; h < M; ++h)
        top[r] = simd::max_of<Target>(top[r], k[r][h] = load_key<Target, T>(q + vector_offset<M>(h, last), nan));
    }
    alignas(64) K best[lanes];
    simd::lane_maxima<Target, K>(top).store_aligned(best);
    for (std::size_t r = 0; r < lanes; ++r) at[r] = first_equal<M>(k[r], B(best[r]), last);
  }

  // `lanes` rows of M vectors by keys (the last at `last`), row r at p + r * p_step, its output
  // at o + r * o_step.
  template <std::size_t M, VectorStores S>
  static void short_rows_block(const T* p, std::ptrdiff_t p_step, U* o, std::ptrdiff_t o_step, const B& nan,
                               const Window& window, std::size_t last) {
    std::size_t at[lanes];
    block_positions<M>(p, p_step, nan, at, last);
    for (std::size_t r = 0; r < lanes; ++r)
      write_block_row<M, S>(o + static_cast<std::ptrdiff_t>(r) * o_step, at[r], window, last);
  }

  // Blocks of rows from j on (`lanes` a block, 8 on raw bits; row j at in + j * in_step, its
  // last vector at `last`);
  // returns where they end. stream_lines: the call streams (short_rows_blocks_bits_touching
  // may then stream whole lines built in registers, where rows are off the vector grid).
  template <std::size_t M, VectorStores S, class Last>
  static std::size_t short_rows_blocks(const T* in, std::ptrdiff_t in_step, U* out, std::ptrdiff_t out_step, std::size_t count,
                                       const B& nan, const Window& window, Last last, bool stream_lines) {
    std::size_t j = 0;
    if constexpr (raw_bit_blocks<M>) {
      j = short_rows_blocks_bits<M, S>(in, in_step, out, out_step, count, nan, window, last, stream_lines);
    } else if constexpr (simd::native_swizzle<Target, K>) {
      for (; j + lanes <= count; j += lanes) {
        const auto row = static_cast<std::ptrdiff_t>(j);
        prefetch_block_ahead<M>(in + row * in_step, in_step);
        short_rows_block<M, S>(in + row * in_step, in_step, out + row * out_step, out_step, nan, window, last);
      }
    }
    return j;
  }

#if defined(__AVX2__)
  // ---- rows of 16 and the like on raw bits (AVX2, 32- and 16-bit lanes) ----
  //
  // scan_bits' idea for a block of 8 rows: when every row's maximum is a positive number and
  // the block holds no NaN, a positive number's key is its bits and no other element has them,
  // so no element needs a key (six operations a vector). The same holds when every element is
  // a negative number (log-probabilities), the maximum then being the smallest bits: such rows
  // took keys and ran at 0.53 of memcpy against the positive rows' 0.82 (Zen 1, one thread).
  // A block that passes neither test is reduced by keys (keys_block).
  //
  // The loop is bound by its dependency chain (loads, maxima, transposition, compares, the
  // window's address, stores), so it is software-pipelined: block k's maxima are computed
  // while block k-1's rows are located and written. With the cheaper transposition below and
  // each row's broadcast a lane permute (not a store and a reload), a row of 16 took 3.5 ns in
  // L2 against 5.4 for one block at a time through simd::lane_maxima (Zen 3, execute() on 8192
  // rows in a loop).
  //
  // FLOAT16 takes the same 8 rows a block: each row's 16-bit extremes are folded pairwise into
  // its 32-bit lanes, sign- or zero-extended, and the block then goes through the same 32-bit
  // transposition. One row at a time, with a butterfly over 16-bit lanes, rows of 20 FLOAT16
  // ran at 0.47 of a streamed copy (Zen 4, 256 MiB).
  using V = __m256i;
  static constexpr std::size_t bits_block = 8;  // rows a block
  static V load_bits(const K* q) { return _mm256_loadu_si256(reinterpret_cast<const V*>(q)); }
  static V broadcast_bits(U bits) {
    if constexpr (sizeof(K) == 4) return _mm256_set1_epi32(static_cast<int>(bits));
    else return _mm256_set1_epi16(static_cast<short>(bits));
  }
  static std::uint32_t byte_mask(V v) { return static_cast<std::uint32_t>(_mm256_movemask_epi8(v)); }

  // Lane reductions of 8 vectors of 32-bit lanes by `op`, t[r]'s in lane shuffled_lane[r]:
  // halves, pairs, then neighbours (21 operations against simd::lane_maxima's 28, in a shuffled
  // lane order).
  static constexpr int shuffled_lane[8] = {0, 2, 1, 3, 4, 6, 5, 7};
  template <class Op>
  [[gnu::always_inline]] static V shuffled_lane_reduce(V* t, Op op) {
    for (int r = 0; r < 4; ++r)  // lanes 0-3 from row r, 4-7 from row r + 4
      t[r] = op(_mm256_permute2x128_si256(t[r], t[r + 4], 0x20), _mm256_permute2x128_si256(t[r], t[r + 4], 0x31));
    for (int r = 0; r < 2; ++r)  // in each half, lanes 0-1 from row r, 2-3 from row r + 2
      t[r] = op(_mm256_unpacklo_epi64(t[r], t[r + 2]), _mm256_unpackhi_epi64(t[r], t[r + 2]));
    const auto a = _mm256_castsi256_ps(t[0]), b = _mm256_castsi256_ps(t[1]);
    return op(_mm256_castps_si256(_mm256_shuffle_ps(a, b, _MM_SHUFFLE(2, 0, 2, 0))),
              _mm256_castps_si256(_mm256_shuffle_ps(a, b, _MM_SHUFFLE(3, 1, 3, 1))));
  }
  // Lane-wise extremes of the raw bits, in K's lanes.
  static V signed_max(V a, V b) {
    if constexpr (sizeof(K) == 4) return _mm256_max_epi32(a, b);
    else return _mm256_max_epi16(a, b);
  }
  static V unsigned_min(V a, V b) {
    if constexpr (sizeof(K) == 4) return _mm256_min_epu32(a, b);
    else return _mm256_min_epu16(a, b);
  }
  static V unsigned_max(V a, V b) {
    if constexpr (sizeof(K) == 4) return _mm256_max_epu32(a, b);
    else return _mm256_max_epu16(a, b);
  }
  static V lanes_equal(V a, V b) { return sizeof(K) == 4 ? _mm256_cmpeq_epi32(a, b) : _mm256_cmpeq_epi16(a, b); }
  // The 32-bit forms the transposition reduces with.
  static V signed_max_32(V a, V b) { return _mm256_max_epi32(a, b); }
  static V unsigned_min_32(V a, V b) { return _mm256_min_epu32(a, b); }
  // 16-bit lanes: each 32-bit lane's two extremes by `op`, sign- or zero-extended to 32 bits,
  // so the 32-bit transposition orders them as `op` did. 32-bit lanes: as they are.
  template <bool Signed, class Op>
  [[gnu::always_inline]] static V widen_pairs(V t, Op op) {
    if constexpr (sizeof(K) == 4) {
      return t;
    } else {
      const V folded = op(t, _mm256_srli_epi32(t, 16));  // the low half of each lane holds both
      if constexpr (Signed) return _mm256_srai_epi32(_mm256_slli_epi32(folded, 16), 16);
      else return _mm256_and_si256(folded, _mm256_set1_epi32(0xFFFF));
    }
  }

  // Whether every lane of the unsigned maximum `high` is at most -inf's bits: no NaN with the
  // sign bit.
  static bool no_negative_nan(V high) {
    const V negative_inf = broadcast_bits(static_cast<U>(U(1) << (8 * sizeof(U) - 1) | Traits<T>::inf));
    const V fine = _mm256_cmpeq_epi8(unsigned_max(high, negative_inf), negative_inf);
    return byte_mask(fine) == 0xFFFFFFFFu;
  }

  // One pass over the 8 rows at p: t[r], row r reduced lane-wise by `op`; `high`, the block's
  // unsigned maximum; `sign`, the AND of its elements (dropped by the compiler where unused).
  // The block-wide values are one running value each, not one per row (eight spilled the
  // loads to the stack on Zen 1).
  template <std::size_t M, class Step, class Op, class Last>
  [[gnu::always_inline]] static void reduce_block_rows(const K* p, Step p_step, Op op, V* t, V& high, V& sign, Last last) {
    high = sign = load_bits(p);
    for (std::size_t r = 0; r < bits_block; ++r) {
      const K* q = p + static_cast<std::ptrdiff_t>(r) * p_step;
      t[r] = load_bits(q);
      V row_high = t[r], row_sign = t[r];
      for (std::size_t h = 1; h < M; ++h) {
        const V x = load_bits(q + vector_offset<M>(h, last));
        t[r] = op(t[r], x);
        row_high = unsigned_max(row_high, x);
        row_sign = _mm256_and_si256(row_sign, x);
      }
      high = unsigned_max(high, row_high);
      sign = _mm256_and_si256(sign, row_sign);
    }
  }

  // The maxima of the 8 rows at p (shuffled_lane order, one a 32-bit lane, FLOAT16's
  // sign-extended) into `best`; false when the block holds a NaN or a row whose maximum is not
  // a positive number.
  template <std::size_t M, class Step, class Last>
  [[gnu::always_inline]] static bool block_maxima_bits(const K* p, Step p_step, V& best, Last last) {
    V top[bits_block], high, sign;
    reduce_block_rows<M>(p, p_step, signed_max, top, high, sign, last);
    // `high` made here, with the loads: sunk past the maxima's test, which it is only needed
    // after, it kept half the block's loads on the stack.
    asm("" : "+x"(high));
    for (V& t : top) t = widen_pairs<true>(t, signed_max);
    best = shuffled_lane_reduce(top, signed_max_32);
    // A NaN with the sign bit shows as unsigned bits above -inf's; one without, as a row's
    // signed maximum above +inf's; a maximum of 0 or below is not a positive number.
    const V bad = _mm256_or_si256(_mm256_cmpgt_epi32(best, _mm256_set1_epi32(static_cast<int>(Traits<T>::inf))),
                                  _mm256_cmpgt_epi32(_mm256_set1_epi32(1), best));
    return _mm256_testz_si256(bad, bad) != 0 && no_negative_nan(high);
  }

  // The same for a block whose every element has the sign bit (log-probabilities, say): among
  // negative numbers the largest has the smallest bits, so each row's maximum is its unsigned
  // minimum, and again no other element has its bits (no +0.0 to tie with -0.0). False when
  // an element lacks the sign bit or is a NaN; the block then takes keys.
  template <std::size_t M, class Step, class Last>
  [[gnu::always_inline]] static bool block_negative_maxima_bits(const K* p, Step p_step, V& best, Last last) {
    V low[bits_block], high, sign;
    reduce_block_rows<M>(p, p_step, unsigned_min, low, high, sign, last);
    for (V& t : low) t = widen_pairs<false>(t, unsigned_min);
    best = shuffled_lane_reduce(low, unsigned_min_32);
    // Each lane's top byte carries its sign bit.
    constexpr std::uint32_t sign_bytes = sizeof(K) == 4 ? 0x88888888u : 0xAAAAAAAAu;
    return (byte_mask(sign) & sign_bytes) == sign_bytes && no_negative_nan(high);
  }

  // The 8 rows' maxima (block_maxima_bits' or block_negative_maxima_bits' `best`), each row's
  // ready to spread over every lane: the block's half that holds it in both halves (`low`:
  // lanes 0-3, `high`: lanes 4-7), then an in-lane shuffle by an immediate (row<R>). A lane
  // permute by an index vector cost the index's three instructions on top (GCC builds each
  // from a register, not a constant load). FLOAT16's maxima are put in both halves of their
  // lane, the compares' 16-bit target.
  struct BlockMaxima {
    V low, high;
    [[gnu::always_inline]] explicit BlockMaxima(V best) {
      if constexpr (sizeof(K) == 2)
        best = _mm256_or_si256(_mm256_and_si256(best, _mm256_set1_epi32(0xFFFF)), _mm256_slli_epi32(best, 16));
      low = _mm256_broadcastsi128_si256(_mm256_castsi256_si128(best));
      high = _mm256_broadcastsi128_si256(_mm256_extracti128_si256(best, 1));
    }
    // Row R's maximum in every lane.
    template <std::size_t R>
    [[gnu::always_inline]] V row() const {
      constexpr int lane = shuffled_lane[R];
      return _mm256_shuffle_epi32(lane < 4 ? low : high, (lane % 4) * 0x55);
    }
  };

  // Row R of the 8 at p: the position of its first element whose bits are its maximum's.
  // Functions, not lambdas over an index sequence: GCC stopped inlining those once they took a
  // run-time `last`, and the call cost rows of 16 a sixth.
  template <std::size_t M, std::size_t R, class Last>
  [[gnu::always_inline]] static std::uint32_t row_first_max(const K* q, const BlockMaxima& maxima, Last last) {
    const V target = maxima.template row<R>();
    // A bit past the row, so never empty (no branch on zero); a row of 64 bits fills the mask.
    const std::size_t end_bit = mask_bits * (last + lanes);
    std::uint64_t equal = end_bit < 64 ? std::uint64_t{1} << end_bit : 0;
    for (std::size_t h = 0; h < M; ++h) {
      const std::size_t at_h = vector_offset<M>(h, last);
      const V same = lanes_equal(load_bits(q + at_h), target);
      const auto mask = sizeof(K) == 4 ? static_cast<unsigned>(_mm256_movemask_ps(_mm256_castsi256_ps(same)))
                                       : byte_mask(same);
      equal |= static_cast<std::uint64_t>(mask) << (mask_bits * at_h);
    }
    return static_cast<std::uint32_t>(static_cast<std::size_t>(std::countr_zero(equal)) / mask_bits);
  }
  template <std::size_t M, class Step, class Last, std::size_t... R>
  [[gnu::always_inline]] static void block_first_maxima(const K* p, Step p_step, const BlockMaxima& maxima, Last last,
                                                        std::uint32_t* at, std::index_sequence<R...>) {
    ((at[R] = row_first_max<M, R>(p + static_cast<std::ptrdiff_t>(R) * p_step, maxima, last)), ...);
  }

  // Writes the 8 rows at p whose maxima are `best` (block_maxima_bits or
  // block_negative_maxima_bits). Every row is located before any is written: a row's stores
  // followed by the next row's loads 16 bytes past them in page offset (outputs at +16 bytes,
  // simd::page_offset_period) held rows of 16 at 0.42 of memcpy on Zen 1.
  template <std::size_t M, VectorStores S, bool Lines, class Step, class Last>
  [[gnu::always_inline]] static void write_block_bits(const K* p, Step p_step, U* o, Step o_step, V best,
                                                      const Window& window, Last last) {
    std::uint32_t at[bits_block];
    block_first_maxima<M>(p, p_step, BlockMaxima(best), last, at, std::make_index_sequence<bits_block>{});
    if constexpr (Lines) {
      stream_block_lines<Last::value + lanes>(o, at);
    } else {
      for (std::size_t r = 0; r < bits_block; ++r)
        write_block_row<M, S>(o + static_cast<std::ptrdiff_t>(r) * o_step, at[r], window, last);
    }
  }

  // ---- a block whose rows hold their maxima once ----
  //
  // When no row of the block holds its maximum's bits twice (real data: ties among positive or
  // negative numbers are rare), each output vector is its input vector compared with the row's
  // maximum, ANDed with one's bits: no position, no window, no address a row. The equal lanes
  // are counted as they go; a block with more than one a row is written again by positions
  // (write_block_bits) over what this wrote, from its input, which the output overlaps nowhere
  // (SPEC, "No overlap"). Row r + 1 is compared before row r is stored: write_block_bits'
  // reason to locate every row before writing any. Instructions a call through execute() on
  // 1 MiB of uniform(-1, 1), AVX2, callgrind, plain stores, by positions against by compares
  // (with the reductions' spills below removed): FLOAT32 rows of 8 758k / 601k, of 10 841k /
  // 686k, of 16 522k / 403k, of 32 443k / 333k; FLOAT16 rows of 16 911k / 768k, of 32 665k /
  // 507k. Rows of five to eight vectors keep positions: rows of 40 by compares (324k against
  // 426k) ran at 0.74-0.78 of a streamed copy against 0.79-0.82 (256 MiB, AVX2 path, the Intel
  // Xeon guest, alternated). So do rows with a variable `last`.
  template <std::size_t M, class Last>
  static constexpr bool writes_by_compares = M <= 4 && !std::is_same_v<Last, std::size_t>;
  static constexpr unsigned most_blocks_by_positions = 64;
  // Whether the last of a row's M vectors, at `last`, overlaps the one before it (rows of 9 to 15
  // FLOAT32), and then its lanes past that vector: only those are counted.
  template <std::size_t M, std::size_t Last>
  static constexpr bool overlaps = M > 1 && Last < (M - 1) * lanes;
  template <std::size_t M, std::size_t Last>
  static V fresh_lanes() {
    alignas(32) K fresh[lanes];
    for (std::size_t l = 0; l < lanes; ++l) fresh[l] = Last + l >= (M - 1) * lanes ? K(-1) : K(0);
    return _mm256_load_si256(reinterpret_cast<const V*>(fresh));
  }
  // Row R's M vectors compared with its maximum into `equal`; `count` less each equal lane
  // (the lanes hold -1), the overlapped ones once.
  template <std::size_t M, std::size_t R, std::size_t Last>
  [[gnu::always_inline]] static void row_equal(const K* q, const BlockMaxima& maxima, V fresh, V* equal, V& count) {
    const V target = maxima.template row<R>();
    for (std::size_t h = 0; h < M; ++h) {
      equal[h] = lanes_equal(load_bits(q + vector_offset<M>(h, Last)), target);
      const V counted = overlaps<M, Last> && h + 1 == M ? _mm256_and_si256(equal[h], fresh) : equal[h];
      count = sizeof(K) == 4 ? _mm256_sub_epi32(count, counted) : _mm256_sub_epi16(count, counted);
    }
  }
  template <std::size_t M, VectorStores S, std::size_t Last>
  [[gnu::always_inline]] static void store_row_equal(U* o, const V* equal, V one) {
    K* dst = reinterpret_cast<K*>(o);
    for (std::size_t h = 0; h < M; ++h)
      simd::store_vector<S, Target>(dst + vector_offset<M>(h, Last), B(_mm256_and_si256(equal[h], one)));
  }
  // The sum of count's lanes (K's width). Not xsimd::hadd: xsimd 8 sums each 128-bit half
  // apart and adds the two in a scalar register, and takes 16-bit lanes through memory.
  static std::uint32_t lanes_sum(V count) {
    if constexpr (sizeof(K) == 2) count = _mm256_madd_epi16(count, _mm256_set1_epi16(1));
    __m128i sum = _mm_add_epi32(_mm256_castsi256_si128(count), _mm256_extracti128_si256(count, 1));
    sum = _mm_add_epi32(sum, _mm_shuffle_epi32(sum, 0x4E));
    sum = _mm_add_epi32(sum, _mm_shuffle_epi32(sum, 0xB1));
    return static_cast<std::uint32_t>(_mm_cvtsi128_si32(sum));
  }
  // Row R of the block: compares row R (below 8), then stores row R - 1 (from 1).
  template <std::size_t M, VectorStores S, std::size_t Last, std::size_t R, class Step>
  [[gnu::always_inline]] static void compare_then_store(const K* p, Step p_step, U* o, Step o_step,
                                                        const BlockMaxima& maxima, V fresh, V one, V (&equal)[2][M],
                                                        V& count) {
    if constexpr (R < bits_block)
      row_equal<M, R, Last>(p + static_cast<std::ptrdiff_t>(R) * p_step, maxima, fresh, equal[R % 2], count);
    if constexpr (R > 0)
      store_row_equal<M, S, Last>(o + static_cast<std::ptrdiff_t>(R - 1) * o_step, equal[(R - 1) % 2], one);
  }
  // Writes the 8 rows at p whose maxima are `best` by compares; false when some row holds its
  // maximum twice (the rows then need write_block_bits).
  template <std::size_t M, VectorStores S, class Step, std::size_t Last, std::size_t... R>
  [[gnu::always_inline]] static bool write_block_by_compares(const K* p, Step p_step, U* o, Step o_step, V best,
                                                             std::integral_constant<std::size_t, Last>,
                                                             std::index_sequence<R...>) {
    const BlockMaxima maxima(best);
    const V fresh = overlaps<M, Last> ? fresh_lanes<M, Last>() : V{};
    const V one = broadcast_bits(Traits<T>::one);
    V equal[2][M];
    V count = _mm256_setzero_si256();
    (compare_then_store<M, S, Last, R>(p, p_step, o, o_step, maxima, fresh, one, equal, count), ...);
    return lanes_sum(count) == bits_block;
  }

  template <std::size_t M, VectorStores S, class Step, class Last>
  [[gnu::noinline]] static void write_block_bits_out_of_line(const K* p, Step p_step, U* o, Step o_step, V best,
                                                             const Window& window, Last last) {
    write_block_bits<M, S, false>(p, p_step, o, o_step, best, window, last);
  }

  // ---- a block of rows off the vector grid, streamed as whole lines ----
  //
  // 8 packed rows of Row elements whose bytes are whole cache lines (rows of 10 FLOAT32 or of 20
  // FLOAT16: 320 bytes, five lines), the first on a line: each output vector is built in
  // registers, lane e holding the 1 when e's offset in its row is that row's first maximum (a
  // byte shuffle of the block's 8 positions, one compare), and streamed. Written row by row
  // these rows cannot stream (they are not on the vector grid), and their plain stores read
  // every line first: rows of 10 FLOAT32 held at 0.59-0.66 of a streamed copy (Zen 4, 256 MiB).
  // (Staged in a buffer on the stack and streamed from there, they ran 3x slower in some
  // processes, by where the stack lay: docs/performance.md.)
  static constexpr bool whole_lines(std::size_t row) { return bits_block * row * sizeof(U) % simd::cache_line_bytes == 0; }
  template <std::size_t Row>
  struct LineTables {
    static constexpr std::size_t vectors = bits_block * Row / lanes;
    // Per output vector: the byte shuffle that puts lane e's row's position in its lane (its
    // low byte; 0x80 zeroes the rest), and e's offset in its row.
    alignas(32) std::uint8_t row_of[vectors][32];
    alignas(32) K offset[vectors][lanes];
    constexpr LineTables() : row_of{}, offset{} {
      for (std::size_t v = 0; v < vectors; ++v) {
        for (std::size_t i = 0; i < lanes; ++i) {
          const std::size_t e = v * lanes + i;
          offset[v][i] = static_cast<K>(e % Row);
          for (std::size_t b = 0; b < sizeof(K); ++b)
            row_of[v][i * sizeof(K) + b] = b == 0 ? static_cast<std::uint8_t>(e / Row) : std::uint8_t{0x80};
        }
      }
    }
  };
  template <std::size_t Row>
  static constexpr LineTables<Row> line_tables{};

  // Streams the 8 rows of Row elements at o (on a cache line) whose first maxima are at[r].
  template <std::size_t Row>
  [[gnu::always_inline]] static void stream_block_lines(U* o, const std::uint32_t* at) {
    static_assert(whole_lines(Row) && Row <= 64);
    std::uint64_t positions = 0;  // at[r] in byte r (each below 64)
    for (std::size_t r = 0; r < bits_block; ++r) positions |= std::uint64_t{at[r]} << (8 * r);
    const V position = _mm256_set1_epi64x(static_cast<long long>(positions));
    const V one = broadcast_bits(Traits<T>::one);
    constexpr const LineTables<Row>& tables = line_tables<Row>;
    for (std::size_t v = 0; v < tables.vectors; ++v) {
      const V at_lane = _mm256_shuffle_epi8(position, _mm256_load_si256(reinterpret_cast<const V*>(tables.row_of[v])));
      const V offset = _mm256_load_si256(reinterpret_cast<const V*>(tables.offset[v]));
      const V same = lanes_equal(at_lane, offset);
      _mm256_stream_si256(reinterpret_cast<V*>(o) + v, _mm256_and_si256(same, one));
    }
  }

  // The 8 rows at p by keys: a block the raw-bit tests turned down. FLOAT32's 8 rows are a
  // block of lanes (short_rows_block); FLOAT16's go one at a time.
  template <std::size_t M, VectorStores S, class Step, class Last>
  static void keys_block(const T* p, Step p_step, U* o, Step o_step, const B& nan, const Window& window, Last last) {
    if constexpr (lanes == bits_block) {
      short_rows_block<M, S>(p, p_step, o, o_step, nan, window, last);
    } else {
      for (std::size_t r = 0; r < bits_block; ++r)
        short_row<M, S>(p + static_cast<std::ptrdiff_t>(r) * p_step, o + static_cast<std::ptrdiff_t>(r) * o_step, nan, window,
                        last);
    }
  }

  // Rows that touch (input and output steps both one row, the usual case) take the loop with
  // constant steps: every row's address is then an immediate offset, where a variable step
  // held addresses in registers and spilled them (a block of rows of 16 took some 300
  // instructions on AVX2, a quarter of them addresses and spills). Rows of two vectors that
  // are not whole (9 to 15 FLOAT32: 10 classes, say) get a constant `last` as well: with a
  // variable one, rows of 10 ran at 26 GB/s in cache against 38 (Zen 4, alternated).
  template <std::size_t M, VectorStores S, class Last>
  static std::size_t short_rows_blocks_bits(const T* in, std::ptrdiff_t in_step, U* out, std::ptrdiff_t out_step,
                                            std::size_t count, const B& nan, const Window& window, Last last,
                                            bool stream_lines) {
    // A run-time `last` is an odd row's (not a multiple of lanes): short_rows streams such rows
    // as whole vectors only if both their first and last vectors are on the grid, which cannot be.
    if constexpr (S == VectorStores::stream && std::is_same_v<Last, std::size_t>) return 0;
    const bool touching = in_step == static_cast<std::ptrdiff_t>(last + lanes) && out_step == in_step;
    if constexpr (std::is_same_v<Last, WholeLast<M>>) {
      if (touching) return short_rows_blocks_bits_touching<M, S>(in, out, count, nan, window, last, stream_lines);
    } else if constexpr (M == 2) {
      if (touching)
        return odd_rows_blocks_bits_touching<S>(in, out, count, nan, window, last, stream_lines,
                                                std::make_index_sequence<lanes - 1>{});
    }
    return short_rows_blocks_bits_with<M, S, false>(in, in_step, out, out_step, count, nan, window, last);
  }

  // Rows that touch, each last + lanes elements long, `last` a constant. Streamed, rows off the
  // vector grid whose blocks are whole lines (whole_line_rows) go row by row to the first row on a
  // line, then stream their blocks' lines.
  template <std::size_t M, VectorStores S, std::size_t Last>
  static std::size_t short_rows_blocks_bits_touching(const T* in, U* out, std::size_t count, const B& nan,
                                                     const Window& window, std::integral_constant<std::size_t, Last> last,
                                                     bool stream_lines) {
    constexpr std::size_t row = Last + lanes;
    using Step = std::integral_constant<std::ptrdiff_t, static_cast<std::ptrdiff_t>(row)>;
    // Rows of whole vectors stream as vectors, or their output is off the vector grid, and
    // then none of them starts on a line.
    static_assert(bits_block == 8 && lanes * sizeof(U) == 32);  // whole_line_rows' block and vector
    if constexpr (whole_line_rows(row, sizeof(U)) && S != VectorStores::stream) {
      std::size_t first = 0;  // rows before the first that starts on a line (bits_block: none does)
      while (stream_lines && first < bits_block && simd::elements_to_line<U>(reinterpret_cast<std::uintptr_t>(out + first * row)) != 0)
        ++first;
      if (stream_lines && first < bits_block && first + bits_block <= count) {
        for (std::size_t r = 0; r < first; ++r) short_row<M, S>(in + r * row, out + r * row, nan, window, last);
        return first + short_rows_blocks_bits_with<M, S, true>(in + first * row, Step{}, out + first * row, Step{},
                                                               count - first, nan, window, last);
      }
    }
    return short_rows_blocks_bits_with<M, S, false>(in, Step{}, out, Step{}, count, nan, window, last);
  }

  // The same for rows of two vectors whose `last` is 1 to lanes - 1: one loop per value
  // (I: 0 to lanes - 2) for FLOAT32 (rows of 9 to 15); FLOAT16 only for the rows whose blocks
  // are whole lines (rows of 20, 24 and 28), the others with a variable `last`: fifteen
  // lengths, each three loops (one per store kind) on each of two Arches, added 0.6 MB to
  // the library.
  static constexpr bool constant_odd_last(std::size_t last) { return sizeof(K) == 4 || whole_lines(last + lanes); }
  // Whether touching rows whose last vector is at `last` can come with S: vector_stores_for
  // streams only rows whose bytes are whole vectors (stream) or whole 16-byte pieces
  // (stream_16). Lengths that cannot are not instantiated with it (rows of 10 FLOAT32 are
  // never streamed).
  template <VectorStores S>
  static constexpr bool rows_take(std::size_t last) {
    const std::size_t grid = S == VectorStores::stream ? lanes * sizeof(U) : S == VectorStores::stream_16 ? 16 : 1;
    return (last + lanes) * sizeof(U) % grid == 0;
  }
  template <VectorStores S, std::size_t... I>
  static std::size_t odd_rows_blocks_bits_touching(const T* in, U* out, std::size_t count, const B& nan,
                                                   const Window& window, std::size_t last, bool stream_lines,
                                                   std::index_sequence<I...>) {
    std::size_t done = 0;
    const auto with_last = [&]<std::size_t L>(std::integral_constant<std::size_t, L> constant_last) {
      if constexpr (!constant_odd_last(L) || !rows_take<S>(L)) {
        return false;
      } else {
        if (last != L) return false;
        done = short_rows_blocks_bits_touching<2, S>(in, out, count, nan, window, constant_last, stream_lines);
        return true;
      }
    };
    if ((with_last(std::integral_constant<std::size_t, I + 1>{}) || ...)) return done;
    const auto step = static_cast<std::ptrdiff_t>(last + lanes);
    return short_rows_blocks_bits_with<2, S, false>(in, step, out, step, count, nan, window, last);
  }

  // Step: std::ptrdiff_t, or a std::integral_constant of one; Last: std::size_t or a
  // std::integral_constant of one (WholeLast<M>, say). Lines: the blocks' rows are whole lines,
  // the first on a line (stream_block_lines).
  template <std::size_t M, VectorStores S, bool Lines, class Step, class Last>
  static std::size_t short_rows_blocks_bits_with(const T* in, Step in_step, U* out, Step out_step, std::size_t count,
                                                 const B& nan, const Window& window, Last last) {
    static_assert(raw_bit_blocks<M>);
    const K* pending_in = nullptr;  // the block whose maxima are `pending_best`, not yet written
    U* pending_out = nullptr;
    V pending_best = _mm256_setzero_si256();
    bool negative_first = false;
    [[maybe_unused]] const bool prefetch_lines = Lines && whole_line_prefetch();
    // Blocks left to write by positions since one had a tie, and how many the next tie leaves:
    // doubled by every tie that follows a retry, to 64, reset by a block written by compares.
    // Data with ties in every block (small integers, say) then pay for the compares about once
    // in 64 blocks, and data with a tie here and there (FLOAT16's coarser values) lose a block
    // or two to each.
    [[maybe_unused]] unsigned by_positions = 0, after_a_tie = 1;
    const auto write_pending = [&](const K* block_in, U* block_out, V block_best) __attribute__((always_inline)) {
      if constexpr (!Lines && writes_by_compares<M, Last>) {
        if (by_positions == 0) {
          if (write_block_by_compares<M, S>(block_in, in_step, block_out, out_step, block_best, last,
                                            std::make_index_sequence<bits_block + 1>{})) {
            after_a_tie = 1;
            return;
          }
          by_positions = after_a_tie;
          after_a_tie = std::min(2 * after_a_tie, most_blocks_by_positions);
        }
        --by_positions;
        // Out of line: inlined, GCC made the positions' addresses before the compares, every
        // block, and held more on the stack (FLOAT16 rows of 32 in 588k instructions against
        // 548k; with ties in every block, 660k against 677k).
        return write_block_bits_out_of_line<M, S>(block_in, in_step, block_out, out_step, block_best, window, last);
      }
      write_block_bits<M, S, Lines>(block_in, in_step, block_out, out_step, block_best, window, last);
    };
    std::size_t j = 0;
    for (; j + bits_block <= count; j += bits_block) {
      const auto row = static_cast<std::ptrdiff_t>(j);
      const T* p = in + row * in_step;
      U* o = out + row * out_step;
      V best;
      // Blocks streamed as whole lines prefetch as the host wants (whole_line_prefetch; on Zen 4
      // 4 KiB ahead did no better than 2: 0.80-0.81).
      if (!Lines || prefetch_lines) prefetch_block_ahead<M, bits_block>(p, in_step);
      // Positive or negative maxima, whichever the last block had first: data keep their sign.
      const K* bits = reinterpret_cast<const K*>(p);
      const auto positive = [&] { return block_maxima_bits<M>(bits, in_step, best, last); };
      const auto negative = [&] { return block_negative_maxima_bits<M>(bits, in_step, best, last); };
      bool raw = negative_first ? negative() : positive();
      if (!raw) {
        // The second reduction loads the block again: reusing the first's loads, GCC kept them all
        // on the stack for it, every block.
        asm volatile("" ::: "memory");
        raw = negative_first ? positive() : negative();
        negative_first ^= raw;
      }
      if (pending_in != nullptr) write_pending(pending_in, pending_out, pending_best);
      pending_in = nullptr;
      if (raw) {
        pending_in = reinterpret_cast<const K*>(p);
        pending_out = o;
        pending_best = best;
      } else {
        keys_block<M, S>(p, in_step, o, out_step, nan, window, last);
      }
    }
    if (pending_in != nullptr) write_pending(pending_in, pending_out, pending_best);
    return j;
  }
#else
  template <std::size_t M, VectorStores S, class Last>
  static std::size_t short_rows_blocks_bits(const T*, std::ptrdiff_t, U*, std::ptrdiff_t, std::size_t, const B&,
                                            const Window&, Last, bool) {
    return 0;
  }
#endif

  // Every group one contiguous row of M vectors (the last at `last`: WholeLast<M>, or an odd
  // row's n - lanes), written to a contiguous output row.
  template <std::size_t M, class Last>
  static void short_rows(const simd::LoopNest<2>& kept, const T* in, U* out, K nan_scalar, StoreStrategy stores,
                         Last last) {
    const B nan(nan_scalar);
    const Window window(last + lanes);
    for_each_group_run(kept, [&](std::ptrdiff_t i, std::ptrdiff_t o, std::ptrdiff_t in_step, std::ptrdiff_t out_step,
                                 std::size_t count) {
      // Stores fixed per run of rows: planning each row's stores, or staging a block in L1 and
      // writing it as one span, cost as much as reducing the rows. Streamed, an odd row's last
      // vector must be on the grid its first is on.
      VectorStores kind = simd::vector_stores_for<Target>(out + o, out_step, stores);
      if (const auto at_last = simd::vector_stores_for<Target>(out + o + last, out_step, stores); at_last != kind)
        kind = kind == VectorStores::plain || at_last == VectorStores::plain ? VectorStores::plain : VectorStores::stream_16;
      simd::with_vector_stores<Target>(kind, [&](auto s) {
        constexpr VectorStores S = decltype(s)::value;
        std::size_t j = 0;
        if constexpr (simd::native_swizzle<Target, K> || raw_bit_blocks<M>) {
          const bool stream_lines = stores == StoreStrategy::stream;
          j = short_rows_blocks<M, S>(in + i, in_step, out + o, out_step, count, nan, window, last, stream_lines);
          i += static_cast<std::ptrdiff_t>(j) * in_step;
          o += static_cast<std::ptrdiff_t>(j) * out_step;
        }
        // Pointers, steps and the NaN key by value: the outer lambda's variables, reached by
        // reference, were loaded and stored again around every row's stores (they may alias them).
        const T* p = in + i;
        U* q = out + o;
        const std::ptrdiff_t p_step = in_step, q_step = out_step;
        const std::size_t rows = count;
        const B nan_key = nan;
        for (; j < rows; ++j, p += p_step, q += q_step) short_row<M, S>(p, q, nan_key, window, last);
      });
    });
  }

  // ---- tiny rows: groups that are one row shorter than a vector ----
  //
  // Rows of 2 to 7 FLOAT32 on AVX2 (a few classes). One vector per row, loaded from the row's
  // start: the lanes past the row hold the next rows' elements (or a gap's), which take the
  // lowest key, so they never beat an element of the row and come after it in a tie. A packed
  // output row is the window's vector stored at its start, its lanes past the row rewritten by
  // the rows after it. The last rows of a run, whose vector would read or write past the run's
  // elements, and padded output rows, take a scalar loop. The long-row path they took before
  // cost some 50 ns a row (rows of 4: 0.03 of memcpy, Zen 1). Stores are plain: the rows'
  // vectors overlap, which streamed stores must not. Packed rows of 4, 8 or 16 bytes take
  // packed_rows first.

#if defined(__AVX2__)
  // Packed rows of 4, 8 or 16 bytes (FLOAT32 rows of 2 or 4, FLOAT16 rows of 2, 4 or 8), in and
  // out: 8, 4 or 2 rows a vector, where each row's maximum (lane swaps and maxima within the
  // row's group of lanes), its first position (the lanes equal to it, less those after an
  // earlier one: a prefix OR by shifts that stay within the group) and its output (those lanes'
  // bits of 1) never leave the vector. The row-at-a-time loop below, a movemask and a scalar
  // lookup per row, ran rows of 4 at 0.32 of a streamed copy (Zen 4, 256 MiB) and 0.15 of memcpy
  // in cache, FLOAT32 rows of 2 at 0.17 (Zen 3). Streamed when the strategy streams and the
  // rows start on 32 bytes; plain otherwise. Returns the rows done: all but the last ones short
  // of a vector.
  static constexpr bool packs_rows(std::size_t n) {
    return std::is_base_of_v<xsimd::avx2, Target> && lanes == 32 / sizeof(K) && n >= 2 && n * sizeof(K) <= 16 &&
           16 % (n * sizeof(K)) == 0;
  }
  // x shifted up by Bytes within each group of Group bytes (zeros in at each group's start).
  template <std::size_t Group, std::size_t Bytes>
  static __m256i shift_in_group(__m256i x) {
    if constexpr (Group == 16) return _mm256_slli_si256(x, static_cast<int>(Bytes));
    else if constexpr (Group == 8) return _mm256_slli_epi64(x, static_cast<int>(Bytes * 8));
    else return _mm256_slli_epi32(x, static_cast<int>(Bytes * 8));
  }
  template <std::size_t Group>
  static std::size_t packed_rows_of(const T* p, U* q, std::size_t count, const B& nan, StoreStrategy stores) {
    using R = simd::RawBits<32, K>;
    constexpr std::size_t row = Group / sizeof(K), rows_a_vector = 32 / Group;
    constexpr std::size_t lane = sizeof(K);
    const __m256i one = R::splat(static_cast<K>(Traits<T>::one));
    const bool stream = stores == StoreStrategy::stream && reinterpret_cast<std::uintptr_t>(q) % 32 == 0;
    const auto rows = [&](std::size_t j) {
      const __m256i k = load_key<Target, T>(p + row * j, nan);
      const __m256i equal = R::equal(k, R::template max_in_groups<Group>(k));
      // seen, lane i: equal in some lane of its group up to i (shifts by 1, 2, 4 lanes, as
      // far as the group reaches).
      __m256i seen = _mm256_or_si256(equal, shift_in_group<Group, lane>(equal));
      if constexpr (2 * lane < Group) seen = _mm256_or_si256(seen, shift_in_group<Group, 2 * lane>(seen));
      if constexpr (4 * lane < Group) seen = _mm256_or_si256(seen, shift_in_group<Group, 4 * lane>(seen));
      const __m256i earlier = shift_in_group<Group, lane>(seen);
      return _mm256_and_si256(_mm256_andnot_si256(earlier, equal), one);
    };
    const std::size_t end = count - count % rows_a_vector;
    if (stream) {
      for (std::size_t j = 0; j < end; j += rows_a_vector) {
        simd::prefetch_ahead(p + row * j, 2048);
        _mm256_stream_si256(reinterpret_cast<__m256i*>(q + row * j), rows(j));
      }
    } else {
      for (std::size_t j = 0; j < end; j += rows_a_vector)
        _mm256_storeu_si256(reinterpret_cast<__m256i*>(q + row * j), rows(j));
    }
    return end;
  }
  static std::size_t packed_rows(std::size_t n, const T* p, U* q, std::size_t count, const B& nan, StoreStrategy stores) {
    switch (n * sizeof(K)) {
      case 16: return packed_rows_of<16>(p, q, count, nan, stores);
      case 8: return packed_rows_of<8>(p, q, count, nan, stores);
      default:
        if constexpr (sizeof(K) == 2) return packed_rows_of<4>(p, q, count, nan, stores);
        return 0;
    }
  }
#else
  static constexpr bool packs_rows(std::size_t) { return false; }
  static std::size_t packed_rows(std::size_t, const T*, U*, std::size_t, const B&, StoreStrategy) { return 0; }
#endif

  static void tiny_rows(const simd::LoopNest<2>& kept, std::size_t n, const T* in, U* out, K nan_scalar,
                        StoreStrategy stores) {
    const B nan(nan_scalar), lowest(std::numeric_limits<K>::min());
    const auto in_row = [&] {
      alignas(64) K index[lanes];
      for (std::size_t l = 0; l < lanes; ++l) index[l] = static_cast<K>(l);
      return B::load_aligned(index) < B(static_cast<K>(n));
    }();
    const Window window(n);
    // The first maximum of the row at p, by one vector (vector_row) or element by element.
    const auto vector_row = [&](const T* p) {
      const B k = xsimd::select(in_row, load_key<Target, T>(p, nan), lowest);
      return static_cast<std::size_t>(std::countr_zero(simd::lane_bits<Target>(k == simd::spread_max<Target>(k))));
    };
    const auto scalar_row = [&](const T* p) {
      K best = key_at(p, nan_scalar);
      std::size_t at = 0;
      for (std::size_t e = 1; e < n; ++e)
        if (const K key = key_at(p + e, nan_scalar); key > best) best = key, at = e;
      return at;
    };
    const auto store_row = [&](U* q, std::size_t at) {
      B::load_unaligned(window.row_with_one_at(n, at)).store_unaligned(reinterpret_cast<K*>(q));
    };
    for_each_group_run(kept, [&](std::ptrdiff_t i, std::ptrdiff_t o, std::ptrdiff_t in_step, std::ptrdiff_t out_step,
                                 std::size_t count) {
      // The rows whose vector stays inside the run's elements (first to last, `step` apart).
      const auto whole_vector_rows = [&](std::ptrdiff_t step) -> std::size_t {
        const std::ptrdiff_t span = static_cast<std::ptrdiff_t>(count - 1) * step + static_cast<std::ptrdiff_t>(n);
        const auto reach = static_cast<std::ptrdiff_t>(lanes);
        if (span < reach) return 0;
        return step == 0 ? count : std::min(count, static_cast<std::size_t>((span - reach) / step) + 1);
      };
      const std::size_t read_rows = whole_vector_rows(in_step);
      const std::size_t write_rows = out_step == static_cast<std::ptrdiff_t>(n) ? whole_vector_rows(out_step) : 0;
      const T* p = in + i;
      U* q = out + o;
      std::size_t j = 0;
      const auto packed = static_cast<std::ptrdiff_t>(n);
      if (packs_rows(n) && in_step == packed && out_step == packed) {
        j = packed_rows(n, p, q, count, nan, stores);
        p += static_cast<std::ptrdiff_t>(j) * in_step;
        q += j * n;
      }
      // A block of rows is located before any is written: a row's store followed by the next
      // row's load in about the same page offset waits for the store (simd::page_offset_period).
      for (const std::size_t blocks_end = std::min(read_rows, write_rows); j + lanes <= blocks_end; j += lanes) {
        std::size_t at[lanes];
        for (std::size_t r = 0; r < lanes; ++r) at[r] = vector_row(p + static_cast<std::ptrdiff_t>(r) * in_step);
        for (std::size_t r = 0; r < lanes; ++r) store_row(q + r * n, at[r]);
        p += static_cast<std::ptrdiff_t>(lanes) * in_step;
        q += lanes * n;
      }
      for (; j < count; ++j, p += in_step, q += out_step) {
        const std::size_t at = j < read_rows ? vector_row(p) : scalar_row(p);
        if (j < write_rows) {
          store_row(q, at);
        } else {
          for (std::size_t e = 0; e < n; ++e) q[e] = U{0};
          q[at] = Traits<T>::one;
        }
      }
    });
  }

  // ---- long rows, one row per group: the previous row's output is written while this row is
  // read, a vector stored per vector loaded (SpanWriter), so reads and (streamed) writes take
  // turns a line at a time instead of alternating a read-only phase with a write-only one
  // (a kilobyte of each at a time ran 10-20% slower). Every whole output vector is a
  // compare-and-select with the 1 already in place, so no line is written by two kinds of store.

  static constexpr std::size_t no_one = ~std::size_t{0};

  // The vector of output elements [i, i + lanes) of a part with its 1 at `one_at` (zeros but
  // in the one vector that holds the 1: one_at - i wraps above lanes elsewhere), and element i.
  // Inlined by force: the long rows' scan, writing beside its loads, calls it a vector at a time,
  // and GCC left it a call once AVX-512 scanned FLOAT16 rows with raw bits (0.72 -> 0.50 of
  // memcpy on rows of 1024).
  static auto part_vector(std::size_t one_at, B zero) {
    return [one_at, zero](std::size_t i) __attribute__((always_inline)) {
      return one_at - i < lanes ? one_hot_vector(one_at - i) : zero;
    };
  }
  static auto part_element(std::size_t one_at) {
    return [one_at](std::size_t i) { return i == one_at ? static_cast<K>(Traits<T>::one) : K(0); };
  }

  // The 1 of a part at `one_at`, stored after its zeros when it is below n (no_one: none).
  static void patch_one(U* p, std::size_t n, std::size_t one_at) {
    if (one_at < n) p[one_at] = Traits<T>::one;
  }

  // n output elements at p: zeros, and the 1 at `one_at` when it is below n (no_one: none).
  // Streamed, every vector is computed (the 1 cannot be patched into a streamed line); plain
  // or rep, a fill of zeros and then the 1 while its line is in L1 (no test per vector:
  // scan_row_writing says what the test cost).
  static void write_part(U* p, std::size_t n, std::size_t one_at, StoreStrategy stores) {
    if (stores == StoreStrategy::stream) {
      simd::store_span<Target>(reinterpret_cast<K*>(p), n, stores, part_vector(one_at, B(K(0))), part_element(one_at));
      return;
    }
    simd::fill_span<Target>(p, n, U{0}, stores);
    patch_one(p, n, one_at);
  }

  // A SpanWriter of write_part's n elements at p.
  static auto part_writer(U* p, std::size_t n, std::size_t one_at, StoreStrategy stores) {
    const B zero(K(0));
    return simd::SpanWriter<Target, K, decltype(part_vector(one_at, zero)), decltype(part_element(one_at))>(
        reinterpret_cast<K*>(p), n, stores, part_vector(one_at, zero), part_element(one_at));
  }

  // A row read whose output is not all written: its head [0, split) is written while the next
  // row is read, its tail [split, row) while the row after that starts. So the stores lag the
  // loads by a row and a tail, which keeps them apart in page offset
  // (simd::lag_apart_from_loads; for packed rows the tail ends where the next head begins, and
  // the stores go out in memory order). The tail is whole blocks, so the row after next is
  // scanned in the same blocks while it writes first the tail and then the next head.
  struct PendingRow {
    U* out = nullptr;  // null: no row
    std::size_t one_at = no_one, split = 0;

    // A part of the row's output: n elements at p, the 1 at `one` (no_one: not in it).
    struct Part {
      U* p = nullptr;
      std::size_t n = 0, one = no_one;
    };
    Part head() const { return out == nullptr ? Part{} : Part{out, split, one_at < split ? one_at : no_one}; }
    Part tail(std::size_t row) const {
      return out == nullptr ? Part{} : Part{out + split, row - split, one_at >= split ? one_at - split : no_one};
    }
  };
  using Part = typename PendingRow::Part;

  // Where the head of the row whose output is at `out` ends, written beside the loads of the
  // row at `next_in`.
  static std::size_t split_for(const U* out, const T* next_in, std::size_t row) {
    if (row < 2 * block) return row;
    constexpr std::size_t block_bytes = block * sizeof(U);
    const std::size_t lag = simd::lag_apart_from_loads(reinterpret_cast<std::uintptr_t>(out),
                                                       reinterpret_cast<std::uintptr_t>(next_in), block_bytes,
                                                       block_bytes, (row - lanes) * sizeof(U));
    return row - lag / sizeof(U);
  }

  // The first maximum of the row at g (`row` elements), writing in step with its loads the
  // `tail` part and then the `head` part: SpanWriter. tail.n is whole blocks. Plain stores write
  // zeros and then patch the 1s, as write_part does: the part writer's test per vector (is the
  // 1 in it?) took a third of the time of a row in cache, where the kernel is bound by its
  // instructions (512 x 1024 FLOAT32 rows: 41 to 59 GB/s, Zen 3). Inlined into the row loop:
  // called, with its two writers, FLOAT16 rows of 2 KiB ran 10% slower (Zen 1).
  [[gnu::always_inline]] static std::size_t scan_row_writing(const T* g, std::size_t row, K nan, K stop, Part tail,
                                                             Part head, StoreStrategy stores) {
    if (stores != StoreStrategy::stream) {
      auto tail_zeros = simd::zeros_writer<Target>(reinterpret_cast<K*>(tail.p), tail.n, stores);
      auto head_zeros = simd::zeros_writer<Target>(reinterpret_cast<K*>(head.p), head.n, stores);
      const std::size_t at = scan_row_with(g, row, nan, stop, tail.n, tail_zeros, head_zeros);
      patch_one(tail.p, tail.n, tail.one);  // n is 0 without a row
      patch_one(head.p, head.n, head.one);
      return at;
    }
    // By value: a vector store may alias any memory, so a vector reached through a reference
    // is loaded again after every store.
    auto tail_writer = part_writer(tail.p, tail.n, tail.one, stores);
    auto head_writer = part_writer(head.p, head.n, head.one, stores);
    return scan_row_with(g, row, nan, stop, tail.n, tail_writer, head_writer);
  }

  // ---- medium rows: one row of at most a block, longer than the short-row loops take ----
  //
  // (On Intel CPUs AVX-512's FLOAT32 medium rows take hardmax_full_width_rows.hpp's loop instead.)
  //
  // Rows of 100 FLOAT32 (100 classes) and the like: each row scanned as one block, its first
  // maximum located in L1, its output written at once. The long-row loop's interleaving of a
  // row's writes with the next row's reads pays for itself only over longer rows: at 400 bytes
  // a row it ran at 0.26-0.31 of the copy (about 66 ns a row; Zen 4, one thread), this loop at
  // 0.38-0.46.
  //
  // Streamed, on a dense output, the rows are written a block of rows at a time as one run
  // (simd::SparseRun): each row's output begins and ends inside a line, and written row by row
  // those lines were stored plain, a read for ownership each, or in two streamed parts a row
  // apart; streaming lost to plain stores, and plain stores read every line first (rows of 100,
  // 256 MiB: 0.47 of the streamed copy, Zen 4).
  static constexpr std::size_t max_medium_row_bytes = block * sizeof(T);
  static constexpr std::size_t medium_run_bytes = 4096;    // a block of rows: the winners in L1
  static constexpr std::size_t max_medium_run_rows = 16;   // rows per block, at most

  static void run_medium_rows(const simd::LoopNest<2>& kept, std::size_t row, const T* in, U* out, K nan,
                              StoreStrategy stores, bool dense) {
    if (stores == StoreStrategy::stream && dense) return stream_medium_rows(kept, row, in, out, nan);
    for_each_group(kept, [&](std::ptrdiff_t in_offset, std::ptrdiff_t out_offset) {
      const T* g = in + in_offset;
      write_part(out + out_offset, row, first_maximum(g, row, nan), stores);
    });
  }

  // The streamed form on a dense output (groups in memory order): one SparseRun. Rows are
  // scanned four at a time and then located: locate's exit mispredicts about once a row, and
  // taken row by row each mispredict held back the next row's loads. (Under plain stores the
  // same batches lost: rows of 250 0.60-0.65 -> 0.41-0.44 of the copy.)
  static void stream_medium_rows(const simd::LoopNest<2>& kept, std::size_t row, const T* in, U* out, K nan) {
    constexpr std::size_t at_once = 4;
    const T* rows[at_once];
    std::size_t count = 0;
    const std::size_t per_block = std::clamp<std::size_t>(medium_run_bytes / (row * sizeof(T)), 1, max_medium_run_rows);
    simd::SparseRun<Target, U, max_medium_run_rows> run(out, U{0}, Traits<T>::one, StoreStrategy::stream);
    std::size_t in_block = 0;  // rows added to the run's next block
    const auto flush = [&] {
      K best[at_once];
      std::size_t first[at_once];
      for (std::size_t r = 0; r < count; ++r) {
        best[r] = key_at(rows[r], nan);
        if (!scan_block_noting(rows[r], row, nan, best[r], first[r])) first[r] = 0;  // nothing beat the first
      }
      for (std::size_t r = 0; r < count; ++r) {
        if (first[r] == unknown_position) first[r] = locate(rows[r], row, nan, best[r]);
        run.add(in_block * row + first[r]);
        if (++in_block == per_block) {
          run.write(in_block * row, true);
          in_block = 0;
        }
      }
      count = 0;
    };
    for_each_group(kept, [&](std::ptrdiff_t in_offset, std::ptrdiff_t) {
      rows[count] = in + in_offset;
      if (++count == at_once) flush();
    });
    flush();
    run.write(in_block * row, false);
  }

  // (On Intel CPUs AVX-512's FLOAT32 long rows on a dense output take hardmax_full_width_rows.hpp's
  // loop instead.)
  // One row per group: each row read writes the tail of the row before last and the head of
  // the last row (PendingRow), then what is left after the last row.
  static void run_long_rows(const simd::LoopNest<2>& kept, std::size_t row, const T* in, U* out, K nan, K stop,
                            StoreStrategy stores) {
    PendingRow before_last, last;
    // split_for depends only on the rows' distance in page offset (the same for every row of a
    // packed tensor), and its search, made for every row, showed as 5% of a run's samples
    // against the kernel's 25-30%: kept.
    std::uintptr_t split_key = ~std::uintptr_t{0};
    std::size_t split = row;
    for_each_group(kept, [&](std::ptrdiff_t in_offset, std::ptrdiff_t out_offset) {
      const T* g = in + in_offset;
      if (last.out != nullptr) {
        const std::uintptr_t key =
            (reinterpret_cast<std::uintptr_t>(last.out) - reinterpret_cast<std::uintptr_t>(g)) % simd::page_offset_period;
        if (key != split_key) split = split_for(last.out, g, row), split_key = key;
        last.split = split;
      }
      const std::size_t one_at = scan_row_writing(g, row, nan, stop, before_last.tail(row), last.head(), stores);
      before_last = last;
      last = {out + out_offset, one_at, row};
    });
    // What is left: the tail of before_last, then all of last (its head is the whole row).
    // Streamed as the others: write_part would store ends plain that SpanWriter streams.
    for (const Part& part : {before_last.tail(row), last.head()}) {
      if (part.n == 0) continue;
      if (stores == StoreStrategy::stream) part_writer(part.p, part.n, part.one, stores).finish();
      else write_part(part.p, part.n, part.one, stores);
    }
  }

  // scan_row_writing with writers: `first` beside the loads of the first first_n elements (whole
  // blocks), `second` beside the rest.
  template <class First, class Second>
  [[gnu::always_inline]] static std::size_t scan_row_with(const T* g, std::size_t row, K nan, K stop, std::size_t first_n,
                                                          First& first, Second& second) {
    RowScan scan{key_at(g, nan)};
    scan.done = scan.best == stop;  // a leading NaN under propagate: nothing can beat it
    scan_part(g, 0, first_n, nan, stop, scan, first);
    scan_part(g, first_n, row, nan, stop, scan, second);
    return scan.best_block + locate(g + scan.best_block, std::min(block, row - scan.best_block), nan, scan.best);
  }

  // A row's scan so far: its best key, the block that holds it, whether nothing can beat it.
  struct RowScan {
    K best;
    std::size_t best_block = 0;
    bool done = false;
  };

  // Elements [from, to) of the row at g, whole blocks from `from`, with `writer` beside them.
  template <class Writer>
  [[gnu::always_inline]] static void scan_part(const T* g, std::size_t from, std::size_t to, K nan, K stop, RowScan& scan,
                                               Writer& writer) {
    for (std::size_t b = from; b < to; b += block) {
      const std::size_t n = std::min(block, to - b);
      if (!scan.done && scan_block(g + b, n, nan, scan.best, writer)) {
        scan.best_block = b;
        scan.done = scan.best == stop;
      }
      writer.advance(b + n - from);
    }
    writer.finish();
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

  // ---- interleaved groups: a kept dimension lies between reduced ones ----
  //
  // Axes {0, 2} of a 3-D tensor, say: each group is many rows far apart (1 MiB apart for
  // 256 x 1024 x 256), so walking one group at a time reads 1 KiB per far-away page and
  // defeats the prefetchers. Instead every row is visited once in memory order, keeping per
  // group its best key and where it is (a two-level reduction: a row's maximum, then the
  // group's, a strict greater-than keeping the earlier row), and a second pass in the same
  // order writes every output row. Input and output are each read or written once,
  // sequentially; the state is 16 bytes per group.

  struct GroupBest {
    K key;
    std::uint32_t at;  // the position in its row (a row has at most 2^32 - 1 elements)
    std::uint64_t row;
  };

  // Whether a kept dimension lies between two reduced ones (the innermost is the row).
  static bool is_interleaved(const simd::LoopNest<2>& all) {
    bool reduced_outside = false;
    for (std::size_t d = 0; d + 1 < all.rank; ++d) {
      if (all.role[d] == reduced_role) reduced_outside = true;
      else if (reduced_outside) return true;
    }
    return false;
  }

  // Whether the state for every group is small next to the output (an eighth of its bytes at
  // most), so a pass that keeps it wins over walking the groups one at a time.
  static bool interleaved_pays(const Plan& plan) {
    std::uint64_t groups = 1, elements = plan.group_size;
    for (std::size_t d = 0; d < plan.kept.rank; ++d) groups *= plan.kept.sizes[d];
    elements *= groups;
    return groups * sizeof(GroupBest) * 8 <= elements * sizeof(T);
  }

  // One contiguous output row per group: the row loops (short, tiny, long) apply.
  static bool one_row_per_group(const Plan& plan) {
    const simd::LoopNest<2>& red = plan.reduced;
    return red.rank == 1 && red.strides[1][0] == 1;
  }

  // False on a target that gives its short and medium rows to another (short_rows_target):
  // its run_rows then takes neither.
  static constexpr bool has_short_and_medium_loops = std::is_same_v<short_rows_target<Target>, Target>;

  // Whether run_rows takes a short-row loop (short_rows or tiny_rows): rows of at most
  // max_short_vectors vectors.
  static bool takes_short_loops(const Plan& plan) {
    return has_short_and_medium_loops && one_row_per_group(plan) &&
           plan.reduced.sizes[0] <= max_short_vectors * lanes;
  }

  // Whether run_rows takes run_medium_rows: one row of at most a block per group.
  static bool takes_medium_rows(const Plan& plan) {
    return has_short_and_medium_loops && one_row_per_group(plan) && !takes_short_loops(plan) &&
           !takes_interleaved(plan) && plan.reduced.sizes[0] * sizeof(T) <= max_medium_row_bytes;
  }

  // Whether run_rows takes run_long_rows: one longer row per group, no interleaving.
  static bool takes_long_rows(const Plan& plan) {
    return one_row_per_group(plan) && !takes_short_loops(plan) && !takes_interleaved(plan) && !takes_medium_rows(plan);
  }

  static bool takes_interleaved(const Plan& plan) {
    const simd::LoopNest<2>& red = plan.reduced;
    return red.strides[1][red.rank - 1] == 1 && is_interleaved(plan.all) && interleaved_pays(plan);
  }

  // Whether operand `op` (0 the input, 1 the output) is one dense block (every dimension
  // packed, in order).
  static bool dense(const simd::LoopNest<2>& all, std::size_t op) {
    std::ptrdiff_t step = 1;
    for (std::size_t d = all.rank; d-- > 0;) {
      if (all.strides[op][d] != step) return false;
      step *= static_cast<std::ptrdiff_t>(all.sizes[d]);
    }
    return true;
  }
  static bool dense_output(const simd::LoopNest<2>& all) { return dense(all, 1); }

  // What the output looks like to choose_stores: the interleaved path on a dense output writes
  // only its ones after its zeros (filled under `rep`, streamed while it reads under
  // `stream`); every other rows path computes each vector. Every path reads while it writes,
  // so rows off the vector grid but on the 16-byte grid (NumPy's arrays) would stream in
  // 16-byte pieces while reading.
  // Whether rows written one at a time, streamed, split lines between rows far apart in time
  // (StoreNeeds::stream_splits_lines): unless the rows start on a line. Streamed against plain,
  // of memcpy (Zen 1, one thread, 256 MiB): rows of 100 FLOAT32 (400 bytes) 0.35 / 0.50, of 200
  // 0.51 / 0.58, of 300 (1200 bytes) 0.57 / 0.58, of 500 0.72-0.75 / 0.60, of 1024 at +16 bytes
  // 0.97 / 0.73; off the 16-byte grid, rows of 250 0.35 / 0.56 and of 1001 0.54 / 0.59.
  static bool rows_split_lines(const Plan& plan) {
    const simd::LoopNest<2>& all = plan.all;
    const std::ptrdiff_t row_step = all.rank >= 2 ? all.strides[1][all.rank - 2] : 0;
    const std::size_t row_bytes = plan.reduced.sizes[0] * sizeof(T);
    const auto step_bytes = static_cast<std::size_t>(row_step) * sizeof(T);
    return step_bytes % simd::cache_line_bytes != 0 && (step_bytes % 16 != 0 || row_bytes < 1024);
  }

  // Whether tiny_rows takes the rows several a vector, in and out (packed_rows): each output
  // vector is computed from the input vector just read and stored whole, as rows of whole
  // vectors are, so the call is one that writes lines while it reads (AVX2, FLOAT32 rows of 4
  // in cache, of the streamed copy on the Intel Xeon guest: streamed 0.80, plain 0.70).
  static bool packs_whole_vectors(const Plan& plan) {
    return takes_short_loops(plan) && packs_rows(plan.reduced.sizes[0]) && dense(plan.all, 0) && dense_output(plan.all);
  }

  static simd::StoreNeeds store_needs(const Plan& plan, std::size_t output_bytes, const T* out) {
    const bool zero_background = takes_interleaved(plan) && dense_output(plan.all);
    const simd::LoopNest<2>& all = plan.all;
    const std::ptrdiff_t row_step = all.rank >= 2 ? all.strides[1][all.rank - 2] : 0;
    // Long rows, and medium rows off a dense output (on one they stream as one run:
    // run_medium_rows), are written a row at a time.
    const bool splits_lines =
        (takes_long_rows(plan) || (takes_medium_rows(plan) && !dense_output(all))) && rows_split_lines(plan);
    // The short-row loops store rows of whole vectors a block of rows after reading them at most.
    const bool rows_of_whole_vectors = takes_short_loops(plan) && plan.reduced.sizes[0] % lanes == 0;
    return {.output_bytes = output_bytes,
            .bytes_per_sparse = static_cast<std::size_t>(plan.group_size) * sizeof(T),
            .zero_background = zero_background,
            .fills_while_reading = zero_background,  // run_interleaved streams its zeros while it reads
            .rep_lags_at_l2 = zero_background,        // and under rep falls behind that at L2
            .writes_lines_while_reading = takes_long_rows(plan) || rows_of_whole_vectors || packs_whole_vectors(plan),
            .writes_rows_as_read = rows_of_whole_vectors,
            .streams_in_pieces_while_reading = simd::vector_stores_for<Target>(reinterpret_cast<const K*>(out), row_step,
                                                                               StoreStrategy::stream) ==
                                               simd::VectorStores::stream_16,
            .stream_splits_lines = splits_lines};
  }

  // Groups whose state is kept at once (on the stack: 16 KiB). More groups are taken a chunk
  // of the outermost kept dimension that fits at a time (each chunk still read and written in
  // memory order).
  static constexpr std::size_t interleaved_capacity = 1024;
  // The zeros of rows read, filled by one memset under rep once this many bytes are due
  // (run_interleaved): a loop reading 1 MiB with no compute beside it reached 0.89 of memcpy
  // with a memset after every 16 KiB read, 0.86 after 4 KiB, 0.87 after 64 KiB, 0.79 after all
  // (docs/decisions.md, "Columns").
  static constexpr std::size_t zeros_step_bytes = 16 * 1024;

  // call_bytes: the whole call's input bytes (a split call's whole), for reads_rows_side_by_side.
  static void run_interleaved(const Plan& plan, const T* in, U* out, K nan, StoreStrategy stores,
                              std::size_t call_bytes) {
    const simd::LoopNest<2>& all = plan.all;
    const std::size_t outer = all.rank - 1;  // every dimension but the row
    const std::size_t row = all.sizes[outer];
    // `split`: the outermost kept dimension whose inner kept dimensions hold at most
    // `interleaved_capacity` groups; chunks are ranges of it, the kept dimensions outside it a
    // plain loop around them.
    std::size_t split = outer;
    std::uint64_t per_unit = 1;  // groups per coordinate of `split`
    for (std::size_t d = outer; d-- > 0;) {
      if (all.role[d] != kept_role) continue;
      if (split != outer && per_unit * all.sizes[split] > interleaved_capacity) break;
      if (split != outer) per_unit *= all.sizes[split];
      split = d;
    }
    const std::size_t units_per_chunk =
        static_cast<std::size_t>(std::max<std::uint64_t>(1, interleaved_capacity / per_unit));
    // The walk's operands: input and output offsets, the group's number in its chunk, the row's
    // number in its group (row-major over the reduced dimensions, increasing dimension order).
    std::array<std::ptrdiff_t, Dims::capacity> group_step{}, row_step{};
    std::ptrdiff_t group_count = 1, row_count = 1;
    for (std::size_t d = outer; d-- > 0;) {
      const auto size = static_cast<std::ptrdiff_t>(all.sizes[d]);
      if (all.role[d] == reduced_role) {
        row_step[d] = row_count;
        row_count *= size;
      } else if (d >= split) {
        group_step[d] = group_count;
        group_count *= size;
      }
    }
    simd::LoopNest<2> outside;  // the kept dimensions outside `split`
    for (std::size_t d = 0; d < split; ++d)
      if (all.role[d] == kept_role) outside.push(all.sizes[d], {all.strides[0][d], all.strides[1][d]});
    GroupBest best[interleaved_capacity];
    const auto elements = static_cast<std::size_t>(plan.elements());
    // The output is zeros and the ones, and the second pass then writes only the ones. Under
    // rep a dense output walked in one chunk takes a memset of its next zeros_step_bytes each
    // time as many bytes of rows have been read (zeros_in_steps, ZerosBehindReads; the walk
    // reads in memory order, or in parts side by side, near it), as the columns fill a pass at
    // a time (hardmax_columns.hpp, run_columns): the fill's stores overlap the next rows'
    // loads. One memset of it all first (rep stosb is fast in large single calls, docs/
    // decisions.md "Store strategy") came before every load: axes {0,2} of 8 x 64 x 256
    // FLOAT32 (512 KiB) took 26.1 us a call that way, 22.0-22.3 in steps, on AVX-512 and AVX2,
    // 12 x 64 x 256 39 -> 35.5 (the Intel Xeon guest, family 6 model 207, in process). Other
    // dense outputs keep the one memset first. Streamed, they go out while the first
    // pass reads, a line per line loaded, as in the columns path (hardmax_columns.hpp,
    // run_columns): through one writer when the output is dense and its groups are taken in
    // one chunk, else each input row streams its own output row's zeros (a split call's part,
    // whose output rows are not one block; a walk in chunks), the ones of a chunk after its
    // first pass. Read first and written after, a part ran at 0.87 of the copy on two threads.
    const bool walked_in_one_chunk = dense_output(all) && outside.rank == 0 && units_per_chunk >= all.sizes[split];
    const bool zeros_in_steps = stores == StoreStrategy::rep && walked_in_one_chunk;
    const bool zeros_first = stores == StoreStrategy::rep && dense_output(all) && !zeros_in_steps;
    const bool zeros_while_reading = stores == StoreStrategy::stream;
    const bool one_writer = zeros_while_reading && walked_in_one_chunk;
    const bool zeroed = zeros_first || zeros_while_reading || zeros_in_steps;
    if (zeros_first) simd::fill_span<Target>(out, elements, U{0}, stores);
    typename L::ZerosBehindReads rep_zeros{out, zeros_step_bytes / sizeof(U)};
    auto zeros = simd::zeros_writer<Target>(reinterpret_cast<K*>(out), one_writer ? elements : 0, stores);
    // The zeros run ahead of the loads by what keeps them apart in page offset (outputs 16 bytes
    // past the input's offset ran at 0.62-0.71 of memcpy on Zen 1, half a page past at 0.93).
    if (one_writer)
      zeros.advance(simd::lead_apart_from_loads(reinterpret_cast<std::uintptr_t>(out), reinterpret_cast<std::uintptr_t>(in),
                                                simd::cache_line_bytes) / sizeof(U));
    // Rows read side by side (reads_rows_side_by_side): where the innermost walked dimension is a
    // kept one (a run of groups, a row of each), it is walked as rows_read_at_once parts side by
    // side. The parts hold different groups, so each group still meets its rows in order, and the
    // zeros still go out in order, a line per line loaded. Axes {0, 2} of 256 x 1024 x 256 FLOAT32,
    // one thread, one process (us a call against memcpy's of the same buffers, three rounds): one
    // row at a time 0.79-0.83 of memcpy, 2 parts 0.96-0.99, 4 parts 0.97-1.00; at +16 bytes 0.80-0.83
    // / 0.89-0.91 / 0.88-0.94 (the Intel Xeon guest, family 6 model 207, 2026-12-07). With the parts,
    // the rows' own prefetches (scan_float_bits) still led: 2 KiB ahead into L2 and 512 bytes into
    // L1 0.96, into L2 alone 0.91-0.94, none 0.89.
    // Not where each row streams its own output row's zeros (row_zeros below) and those rows share
    // lines: a line begun by one row and ended by its neighbour, a part away, is written apart in
    // time (two threads at +16 bytes: 0.80 of memcpy one row at a time, 0.53 in parts).
    const bool rows_share_lines = [&] {
      if (reinterpret_cast<std::uintptr_t>(out) % simd::cache_line_bytes != 0) return true;
      if (row * sizeof(U) % simd::cache_line_bytes != 0) return true;
      for (std::size_t d = 0; d < outer; ++d)
        if (static_cast<std::size_t>(all.strides[1][d]) * sizeof(U) % simd::cache_line_bytes != 0) return true;
      return false;
    }();
    const bool side_by_side = reads_rows_side_by_side(simd::exceeds_cache(call_bytes)) &&
                              !(zeros_while_reading && !one_writer && rows_share_lines);
    simd::for_each_offset(outside, outside.rank, [&](const std::array<std::ptrdiff_t, 2>& base) {
      for (std::size_t c0 = 0; c0 < all.sizes[split]; c0 += units_per_chunk) {
        const std::size_t units = std::min(units_per_chunk, all.sizes[split] - c0);
        simd::LoopNest<4> walk;
        for (std::size_t d = 0; d < outer; ++d)
          if (all.role[d] == reduced_role || d >= split)
            walk.push(d == split ? units : all.sizes[d], {all.strides[0][d], all.strides[1][d], group_step[d], row_step[d]});
        const T* chunk_in = in + base[0] + static_cast<std::ptrdiff_t>(c0) * all.strides[0][split];
        U* chunk_out = out + base[1] + static_cast<std::ptrdiff_t>(c0) * all.strides[1][split];
        const auto visit = [&](const std::array<std::ptrdiff_t, 4>& at) __attribute__((always_inline)) {
          const T* p = chunk_in + at[0];
          GroupBest& g = best[static_cast<std::size_t>(at[2])];
          // The group's best so far as the row's starting point: a row that cannot beat it
          // ends its scan without a reduction across lanes (scan_block's early out).
          K key = at[3] == 0 ? std::numeric_limits<K>::min() : g.key;
          if (zeros_while_reading && !one_writer) {
            // Its own loop: one generic lambda for both loops cost axes {0,2} on two threads
            // 0.98-0.99 -> 0.79-0.81 of the copy (not looked into; writers reached through
            // references were reloaded around every streamed store in hardmax_columns.hpp's fold).
            auto row_zeros = simd::zeros_writer<Target>(reinterpret_cast<K*>(chunk_out + at[1]), row, stores);
            for (std::size_t b = 0; b < row; b += block) scan_block(p + b, std::min(block, row - b), nan, key, row_zeros);
            row_zeros.finish();
          } else {
            for (std::size_t b = 0; b < row; b += block) scan_block(p + b, std::min(block, row - b), nan, key, zeros);
          }
          if (zeros_in_steps) rep_zeros.rows_read(row);
          if (at[3] == 0 || key > g.key)
            g = {key, static_cast<std::uint32_t>(locate(p, row, nan, key)), static_cast<std::uint64_t>(at[3])};
        };
        const std::size_t inner = walk.rank - 1;  // walk.rank >= 2: a kept dimension between reduced ones
        const bool inner_kept = walk.strides[2][inner] != 0;  // a group step: kept
        const std::size_t parts =
            side_by_side && inner_kept && walk.sizes[inner] >= 2 * rows_read_at_once ? rows_read_at_once : 1;
        simd::for_each_offset_in_parts(walk, walk.rank, parts, visit);
        if (zeros_in_steps) rep_zeros.finish();
        if (zeros_while_reading) {
          zeros.finish();
          simd::finish_stores<Target>(stores);  // the ones below land in streamed lines
        }
        simd::for_each_offset(walk, walk.rank, [&](const std::array<std::ptrdiff_t, 4>& at) {
          const GroupBest& g = best[static_cast<std::size_t>(at[2])];
          const bool has_one = g.row == static_cast<std::uint64_t>(at[3]);
          if (!zeroed) write_part(chunk_out + at[1], row, has_one ? g.at : no_one, stores);
          else if (has_one) chunk_out[at[1] + static_cast<std::ptrdiff_t>(g.at)] = Traits<T>::one;
        });
      }
    });
  }

  // call_bytes: the whole call's (a split call's whole), which the paths decide by whether their
  // input comes from memory.
  static void run_rows(const Plan& plan, const T* in, T* out_elements, NanMode mode, StoreStrategy stores,
                       std::size_t call_bytes) {
    U* out = reinterpret_cast<U*>(out_elements);
    const simd::LoopNest<2>& red = plan.reduced;
    const std::size_t outer = red.rank - 1;  // the reduced dimensions outside the row
    const std::size_t row = red.sizes[outer];
    const std::ptrdiff_t out_step = red.strides[1][outer];
    const K nan = nan_key<T>(mode);
    // Nothing beats a NaN under propagate, nor +inf under ignore: stop scanning the group there.
    const K stop = mode == NanMode::propagate ? nan : key_of_bits<T>(Traits<T>::inf, nan);
    // Each common shape gets its own loop, so its small body is inlined into the group walk.
    if constexpr (has_short_and_medium_loops) {
      if (takes_short_loops(plan) && row % lanes == 0) {  // whole vectors, up to max_short_vectors
        switch (row / lanes) {
          case 1: return short_rows<1>(plan.kept, in, out, nan, stores, WholeLast<1>{});
          case 2: return short_rows<2>(plan.kept, in, out, nan, stores, WholeLast<2>{});
          case 3: return short_rows<3>(plan.kept, in, out, nan, stores, WholeLast<3>{});
          case 4: return short_rows<4>(plan.kept, in, out, nan, stores, WholeLast<4>{});
          case 5: return short_rows<5>(plan.kept, in, out, nan, stores, WholeLast<5>{});
          case 6: return short_rows<6>(plan.kept, in, out, nan, stores, WholeLast<6>{});
          case 7: return short_rows<7>(plan.kept, in, out, nan, stores, WholeLast<7>{});
          default: return short_rows<8>(plan.kept, in, out, nan, stores, WholeLast<8>{});
        }
      }
      // The last vector at row - lanes, overlapping the one before.
      if (takes_short_loops(plan) && row > lanes) {
        switch ((row + lanes - 1) / lanes) {
          case 2: return short_rows<2>(plan.kept, in, out, nan, stores, row - lanes);
          case 3: return short_rows<3>(plan.kept, in, out, nan, stores, row - lanes);
          case 4: return short_rows<4>(plan.kept, in, out, nan, stores, row - lanes);
          case 5: return short_rows<5>(plan.kept, in, out, nan, stores, row - lanes);
          case 6: return short_rows<6>(plan.kept, in, out, nan, stores, row - lanes);
          case 7: return short_rows<7>(plan.kept, in, out, nan, stores, row - lanes);
          default: return short_rows<8>(plan.kept, in, out, nan, stores, row - lanes);
        }
      }
      if (takes_short_loops(plan)) return tiny_rows(plan.kept, row, in, out, nan, stores);  // shorter than a vector
    }
    if (takes_interleaved(plan)) return run_interleaved(plan, in, out, nan, stores, call_bytes);
    if (takes_medium_rows(plan)) return run_medium_rows(plan.kept, row, in, out, nan, stores, dense_output(plan.all));
    if (takes_long_rows(plan)) return run_long_rows(plan.kept, row, in, out, nan, stop, stores);
    for_each_group(plan.kept, [&](std::ptrdiff_t in_offset, std::ptrdiff_t out_offset) {
      const T* g = in + in_offset;
      U* o = out + out_offset;
      const std::uint64_t winner = argmax_rows(g, red, row, nan, stop);
      std::uint64_t first = 0;
      simd::for_each_offset(red, outer, [&](const std::array<std::ptrdiff_t, 2>& r) {
        const std::size_t one_at = winner >= first && winner - first < row ? static_cast<std::size_t>(winner - first) : row;
        write_row(o + r[1], out_step, row, one_at, stores);
        first += row;
      });
    });
  }
};

}  // namespace refops::kernels::inline REFOPS_KERNEL_ABI::hardmax_detail
