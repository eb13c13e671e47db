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

__attribute__((target("avx2"))) void stream_tile_avx2(unsigned char* dst, std::size_t bytes, const Tile& tile,
                                                      std::size_t phase) {
  const std::size_t mask = tile.size - 1;
  const std::size_t head = head_bytes(dst, 32, bytes);
  std::memcpy(dst, tile.bytes + (phase & mask), head);  // the tile is stored twice: no wrap
  std::size_t i = head;
  for (; i + 32 <= bytes; i += 32)
    _mm256_stream_si256(reinterpret_cast<__m256i*>(dst + i),
                        _mm256_loadu_si256(reinterpret_cast<const __m256i*>(tile.bytes + ((phase + i) & mask))));
  std::memcpy(dst + i, tile.bytes + ((phase + i) & mask), bytes - i);
  _mm_sfence();
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

void tile_copy(unsigned char* dst, std::size_t bytes, const Tile& tile, std::size_t phase, bool stream) {
#if defined(__x86_64__)
  if (stream && has_avx2) return stream_tile_avx2(dst, bytes, tile, phase);
#endif
  for (std::size_t done = 0; done < bytes;) {
    const std::size_t at = (phase + done) & (tile.size - 1), n = std::min(tile.size - at, bytes - done);
    if (stream) simd::copy_span<simd::default_arch>(dst + done, tile.bytes + at, n, StoreStrategy::stream);
    else std::memcpy(dst + done, tile.bytes + at, n);
    done += n;
  }
  if (stream) simd::finish_stores<simd::default_arch>(StoreStrategy::stream);
}

}  // namespace refops::bench
