// The x86 vector operations HARDMAX's raw-bit block scans use (hardmax_rows.hpp: scan_bits,
// scan_float_bits), at one width: 32 bytes (AVX2) or 64 (AVX-512BW). The scans are written once
// over these; a width is a struct of static functions, so each compiles to the same
// instructions as intrinsics written in place. The lane-wise extremes are simd::max_of and
// min_of (their native instruction per width lives there); the rest is intrinsics rather than
// xsimd: the scans need the float maximum's NaN operand order (maxps returns its second operand
// when either is a NaN) and compares whose result is tested at once (a mask on AVX-512), which
// xsimd does not promise.
#pragma once

#include <refops/kernels/abi.hpp>
#include <refops/kernels/simd.hpp>

#include <cstddef>
#include <cstdint>
#include <type_traits>

#if defined(__AVX2__)
#include <immintrin.h>
#endif

namespace refops::simd::inline REFOPS_KERNEL_ABI {

#if defined(__AVX2__)
// Integer lanes of K (std::int16_t or std::int32_t) in a vector of Bytes bytes; Arch is the
// xsimd target of that width, whose simd::max_of / min_of give the lane-wise extremes.
template <std::size_t Bytes, class K>
struct RawBits;

template <class Arch, class K>
struct RawExtremes {
  using Signed = xsimd::batch<K, Arch>;
  using Unsigned = xsimd::batch<std::make_unsigned_t<K>, Arch>;
  using V = typename Signed::register_type;
  static V smax(V a, V b) { return max_of<Arch>(Signed(a), Signed(b)); }
  static V smin(V a, V b) { return min_of<Arch>(Signed(a), Signed(b)); }
  static V umax(V a, V b) { return max_of<Arch>(Unsigned(a), Unsigned(b)); }
};

template <class K>
struct RawBits<32, K> : RawExtremes<xsimd::avx2, K> {
  static_assert(sizeof(K) == 2 || sizeof(K) == 4);
  using V = __m256i;
  using E = RawExtremes<xsimd::avx2, K>;
  using E::smax, E::smin, E::umax;
  static constexpr std::size_t lanes = 32 / sizeof(K);
  static constexpr bool wide = sizeof(K) == 4;

  static V load(const K* p) { return _mm256_loadu_si256(reinterpret_cast<const V*>(p)); }
  static V splat(K v) { return wide ? _mm256_set1_epi32(static_cast<int>(v)) : _mm256_set1_epi16(static_cast<short>(v)); }
  // All-ones lanes where a equals b.
  static V equal(V a, V b) { return wide ? _mm256_cmpeq_epi32(a, b) : _mm256_cmpeq_epi16(a, b); }
  // Whether a lane of a is greater than b's (signed), whether every lane of a equals b's.
  static bool any_greater(V a, V b) {
    return _mm256_movemask_epi8(wide ? _mm256_cmpgt_epi32(a, b) : _mm256_cmpgt_epi16(a, b)) != 0;
  }
  static bool all_equal(V a, V b) { return _mm256_movemask_epi8(equal(a, b)) == -1; }
  // Every lane the signed maximum of its group of Group bytes (4, 8 or 16: lanes swapped 8 bytes
  // apart, then 4, then 2 for 16-bit lanes, as far as the group reaches); max_in_halves, of its
  // 128-bit half.
  template <std::size_t Group>
  static V max_in_groups(V v) { return in_groups<Group>(v, [](V a, V b) { return smax(a, b); }); }
  static V max_in_halves(V v) { return max_in_groups<16>(v); }
  // The signed maximum (minimum) across lanes: the halves, then within the half.
  static K max_across(V v) { return across(v, [](V a, V b) { return smax(a, b); }); }
  static K min_across(V v) { return across(v, [](V a, V b) { return smin(a, b); }); }

 private:
  template <std::size_t Group, class Op>
  static V in_groups(V v, Op op) {
    static_assert(Group == 4 || Group == 8 || Group == 16);
    static_assert(Group > sizeof(K));
    if constexpr (Group >= 16) v = op(v, _mm256_shuffle_epi32(v, _MM_SHUFFLE(1, 0, 3, 2)));
    if constexpr (Group >= 8) v = op(v, _mm256_shuffle_epi32(v, _MM_SHUFFLE(2, 3, 0, 1)));
    if constexpr (!wide) v = op(v, _mm256_or_si256(_mm256_slli_epi32(v, 16), _mm256_srli_epi32(v, 16)));
    return v;
  }
  template <class Op>
  static K across(V v, Op op) {
    return static_cast<K>(_mm256_cvtsi256_si32(in_groups<16>(op(v, _mm256_permute2x128_si256(v, v, 1)), op)));
  }
};

// FLOAT32 lanes in a vector of Bytes bytes, with a record of whether any compared lane was
// unordered (a NaN).
template <std::size_t Bytes>
struct RawFloats;

template <>
struct RawFloats<32> {
  using V = __m256;
  using Unordered = __m256;  // all-ones lanes where a compare met a NaN
  static constexpr std::size_t lanes = 8;

  static V load(const float* p) { return _mm256_loadu_ps(p); }
  static V max(V a, V b) { return _mm256_max_ps(a, b); }  // b when either is a NaN
  static Unordered none_unordered() { return _mm256_setzero_ps(); }
  static Unordered note_unordered(Unordered u, V a, V b) { return _mm256_or_ps(u, _mm256_cmp_ps(a, b, _CMP_UNORD_Q)); }
  static bool any_unordered(Unordered u) { return _mm256_movemask_ps(u) != 0; }
  // Whether a lane of a is greater than the float whose bits are `bits` (no NaN in a).
  static bool any_greater(V a, std::uint32_t bits) {
    return _mm256_movemask_ps(_mm256_cmp_ps(a, _mm256_castsi256_ps(_mm256_set1_epi32(static_cast<int>(bits))), _CMP_GT_OQ)) !=
           0;
  }
  // The largest lane (no NaN in v).
  static float max_across(V v) {
    __m128 m = _mm_max_ps(_mm256_castps256_ps128(v), _mm256_extractf128_ps(v, 1));
    m = _mm_max_ps(m, _mm_shuffle_ps(m, m, _MM_SHUFFLE(1, 0, 3, 2)));
    m = _mm_max_ps(m, _mm_shuffle_ps(m, m, _MM_SHUFFLE(2, 3, 0, 1)));
    return _mm_cvtss_f32(m);
  }

  // Element positions, one per lane (32-bit), for scans that note where each lane's maximum
  // first appeared.
  using Positions = __m256i;
  static Positions lane_positions() { return _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7); }
  static Positions advance(Positions p, std::size_t by) {
    return _mm256_add_epi32(p, _mm256_set1_epi32(static_cast<int>(by)));
  }
  // `at` with `here` in the lanes where x is above hi (an ordered compare: a NaN never is).
  static Positions note_greater(Positions at, V x, V hi, Positions here) {
    return _mm256_castps_si256(
        _mm256_blendv_ps(_mm256_castsi256_ps(at), _mm256_castsi256_ps(here), _mm256_cmp_ps(x, hi, _CMP_GT_OQ)));
  }
  // The least of `at` over the lanes where hi equals top (one must; -0.0 equals +0.0).
  static std::uint32_t first_position(V hi, Positions at, float top) {
    const __m256 equal = _mm256_cmp_ps(hi, _mm256_set1_ps(top), _CMP_EQ_OQ);
    return least(_mm256_castps_si256(
        _mm256_blendv_ps(_mm256_castsi256_ps(_mm256_set1_epi32(-1)), _mm256_castsi256_ps(at), equal)));
  }
  // The least unsigned 32-bit lane.
  static std::uint32_t least(__m256i p) {
    p = _mm256_min_epu32(p, _mm256_permute2x128_si256(p, p, 1));
    p = _mm256_min_epu32(p, _mm256_shuffle_epi32(p, _MM_SHUFFLE(1, 0, 3, 2)));
    p = _mm256_min_epu32(p, _mm256_shuffle_epi32(p, _MM_SHUFFLE(2, 3, 0, 1)));
    return static_cast<std::uint32_t>(_mm256_cvtsi256_si32(p));
  }
};
#endif

#if defined(__AVX512BW__)
// The 512-bit forms. Maxima and extracts take their masked form with every lane set: GCC 12
// warns (-Wmaybe-uninitialized, an error here) inside its own header for the unmasked ones
// (simd::extreme_of). Reductions across lanes fold the two halves and go on at 32 bytes.
template <class K>
struct RawBits<64, K> : RawExtremes<xsimd::avx512bw, K> {
  static_assert(sizeof(K) == 2 || sizeof(K) == 4);
  using V = __m512i;
  using E = RawExtremes<xsimd::avx512bw, K>;
  using E::smax, E::smin, E::umax;
  using Half = RawBits<32, K>;
  static constexpr std::size_t lanes = 64 / sizeof(K);
  static constexpr bool wide = sizeof(K) == 4;

  static V load(const K* p) { return _mm512_loadu_si512(p); }
  static V splat(K v) { return wide ? _mm512_set1_epi32(static_cast<int>(v)) : _mm512_set1_epi16(static_cast<short>(v)); }
  static bool any_greater(V a, V b) {
    return wide ? _mm512_cmpgt_epi32_mask(a, b) != 0 : _mm512_cmpgt_epi16_mask(a, b) != 0;
  }
  static bool all_equal(V a, V b) {
    return wide ? _mm512_cmpneq_epi32_mask(a, b) == 0 : _mm512_cmpneq_epi16_mask(a, b) == 0;
  }
  static K max_across(V v) { return Half::max_across(Half::smax(low(v), high(v))); }
  static K min_across(V v) { return Half::min_across(Half::smin(low(v), high(v))); }

 private:
  static __m256i low(V v) { return _mm512_maskz_extracti64x4_epi64(0xFF, v, 0); }
  static __m256i high(V v) { return _mm512_maskz_extracti64x4_epi64(0xFF, v, 1); }
};

template <>
struct RawFloats<64> {
  using V = __m512;
  using Unordered = __mmask16;  // set bits where a compare met a NaN
  static constexpr std::size_t lanes = 16;

  static V load(const float* p) { return _mm512_loadu_ps(p); }
  static V max(V a, V b) { return _mm512_maskz_max_ps(0xFFFF, a, b); }  // b when either is a NaN
  static Unordered none_unordered() { return 0; }
  static Unordered note_unordered(Unordered u, V a, V b) {
    return static_cast<Unordered>(u | _mm512_cmp_ps_mask(a, b, _CMP_UNORD_Q));
  }
  static bool any_unordered(Unordered u) { return u != 0; }
  // A cheaper watch for NaN, one multiply-add a vector: x * 0 + w is w for a finite x and NaN
  // for an infinity or a NaN, and a NaN stays. So infinities raise it too (their rows take the
  // exact slow path). none_infinite() to start, any_non_finite() at the end.
  static V none_infinite() { return _mm512_setzero_ps(); }
  static V note_non_finite(V w, V x) { return _mm512_fmadd_ps(x, _mm512_setzero_ps(), w); }
  static bool any_non_finite(V w) { return _mm512_cmp_ps_mask(w, w, _CMP_UNORD_Q) != 0; }
  static bool any_greater(V a, std::uint32_t bits) {
    return _mm512_cmp_ps_mask(a, _mm512_castsi512_ps(_mm512_set1_epi32(static_cast<int>(bits))), _CMP_GT_OQ) != 0;
  }
  static float max_across(V v) {
    const __m512d d = _mm512_castps_pd(v);
    const __m256 low = _mm256_castpd_ps(_mm512_maskz_extractf64x4_pd(0xFF, d, 0));
    const __m256 high = _mm256_castpd_ps(_mm512_maskz_extractf64x4_pd(0xFF, d, 1));
    return RawFloats<32>::max_across(_mm256_max_ps(low, high));
  }

  using Positions = __m512i;
  static Positions lane_positions() { return _mm512_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15); }
  static Positions advance(Positions p, std::size_t by) {
    return _mm512_add_epi32(p, _mm512_set1_epi32(static_cast<int>(by)));
  }
  static Positions note_greater(Positions at, V x, V hi, Positions here) {
    return _mm512_mask_mov_epi32(at, _mm512_cmp_ps_mask(x, hi, _CMP_GT_OQ), here);
  }
  static std::uint32_t first_position(V hi, Positions at, float top) {
    const __m512i p =
        _mm512_mask_mov_epi32(_mm512_set1_epi32(-1), _mm512_cmp_ps_mask(hi, _mm512_set1_ps(top), _CMP_EQ_OQ), at);
    const __m256i low = _mm512_maskz_extracti64x4_epi64(0xFF, p, 0), high = _mm512_maskz_extracti64x4_epi64(0xFF, p, 1);
    return RawFloats<32>::least(_mm256_min_epu32(low, high));
  }
};
#endif

}  // namespace refops::simd::inline REFOPS_KERNEL_ABI
