// Canonicalization (XNNPACK normalization.c, TensorIterator coalescing): rewrite a problem over
// up to 8 dimensions and K operands into the fewest dimensions that visit the same elements in
// the same order, so that most real shapes reach one fast loop.
#pragma once

#include <refops/kernels/abi.hpp>

#include <array>
#include <cstddef>
#include <cstdint>

#include <refops/dims.hpp>

namespace refops::simd::inline REFOPS_KERNEL_ABI {

// Only the first `rank` entries of each array are ever written or read, and only they are
// copied: zeroing the whole nest (232 bytes for two operands, a `rep stosq` from GCC, some 35
// cycles on Zen) on every construction was about a sixth of a small call (ONE_HOT's seed
// example builds four nests; docs/performance.md, "Small calls").
template <std::size_t K>
struct LoopNest {
  std::size_t rank = 0;
  std::array<std::size_t, Dims::capacity> sizes;
  // strides[k][d]: operand k's step in elements along dimension d (0: broadcast).
  std::array<std::array<std::ptrdiff_t, Dims::capacity>, K> strides;
  // The caller's tag for each dimension (an axis, a reduced dimension, a batch dimension...):
  // dimensions merge only with neighbours of the same role.
  std::array<int, Dims::capacity> role;

  LoopNest() {}  // user-provided, so that LoopNest{} does not zero the arrays either
  LoopNest(const LoopNest& other) { *this = other; }
  LoopNest& operator=(const LoopNest& other) {
    rank = other.rank;
    // A loop to `rank` became four calls to memcpy (GCC's loop distribution, where it sees two
    // distinct objects), a fifth of a 3x3 DIAGONAL_MATRIX call; a loop that leaves early is
    // not distributed, and copies a dimension in a few moves.
    for (std::size_t d = 0; d < Dims::capacity; ++d) {
      if (d == rank) break;
      sizes[d] = other.sizes[d];
      for (std::size_t k = 0; k < K; ++k) strides[k][d] = other.strides[k][d];
      role[d] = other.role[d];
    }
    return *this;
  }

  // Appends a dimension; `operand_strides` has one stride per operand.
  void push(std::size_t size, const std::array<std::ptrdiff_t, K>& operand_strides, int dim_role = 0) {
    sizes[rank] = size;
    for (std::size_t k = 0; k < K; ++k) strides[k][rank] = operand_strides[k];
    role[rank] = dim_role;
    ++rank;
  }
};

// Drops dimensions of size 1 whose role is not in `keep_roles` (a bit mask: bit r keeps role
// r), then merges each dimension into its faster neighbour when they share a role and every
// operand steps across them as across one dimension (outer stride == inner stride * inner size).
// The result visits the same elements in the same row-major order.
template <std::size_t K>
LoopNest<K> canonicalize(const LoopNest<K>& in, unsigned keep_roles = 0) {
  LoopNest<K> out;
  for (std::size_t d = 0; d < in.rank; ++d) {
    const bool keep = (keep_roles >> in.role[d]) & 1u;
    if (in.sizes[d] == 1 && !keep) continue;
    if (out.rank > 0) {
      const std::size_t last = out.rank - 1;
      bool mergeable = out.role[last] == in.role[d] && in.sizes[d] != 1 && out.sizes[last] != 1;
      for (std::size_t k = 0; k < K && mergeable; ++k)
        mergeable = out.strides[k][last] ==
                    in.strides[k][d] * static_cast<std::ptrdiff_t>(in.sizes[d]);
      if (mergeable) {
        out.sizes[last] *= in.sizes[d];
        for (std::size_t k = 0; k < K; ++k) out.strides[k][last] = in.strides[k][d];
        continue;
      }
    }
    std::array<std::ptrdiff_t, K> s{};
    for (std::size_t k = 0; k < K; ++k) s[k] = in.strides[k][d];
    out.push(in.sizes[d], s, in.role[d]);
  }
  return out;
}

// Calls f(offsets) for every coordinate of the first `rank` dimensions of `nest`, in row-major
// order, where offsets[k] is operand k's offset in elements. The loop the scalar paths use
// over the outer dimensions; the innermost loops stay in the kernels.
template <std::size_t K, class F>
void for_each_offset(const LoopNest<K>& nest, std::size_t rank, F&& f) {
  std::array<std::size_t, Dims::capacity> coord{};
  std::array<std::ptrdiff_t, K> offset{};
  for (std::size_t d = 0; d < rank; ++d)
    if (nest.sizes[d] == 0) return;
  while (true) {
    f(static_cast<const std::array<std::ptrdiff_t, K>&>(offset));
    std::size_t d = rank;
    while (d > 0) {
      --d;
      if (++coord[d] < nest.sizes[d]) {
        for (std::size_t k = 0; k < K; ++k) offset[k] += nest.strides[k][d];
        break;
      }
      for (std::size_t k = 0; k < K; ++k)
        offset[k] -= nest.strides[k][d] * static_cast<std::ptrdiff_t>(nest.sizes[d] - 1);
      coord[d] = 0;
      if (d == 0) return;
    }
    if (rank == 0) return;
  }
}

// for_each_offset over the first `rank` dimensions, but the innermost of them taken as `parts`
// equal parts side by side: coordinate j of each part in turn, then in order the coordinates the
// parts leave (fewer than `parts`). A loop that reads a row per coordinate then reads `parts`
// streams at once. The other dimensions come in for_each_offset's order.
template <std::size_t K, class F>
void for_each_offset_in_parts(const LoopNest<K>& nest, std::size_t rank, std::size_t parts, F&& f) {
  if (rank == 0 || parts < 2) return for_each_offset(nest, rank, f);
  const std::size_t inner = rank - 1, size = nest.sizes[inner], part = size / parts;
  for_each_offset(nest, inner, [&](const std::array<std::ptrdiff_t, K>& base) {
    std::array<std::ptrdiff_t, K> at;
    const auto visit = [&](std::size_t j) {
      for (std::size_t k = 0; k < K; ++k) at[k] = base[k] + static_cast<std::ptrdiff_t>(j) * nest.strides[k][inner];
      f(static_cast<const std::array<std::ptrdiff_t, K>&>(at));
    };
    for (std::size_t j = 0; j < part; ++j)
      for (std::size_t q = 0; q < parts; ++q) visit(q * part + j);
    for (std::size_t j = parts * part; j < size; ++j) visit(j);
  });
}

}  // namespace refops::simd::inline REFOPS_KERNEL_ABI
