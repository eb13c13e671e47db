// HARDMAX, packed rows of 2, 4, 8 or 16 FLOAT32 or FLOAT16 elements on AVX-512 (rows of 16, 4
// or 2 classes, say): a vector holds whole rows, so each vector is one step of the loop.
// Semantics: hardmax_core.hpp.
//
// Each vector (16 FLOAT32 as floats, 32 FLOAT16 as 16-bit keys) is loaded once; one to four
// swaps and maxima put each row's maximum in all of its lanes; one compare gives the lanes equal
// to their row's maximum as a mask, and m & ~(m - starts) (starts: a bit at each row's first
// lane; each row has an equal lane, so no borrow crosses a row) keeps each row's first. The
// masks go to simd::MaskLines, which stores each output line built in registers, whole and
// aligned, plain or streamed, wherever the output starts. A vector that holds a NaN (one
// compare a vector) has its rows found by keys (Rows::first_maximum), which order NaNs by the
// call's NanMode. -0.0 equals +0.0 (as floats; as keys both are 0): the first wins.
//
// Rows' loops (AVX2's on AVX-512: short_rows_target) reduce blocks of 8 rows through a
// transposition and write each row from a window in L1, loads and stores in separate phases;
// rows under 16 bytes went a row at a time (since 2026-11-27 several a vector, packed_rows).
// On the Intel Xeon guest (family 6 model 207), one thread, both in one process (of memcpy,
// 256 MiB; docs/decisions.md has the rest): FLOAT32 rows of 16 0.82 -> 0.89, of 4 0.76 ->
// 0.91, of 2 0.15 -> 0.91, rows of 16 at +16 bytes 0.60 -> 0.80; FLOAT16 rows of 8 0.65 ->
// 0.85, of 16 0.76 -> 0.90, of 2 0.06 -> 0.86; in cache (2 MiB, of the streamed copy) FLOAT32
// rows of 4 0.51 -> 0.94, FLOAT16 rows of 8 0.50 -> 0.98. The
// same masks with each block of 16 rows loaded whole before any was stored ran at 0.71-0.80
// (rows of 16): a load and a store a vector keeps the bus busy both ways. Rows that do not
// divide a vector (10, 12) took a transposition of 16 rows and lost to Rows' loops (0.55-0.68
// against 0.69-0.73): they stay there. Which loops run is the host's call (host_takes, forced
// with FullWidthRows' choice: rows_loop in the benchmark).
#pragma once

#include <refops/kernels/hardmax_full_width_rows.hpp>
#include <refops/kernels/hardmax_rows.hpp>
#include <refops/kernels/raw_vectors.hpp>
#include <refops/kernels/sparse_run.hpp>

#if defined(__AVX512BW__)
#include <immintrin.h>
#endif

namespace refops::kernels::inline REFOPS_KERNEL_ABI::hardmax_detail {

// True for packed rows of `row` elements of `element_bytes` that RowsInAVector takes where the
// rule lets it: FLOAT32 or FLOAT16 rows whose length divides 16. The benchmark's and the tests'
// forced rows, as full_width_rows.
constexpr bool rows_in_a_vector(std::size_t row, std::size_t element_bytes) {
  return (element_bytes == 4 || element_bytes == 2) && row >= 2 && row <= 16 && 16 % row == 0;
}

// True for rows whose loop, with the last axis reduced alone, is the host's choice between
// Rows' and FullWidthRows' or RowsInAVector's (full_width_loop; forced_rows_loop forces it):
// the rows the benchmark gives its rows_loop choice and the tests run both ways.
constexpr bool host_chooses_rows_loop(std::size_t row, std::size_t element_bytes) {
  return full_width_rows(row, element_bytes) || rows_in_a_vector(row, element_bytes);
}

template <class Target, class T>
struct RowsInAVector {
#if defined(__AVX512BW__)
  static constexpr bool available =
      (std::is_same_v<T, float> || std::is_same_v<T, float16>) && std::is_base_of_v<xsimd::avx512bw, Target>;
#else
  static constexpr bool available = false;
#endif
  using Full = Rows<Target, T>;  // the key-based scan for vectors with a NaN, dense
  using U = typename Full::U;
  using K = typename Full::K;

  // Packed rows in, packed rows out, where the host's rule says; call_bytes: the whole call's
  // output (a split call's, not its part's).
  static bool takes(const Plan& plan, std::size_t call_bytes) {
    return available && Full::one_row_per_group(plan) && rows_in_a_vector(plan.reduced.sizes[0], sizeof(T)) &&
           Full::dense(plan.all, 0) && Full::dense_output(plan.all) && host_takes(plan.reduced.sizes[0], call_bytes);
  }

  // Where the host's rule says, measured with both loops forced in turn (of memcpy, one thread;
  // docs/decisions.md, "AVX-512's packed rows"):
  // - On Intel CPUs this loop, but for rows of one whole vector (16 FLOAT32) within the cache:
  //   there Rows' block loop beat it in 7 of 9 pairs of forced rows, one a tie, on the Intel
  //   guest (2 MiB, rows of 16 positive and negative, of the streamed copy, 0.78-0.94 against
  //   0.54-0.94; from memory this one wins, 0.95 against 0.87). Rows' loops took rows under 16
  //   bytes a row at a time then (FLOAT32 rows of 2 at 0.15 of memcpy, FLOAT16 rows of 4 and 2
  //   at 0.13 and 0.06, against 0.80-0.91 here).
  // - On AMD Zen 4 (family 25 model 17, 2026-12-02, in a driver, this loop's speed over Rows'):
  //   rows of 16 bytes and under, FLOAT32 rows of 4 1.36x in cache (2 MiB), a tie from memory
  //   (256 MiB); FLOAT16 rows of 8 1.70x / 1.31x, of 4 1.34x / 1.06x; but rows of 2 only in
  //   cache (1.07-1.26x): from memory 0.86-0.99x, where AVX2's packed rows (several rows a
  //   vector) lead. Rows of 32 and 64 bytes stay Rows': FLOAT32 rows of 8 0.91x and of 16 0.64x
  //   in cache, ties from memory (the benchmark's rows of 16: 0.89 against 1.03-1.05 of the
  //   streamed copy).
  static bool host_takes(std::size_t row, std::size_t call_bytes) {
    const std::size_t forced = forced_rows_loop.load(std::memory_order_relaxed);
    if (forced != 0) return forced == 2;
    const bool in_cache = !simd::exceeds_cache(call_bytes);
    if (simd::intel_cpu()) return !(row * sizeof(T) == 64 && in_cache);
    return row * sizeof(T) <= 16 && (row != 2 || in_cache);
  }

  static simd::StoreNeeds store_needs(const Plan& plan, std::size_t output_bytes, const T*) {
    return {.output_bytes = output_bytes,
            .bytes_per_sparse = static_cast<std::size_t>(plan.group_size) * sizeof(T),
            .writes_lines_while_reading = true};
  }

  static void run_rows(const Plan& plan, const T* in, T* out_elements, NanMode mode, StoreStrategy stores,
                       std::size_t call_bytes) {
    if constexpr (available) {
      U* out = reinterpret_cast<U*>(out_elements);
      // A forced `rep` (fill, then the ones) and an output off its element grid are Rows'.
      if (stores == StoreStrategy::rep || reinterpret_cast<std::uintptr_t>(out) % sizeof(U) != 0)
        return Rows<short_rows_target<Target>, T>::run_rows(plan, in, out_elements, mode, stores, call_bytes);
      const auto n = static_cast<std::size_t>(plan.elements());
      const K nan = nan_key<T>(mode);
      const auto run = [&]<bool Stream, bool Far>(std::bool_constant<Stream>, std::bool_constant<Far>) {
        switch (plan.reduced.sizes[0]) {
          case 2: return rows<2, Stream, Far>(in, out, n, nan);
          case 4: return rows<4, Stream, Far>(in, out, n, nan);
          case 8: return rows<8, Stream, Far>(in, out, n, nan);
          default: return rows<16, Stream, Far>(in, out, n, nan);
        }
      };
      const auto with_stream = [&]<bool Far>(std::bool_constant<Far> beyond_cache) {
        if (stores == StoreStrategy::stream) run(std::true_type{}, beyond_cache);
        else run(std::false_type{}, beyond_cache);
      };
      if (simd::exceeds_cache(call_bytes)) with_stream(std::true_type{});
      else with_stream(std::false_type{});
    }
  }

 private:
#if defined(__AVX512BW__)
  using Lines = simd::MaskLines<U, true>;  // (its line and Mask only)
  using Mask = typename Lines::Mask;
  static constexpr std::size_t line = Lines::line;  // elements a vector: 16 FLOAT32, 32 FLOAT16
  // How far ahead the loop asks for its input: the hardware prefetcher alone left rows of 16
  // at 0.62 of memcpy, 0.71 with 2 KiB, 0.80 with 4 KiB, no better with more (the Intel guest).
  // An input in the cache asks into L1. One from memory (Far: beyond the last-level cache) asks
  // into L2 (simd::prefetch_to_l2 says why) and again into L1 512 bytes ahead, from L2 (the
  // Intel guest, one thread, of memcpy, old and new alternated four times): FLOAT32 rows of 16
  // 0.88-0.90 -> 0.90-0.95, at +16 bytes 0.83-0.86 -> 0.84-0.93, of negative numbers 0.89-0.91
  // -> 0.94-0.97, rows of 4 0.90-0.91 -> 0.94-0.98, of 2 0.90-0.91 -> 0.95-1.04, FLOAT16 rows of
  // 8 0.86-0.93 -> 0.92-0.96. Into L2 alone they lost (rows of 16 0.89-0.94 -> 0.83-0.85), and
  // in the cache both did (rows of 16 and of 4 at 2 MiB, 0.80-0.97 -> 0.59-0.93).
  static constexpr std::ptrdiff_t prefetch_bytes = 4096;

  // The n elements at `in` (whole rows) into the run at `out`.
  template <std::size_t Row, bool Stream, bool Far>
  static void rows(const T* in, U* out, std::size_t n, K nan) {
    simd::MaskLines<U, Stream> lines(out, U{0}, Traits<T>::one);
    std::size_t i = 0;
    for (; i + line <= n; i += line) {
      constexpr auto ask = Far ? simd::StreamPrefetch::far_and_near : simd::StreamPrefetch::ahead;
      simd::prefetch_stream<ask>(in + i, prefetch_bytes);
      lines.add(firsts<Row>(in + i, line, nan));
    }
    lines.finish(i < n ? firsts<Row>(in + i, n - i, nan) : Mask{0}, n - i);
  }

  // The first maxima of the count <= line elements at p (whole rows), a bit each. Lanes past
  // count load as zeros: rows of their own, whose bits MaskLines::finish drops.
  template <std::size_t Row>
  [[gnu::always_inline]] static Mask firsts(const T* p, std::size_t count, K nan) {
    const Mask which = count == line ? Mask(~Mask{0}) : static_cast<Mask>((Mask{1} << count) - 1);
    Mask equal;
    if constexpr (std::is_same_v<T, float>) {
      // FLOAT32 as floats: each lane's maximum with its neighbour's, its pair's, its 128-bit
      // half's, its 256-bit half's (masked forms with every lane set: GCC 12 warns inside its
      // header for the others, RawFloats<64>), then the lanes equal to it.
      using R = simd::RawFloats<64>;
      const __m512 x = _mm512_maskz_loadu_ps(which, p);
      if (_mm512_cmp_ps_mask(x, x, _CMP_UNORD_Q) != 0) [[unlikely]]
        return firsts_by_keys<Row>(p, count, nan);
      __m512 top = R::max(x, _mm512_maskz_permute_ps(every, x, 0xB1));
      if constexpr (Row >= 4) top = R::max(top, _mm512_maskz_permute_ps(every, top, 0x4E));
      if constexpr (Row >= 8) top = R::max(top, _mm512_maskz_shuffle_f32x4(every, top, top, 0xB1));
      if constexpr (Row >= 16) top = R::max(top, _mm512_maskz_shuffle_f32x4(every, top, top, 0x4E));
      equal = _mm512_cmp_ps_mask(x, top, _CMP_EQ_OQ);
    } else {
      // FLOAT16 as keys in 16-bit lanes, 32 a vector (half the work of widening to floats, which
      // ran rows of 8 at 0.77 of memcpy and 0.60 of the streamed copy in cache): the magnitude,
      // negated under the sign (so -0.0 and +0.0 are both 0); a magnitude above infinity's is a
      // NaN. Each lane's maximum with its neighbour's (a 32-bit rotate), its pair's, its
      // quad's, its 128-bit half's.
      const __m512i bits = _mm512_maskz_loadu_epi16(which, p);
      const __m512i magnitude = _mm512_and_si512(bits, _mm512_set1_epi16(0x7FFF));
      if (_mm512_cmpgt_epi16_mask(magnitude, _mm512_set1_epi16(static_cast<short>(Traits<T>::inf))) != 0) [[unlikely]]
        return firsts_by_keys<Row>(p, count, nan);
      const __m512i key = _mm512_mask_sub_epi16(magnitude, _mm512_movepi16_mask(bits), _mm512_setzero_si512(), magnitude);
      const __mmask32 lanes = ~__mmask32{0};
      __m512i top = _mm512_maskz_max_epi16(lanes, key, _mm512_maskz_rol_epi32(every, key, 16));
      if constexpr (Row >= 4) top = _mm512_maskz_max_epi16(lanes, top, _mm512_maskz_shuffle_epi32(every, top, _MM_PERM_CDAB));
      if constexpr (Row >= 8) top = _mm512_maskz_max_epi16(lanes, top, _mm512_maskz_shuffle_epi32(every, top, _MM_PERM_BADC));
      if constexpr (Row >= 16) top = _mm512_maskz_max_epi16(lanes, top, _mm512_maskz_shuffle_i32x4(every, top, top, 0xB1));
      equal = _mm512_cmpeq_epi16_mask(key, top);
    }
    return static_cast<Mask>(equal & ~(equal - row_starts<Row>()));
  }
  static constexpr __mmask16 every = 0xFFFF;  // every 32-bit lane

  // A bit at each row's first lane.
  template <std::size_t Row>
  static constexpr Mask row_starts() {
    Mask bits = 0;
    for (std::size_t i = 0; i < line; i += Row) bits = static_cast<Mask>(bits | Mask{1} << i);
    return bits;
  }

  // The same by keys, a row at a time (a vector with a NaN).
  template <std::size_t Row>
  static Mask firsts_by_keys(const T* p, std::size_t count, K nan) {
    Mask bits = 0;
    for (std::size_t r = 0; r < count; r += Row)
      bits = static_cast<Mask>(bits | Mask{1} << (r + Full::first_maximum(p + r, Row, nan)));
    return bits;
  }
#endif
};

}  // namespace refops::kernels::inline REFOPS_KERNEL_ABI::hardmax_detail
