#include "stream_baselines.hpp"

#include <algorithm>
#include <cstdint>
#include <cstring>

#include <refops/kernels/simd.hpp>

#if defined(__x86_64__)
#include <immintrin.h>
#endif

namespace refops::bench {

namespace {

// Where the reading baselines leave what they read, so that the reads are not optimized away.
volatile std::uint64_t benchmark_sink = 0;

// Bytes before p's next multiple of `alignment` (at most `bytes`).
std::size_t head_bytes(const void* p, std::size_t alignment, std::size_t bytes) {
  const auto address = reinterpret_cast<std::uintptr_t>(p);
  return std::min(bytes, (alignment - address % alignment) % alignment);
}

#if defined(__x86_64__)
__attribute__((target("avx2"))) void stream_fill_avx2(unsigned char* p, std::size_t bytes, unsigned char value) {
  const std::size_t head = head_bytes(p, 32, bytes);
  std::memset(p, value, head);
  const __m256i v = _mm256_set1_epi8(static_cast<char>(value));
  std::size_t i = head;
  for (; i + 32 <= bytes; i += 32) _mm256_stream_si256(reinterpret_cast<__m256i*>(p + i), v);
  std::memset(p + i, value, bytes - i);
  _mm_sfence();
}

__attribute__((target("avx2"))) void stream_copy_avx2(unsigned char* dst, const unsigned char* src, std::size_t bytes) {
  const std::size_t head = head_bytes(dst, 32, bytes);
  std::memcpy(dst, src, head);
  std::size_t i = head;
  for (; i + 32 <= bytes; i += 32)
    _mm256_stream_si256(reinterpret_cast<__m256i*>(dst + i),
                        _mm256_loadu_si256(reinterpret_cast<const __m256i*>(src + i)));
  std::memcpy(dst + i, src + i, bytes - i);
  _mm_sfence();
}

// tile_copy (Streamed) and plain_tile_copy on AVX2; Reading: the loads of src are folded into
// benchmark_sink.
template <bool Streamed, bool Reading>
__attribute__((target("avx2"))) void tile_avx2(unsigned char* dst, const unsigned char* src, std::size_t bytes,
                                               const Tile& tile, std::size_t phase) {
  const std::size_t mask = tile.size - 1;
  const std::size_t head = head_bytes(dst, 32, bytes);
  std::memcpy(dst, tile.bytes + (phase & mask), head);  // the tile is stored twice: no wrap
  __m256i seen = _mm256_setzero_si256();
  std::size_t i = head;
  for (; i + 32 <= bytes; i += 32) {
    if constexpr (Reading) seen = _mm256_or_si256(seen, _mm256_loadu_si256(reinterpret_cast<const __m256i*>(src + i)));
    const __m256i v = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(tile.bytes + ((phase + i) & mask)));
    if constexpr (Streamed) _mm256_stream_si256(reinterpret_cast<__m256i*>(dst + i), v);
    else _mm256_store_si256(reinterpret_cast<__m256i*>(dst + i), v);
  }
  std::memcpy(dst + i, tile.bytes + ((phase + i) & mask), bytes - i);
  if constexpr (Streamed) _mm_sfence();
  if constexpr (Reading) benchmark_sink = _mm256_extract_epi64(seen, 0) | _mm256_extract_epi64(seen, 3);
}

// plain_tile_copy on AVX-512: the widest plain stores, as the AVX-512 kernels write.
template <bool Reading>
__attribute__((target("avx512f"))) void plain_tile_avx512(unsigned char* dst, const unsigned char* src,
                                                          std::size_t bytes, const Tile& tile, std::size_t phase) {
  const std::size_t mask = tile.size - 1;
  const std::size_t head = head_bytes(dst, 64, bytes);
  std::memcpy(dst, tile.bytes + (phase & mask), head);
  __m512i seen = _mm512_setzero_si512();
  std::size_t i = head;
  for (; i + 64 <= bytes; i += 64) {
    if constexpr (Reading) seen = _mm512_or_si512(seen, _mm512_loadu_si512(src + i));
    _mm512_store_si512(dst + i, _mm512_loadu_si512(tile.bytes + ((phase + i) & mask)));
  }
  std::memcpy(dst + i, tile.bytes + ((phase + i) & mask), bytes - i);
  if constexpr (Reading) {
    alignas(64) std::uint64_t words[8];
    _mm512_store_si512(words, seen);
    benchmark_sink = words[0] | words[7];
  }
}

const bool has_avx2 = __builtin_cpu_supports("avx2");
const bool has_avx512 = __builtin_cpu_supports("avx512f");
#endif

}  // namespace

void stream_fill(unsigned char* p, std::size_t bytes, unsigned char value) {
#if defined(__x86_64__)
  if (has_avx2) return stream_fill_avx2(p, bytes, value);
#endif
  simd::fill_span<simd::default_arch>(p, bytes, value, StoreStrategy::stream);
  simd::finish_stores<simd::default_arch>(StoreStrategy::stream);
}

void stream_copy(unsigned char* dst, const unsigned char* src, std::size_t bytes) {
#if defined(__x86_64__)
  if (has_avx2) return stream_copy_avx2(dst, src, bytes);
#endif
  simd::copy_span<simd::default_arch>(dst, src, bytes, StoreStrategy::stream);
  simd::finish_stores<simd::default_arch>(StoreStrategy::stream);
}

// The tile a piece at a time (read then written, so reads and writes take turns) by the store
// strategy s, where neither tile_avx2 nor plain_tile_avx512 applies.
void tile_by_pieces(unsigned char* dst, const unsigned char* src, std::size_t bytes, const Tile& tile,
                    std::size_t phase, StoreStrategy s) {
  std::uint64_t seen = 0;
  for (std::size_t done = 0; done < bytes;) {
    const std::size_t at = (phase + done) & (tile.size - 1), n = std::min(tile.size - at, bytes - done);
    for (std::size_t k = 0; src && k + 8 <= n; k += 8) {
      std::uint64_t word;
      std::memcpy(&word, src + done + k, 8);
      seen |= word;
    }
    simd::copy_span<simd::default_arch>(dst + done, tile.bytes + at, n, s);
    done += n;
  }
  simd::finish_stores<simd::default_arch>(s);
  benchmark_sink = seen;
}

void tile_copy(unsigned char* dst, const unsigned char* src, std::size_t bytes, const Tile& tile, std::size_t phase) {
#if defined(__x86_64__)
  if (has_avx2) {
    if (src) return tile_avx2<true, true>(dst, src, bytes, tile, phase);
    return tile_avx2<true, false>(dst, src, bytes, tile, phase);
  }
#endif
  tile_by_pieces(dst, src, bytes, tile, phase, StoreStrategy::stream);
}

void plain_tile_copy(unsigned char* dst, const unsigned char* src, std::size_t bytes, const Tile& tile,
                     std::size_t phase) {
#if defined(__x86_64__)
  if (has_avx512) {
    if (src) return plain_tile_avx512<true>(dst, src, bytes, tile, phase);
    return plain_tile_avx512<false>(dst, src, bytes, tile, phase);
  }
  if (has_avx2) {
    if (src) return tile_avx2<false, true>(dst, src, bytes, tile, phase);
    return tile_avx2<false, false>(dst, src, bytes, tile, phase);
  }
#endif
  tile_by_pieces(dst, src, bytes, tile, phase, StoreStrategy::plain);
}

}  // namespace refops::bench
