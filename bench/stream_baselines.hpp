// The streaming forms of the baselines (bench_main.cpp races them against memset and memcpy):
// non-temporal stores of the widest vector the CPU has; and the same-bytes tile, streamed or
// (cache-resident cases) by plain stores. They are written here rather than
// taken from simd::fill_span / copy_span because the benchmark is compiled for the baseline
// instruction set (SSE2 on x86-64), and 16-byte streaming stores ran at about 0.75 of 32-byte
// ones on the issue-10 Zen 3 host: a baseline held to SSE2 would flatter every AVX2 kernel.
#pragma once

#include <cstddef>

namespace refops::bench {

// `bytes` of `value` at p, then a store fence.
void stream_fill(unsigned char* p, std::size_t bytes, unsigned char value);
// `bytes` from src to dst (not overlapping), then a store fence.
void stream_copy(unsigned char* dst, const unsigned char* src, std::size_t bytes);

// The same-bytes baseline's source: the first `tile_bytes` (a power of two) of a kernel's
// output, stored twice in a row so that a vector read may run past the tile's end.
struct Tile {
  const unsigned char* bytes;  // 2 * size bytes
  std::size_t size;
};
// dst[i] = tile[(phase + i) % tile.size] for i < bytes, by streaming stores, then a store
// fence: the kernel's own output pattern tiled over the part of the output that starts `phase`
// bytes into it. With src (not null), `bytes` at src are read alongside (what a kernel that
// reads its input once and writes this pattern must move at least), into a value kept from the
// optimizer.
void tile_copy(unsigned char* dst, const unsigned char* src, std::size_t bytes, const Tile& tile, std::size_t phase);
// The same by plain (not streaming) stores of the widest vector the CPU has: the bound of a
// cache-resident kernel that computes every vector it writes (memset and memcpy take the string
// instructions, whose writes skip the read for ownership of plain stores).
void plain_tile_copy(unsigned char* dst, const unsigned char* src, std::size_t bytes, const Tile& tile,
                     std::size_t phase);

}  // namespace refops::bench
