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

// tile_copy on AVX2; Reading: the loads of src are folded into benchmark_sink.
template <bool Reading>
__attribute__((target("avx2"))) void stream_tile_avx2(unsigned char* dst, const unsigned char* src, std::size_t bytes,
                                                      const Tile& tile, std::size_t phase) {
  const std::size_t mask = tile.size - 1;
  const std::size_t head = head_bytes(dst, 32, bytes);
  std::memcpy(dst, tile.bytes + (phase & mask), head);  // the tile is stored twice: no wrap
  __m256i seen = _mm256_setzero_si256();
  std::size_t i = head;
  for (; i + 32 <= bytes; i += 32) {
    if constexpr (Reading) seen = _mm256_or_si256(seen, _mm256_loadu_si256(reinterpret_cast<const __m256i*>(src + i)));
    _mm256_stream_si256(reinterpret_cast<__m256i*>(dst + i),
                        _mm256_loadu_si256(reinterpret_cast<const __m256i*>(tile.bytes + ((phase + i) & mask))));
  }
  std::memcpy(dst + i, tile.bytes + ((phase + i) & mask), bytes - i);
  _mm_sfence();
  if constexpr (Reading) benchmark_sink = _mm256_extract_epi64(seen, 0) | _mm256_extract_epi64(seen, 3);
}

const bool has_avx2 = __builtin_cpu_supports("avx2");
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

void tile_copy(unsigned char* dst, const unsigned char* src, std::size_t bytes, const Tile& tile, std::size_t phase) {
#if defined(__x86_64__)
  if (has_avx2) {
    if (src) return stream_tile_avx2<true>(dst, src, bytes, tile, phase);
    return stream_tile_avx2<false>(dst, src, bytes, tile, phase);
  }
#endif
  // A tile-sized piece at a time, read then written, so reads and writes take turns.
  std::uint64_t seen = 0;
  for (std::size_t done = 0; done < bytes;) {
    const std::size_t at = (phase + done) & (tile.size - 1), n = std::min(tile.size - at, bytes - done);
    for (std::size_t k = 0; src && k + 8 <= n; k += 8) {
      std::uint64_t word;
      std::memcpy(&word, src + done + k, 8);
      seen |= word;
    }
    simd::copy_span<simd::default_arch>(dst + done, tile.bytes + at, n, StoreStrategy::stream);
    done += n;
  }
  simd::finish_stores<simd::default_arch>(StoreStrategy::stream);
  benchmark_sink = seen;
}

}  // namespace refops::bench
