// ONE_HOT kernels (SPEC section 2).
//
// Semantics, the same on every path:
// - A sequence is the output elements along `axis` for one coordinate of the other dimensions;
//   its length is L = output.sizes()[axis]. Every element is OffValue except at most one OnValue.
// - OffValue is values' element (0,...,0); OnValue is its logical row-major element 1 (the
//   element one step along the last dimension of size > 1). Values are moved as bit patterns,
//   so -0.0, NaN payloads and FLOAT16 survive exactly.
// - The index of a sequence is read from `indices` at the same coordinate with axis set to 0.
//   Unsigned index types: OnValue at i if i < L. Signed: i < 0 means i + L, valid when
//   0 <= i + L. Anything outside [-L, L) gives an all-OffValue sequence. Indices are compared in
//   full 64-bit width: INT64_MIN, UINT64_MAX and values >= 2^32 never alias a valid position.
//   (OpenVINO's ignore mode turns the negative wrap off: negative indices are all-off.)
//
// Paths: the scalar reference (every layout; the only code the scalar Target runs) and, on vector
// Arches, two layouts people use, reached through canonicalization to outer x axis x inner:
// - axis innermost and contiguous: rows of one to four vectors are compare-and-select vectors;
//   longer rows are written a block of whole rows at a time through the store-span helper, the
//   vectors that hold an OnValue assembled in L1;
// - axis outside a contiguous inner block: compare-and-select of the normalized positions
//   against the sequence position, vectorized over a tile of the inner block.
// Everything else runs the scalar reference. Only addressed elements are written; padding never.
// Stores (plain, streaming, or a memset of the whole contiguous output then the OnValues) are
// chosen once per call by simd::choose_stores (store_choice.hpp).
#pragma once

#include <refops/kernels/abi.hpp>

#include <algorithm>
#include <array>
#include <cassert>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <limits>
#include <type_traits>

#include <refops/dims.hpp>
#include <refops/tensor_view.hpp>
#include <refops/kernels/cache_info.hpp>
#include <refops/kernels/loop_nest.hpp>
#include <refops/kernels/simd.hpp>
#include <refops/kernels/sparse_run.hpp>
#include <refops/kernels/store_choice.hpp>

namespace refops::kernels::inline REFOPS_KERNEL_ABI::one_hot_detail {

inline constexpr std::uint64_t no_position = std::numeric_limits<std::uint64_t>::max();

// The position in [0, length) an index puts OnValue at, or no_position.
template <class I>
std::uint64_t one_hot_position(I index, std::uint64_t length, bool wrap_negative) {
  if constexpr (std::is_signed_v<I>) {
    const auto v = static_cast<std::int64_t>(index);
    if (v < 0) {
      if (!wrap_negative) return no_position;
      // |v| computed modulo 2^64, so INT64_MIN gives 2^63 and never wraps to a valid position.
      const std::uint64_t magnitude = std::uint64_t{0} - static_cast<std::uint64_t>(v);
      return magnitude <= length ? length - magnitude : no_position;
    }
  }
  const auto u = static_cast<std::uint64_t>(index);
  return u < length ? u : no_position;
}

// One ONE_HOT problem on bit patterns U: output and indices share the output's rank; indices
// have size 1 (any stride) at the axis.
template <class I, class U>
struct OneHotProblem {
  const I* indices;
  Dims indices_strides;
  U* output;
  Dims sizes;  // the output's
  Dims output_strides;
  std::size_t axis;
  U off, on;
  bool wrap_negative;
  simd::StoreRequest stores{};  // forced strategy and the whole call's bytes (thread chunks)
};

// Operands of the loop nests below.
inline constexpr std::size_t out_operand = 0, index_operand = 1;
inline constexpr int other_role = 0, axis_role = 1;

// The problem's dimensions with the axis tagged, size-1 dimensions dropped and contiguous
// neighbours merged (the axis is kept even at length 1: it is what every path loops over).
template <class I, class U>
simd::LoopNest<2> one_hot_nest(const OneHotProblem<I, U>& p) {
  simd::LoopNest<2> nest;
  for (std::size_t d = 0; d < p.sizes.size(); ++d)
    nest.push(p.sizes[d],
              {static_cast<std::ptrdiff_t>(p.output_strides[d]),
               d == p.axis ? 0 : static_cast<std::ptrdiff_t>(p.indices_strides[d])},
              d == p.axis ? axis_role : other_role);
  return simd::canonicalize(nest, 1u << axis_role);
}

// The nest without dimensions `first` and `second` (pass the same dimension twice to drop one).
inline simd::LoopNest<2> without_dimensions(const simd::LoopNest<2>& nest, std::size_t first,
                                            std::size_t second) {
  simd::LoopNest<2> rest;
  for (std::size_t d = 0; d < nest.rank; ++d)
    if (d != first && d != second)
      rest.push(nest.sizes[d], {nest.strides[out_operand][d], nest.strides[index_operand][d]},
                nest.role[d]);
  return rest;
}

// The position of the axis among the nest's dimensions.
inline std::size_t axis_dimension(const simd::LoopNest<2>& nest) {
  std::size_t a = 0;
  while (nest.role[a] != axis_role) ++a;
  return a;
}

// Elements of the output when they are one contiguous block (packed in some dimension order),
// else 0. The canonical nest orders dimensions by decreasing stride and merges packed ones.
inline std::size_t contiguous_elements(const simd::LoopNest<2>& nest) {
  std::size_t elements = 1;
  for (std::size_t d = nest.rank; d-- > 0;) {
    if (nest.sizes[d] > 1 && nest.strides[out_operand][d] != static_cast<std::ptrdiff_t>(elements)) return 0;
    elements *= nest.sizes[d];
  }
  return elements;
}

// Calls f(output offset, position) for every sequence (position may be no_position).
template <class I, class U, class F>
void for_each_sequence(const OneHotProblem<I, U>& p, const simd::LoopNest<2>& nest, F&& f) {
  const std::size_t a = axis_dimension(nest);
  const simd::LoopNest<2> others = without_dimensions(nest, a, a);
  simd::for_each_offset(others, others.rank, [&](const std::array<std::ptrdiff_t, 2>& offset) {
    f(offset[out_operand], one_hot_position(p.indices[offset[index_operand]], nest.sizes[a], p.wrap_negative));
  });
}

// SPEC section 2 read literally: every output element is OnValue if its position along the axis
// is the position its sequence's index names, else OffValue. Any strides.
template <class I, class U>
void one_hot_reference(const OneHotProblem<I, U>& p, const simd::LoopNest<2>& nest) {
  const std::size_t a = axis_dimension(nest);
  const std::uint64_t length = nest.sizes[a];
  const std::ptrdiff_t step = nest.strides[out_operand][a];
  for_each_sequence(p, nest, [&](std::ptrdiff_t offset, std::uint64_t on_at) {
    U* sequence = p.output + offset;
    for (std::uint64_t j = 0; j < length; ++j)
      sequence[static_cast<std::ptrdiff_t>(j) * step] = j == on_at ? p.on : p.off;
  });
}

// The rep strategy on a contiguous output: one fill of the whole output with OffValue (a
// single large memset is what reaches the string instructions' no-read-for-ownership path:
// on the issue-10 Zen 3 host, rep stosb blocks of up to 16 MiB ran at plain-store speed), then
// every OnValue, each a store into a line that may have left the cache (one line per sequence).
template <class Target, class I, class U>
void one_hot_fill_then_patch(const OneHotProblem<I, U>& p, const simd::LoopNest<2>& nest, std::size_t elements) {
  simd::fill_span<Target>(p.output, elements, p.off, StoreStrategy::rep);
  const std::ptrdiff_t step = nest.strides[out_operand][axis_dimension(nest)];
  for_each_sequence(p, nest, [&](std::ptrdiff_t offset, std::uint64_t on_at) {
    if (on_at != no_position) p.output[offset + static_cast<std::ptrdiff_t>(on_at) * step] = p.on;
  });
}

// Bytes of output one block of rows covers: small enough that the positions and the block's
// lines stay in L1.
inline constexpr std::size_t row_block_bytes = 4096;
inline constexpr std::size_t max_rows_per_block = 512;

// Rows of one to four whole vectors, contiguous with each other (depth 16 FLOAT32): each
// vector is select(lane position == the row's position, OnValue, OffValue), stored once. The
// vector count and the store kind are template parameters, so the row loop keeps every operand
// in registers and has no branch but the loop's.
template <class Target, std::size_t Vectors, simd::VectorStores S, class I, class U>
void one_hot_short_rows_of(const OneHotProblem<I, U>& p, U* out, const I* index, std::ptrdiff_t index_step,
                           std::size_t rows) {
  using batch = xsimd::batch<U, Target>;
  constexpr std::size_t lanes = batch::size, length = Vectors * lanes;
  constexpr U none = std::numeric_limits<U>::max();
  const batch on(p.on), off(p.off);
  const std::array<batch, Vectors> lane_position = simd::lane_positions<Target, U, Vectors>();
  for (std::size_t r = 0; r < rows; ++r, out += length, index += index_step) {
    const std::uint64_t at = one_hot_position(*index, length, p.wrap_negative);
    const batch position(at == no_position ? none : static_cast<U>(at));
    for (std::size_t c = 0; c < Vectors; ++c) {
      simd::store_vector<S, Target>(out + c * lanes, xsimd::select(lane_position[c] == position, on, off));
    }
  }
}

// Picks the instance of one_hot_short_rows_of for `length` (1 to 4 whole vectors).
template <class Target, class I, class U>
void one_hot_short_rows(const OneHotProblem<I, U>& p, U* out, const I* index, std::ptrdiff_t index_step,
                        std::size_t rows, std::size_t length, StoreStrategy stores) {
  using batch = xsimd::batch<U, Target>;
  // Rows of whole vectors that touch: on NumPy's 16-byte grid they stream in 16-byte pieces
  // (plain stores there ran at about half the aligned speed).
  const simd::VectorStores kind = simd::vector_stores_for<Target>(out, static_cast<std::ptrdiff_t>(length), stores);
  auto run = [&]<std::size_t Vectors>() {
    simd::with_vector_stores<Target>(kind, [&](auto s) {
      one_hot_short_rows_of<Target, Vectors, decltype(s)::value>(p, out, index, index_step, rows);
    });
  };
  switch (length / batch::size) {
    case 1: return run.template operator()<1>();
    case 2: return run.template operator()<2>();
    case 3: return run.template operator()<3>();
    default: return run.template operator()<4>();
  }
}

// Axis innermost with stride 1: blocks of whole rows (several rows at once when they are
// contiguous with each other, so short rows still get whole-vector stores).
template <class Target, class I, class U>
void one_hot_rows(const OneHotProblem<I, U>& p, const simd::LoopNest<2>& nest, std::size_t a,
                  StoreStrategy stores) {
  const std::size_t length = nest.sizes[a];
  // The fastest other dimension walks the rows; the rest are outer loops.
  const simd::LoopNest<2> outer = without_dimensions(nest, a, a);
  std::size_t rows = 1;
  std::ptrdiff_t row_step = 0, index_step = 0;
  std::size_t outer_rank = outer.rank;
  if (outer.rank > 0) {
    --outer_rank;
    rows = outer.sizes[outer_rank];
    row_step = outer.strides[out_operand][outer_rank];
    index_step = outer.strides[index_operand][outer_rank];
  }
  const bool rows_touch = row_step == static_cast<std::ptrdiff_t>(length) || rows == 1;
  if constexpr (simd::is_vector_arch<Target>) {
    constexpr std::size_t lanes = xsimd::batch<U, Target>::size;
    if (rows_touch && stores != StoreStrategy::rep && length % lanes == 0 && length <= 4 * lanes &&
        length < std::numeric_limits<U>::max()) {
      simd::for_each_offset(outer, outer_rank, [&](const std::array<std::ptrdiff_t, 2>& offset) {
        one_hot_short_rows<Target>(p, p.output + offset[out_operand], p.indices + offset[index_operand], index_step,
                                 rows, length, stores);
      });
      return;
    }
  }
  const std::size_t per_block =
      rows_touch ? std::clamp<std::size_t>(row_block_bytes / (length * sizeof(U)), 1, max_rows_per_block)
                 : 1;
  // Rows that touch are one run (simd::SparseRun): a block that does not end on a cache line
  // leaves its last partial line to the next block, so a streamed run has no line written
  // plain but at its two ends. Written plain at every block's end, the line split
  // between two rows of 1024 FLOAT32 at +16 bytes (NumPy) cost a read for ownership per row,
  // which held the stores behind it: 0.62 of a streamed fill against 0.87 on the line (Zen 4).
  simd::for_each_offset(outer, outer_rank, [&](const std::array<std::ptrdiff_t, 2>& offset) {
    U* const first_row = p.output + offset[out_operand];
    simd::SparseRun<Target, U, max_rows_per_block> run(first_row, p.off, p.on, stores);
    for (std::size_t r = 0; r < rows; r += per_block) {
      const std::size_t n_rows = std::min(per_block, rows - r);
      const I* index = p.indices + offset[index_operand] + static_cast<std::ptrdiff_t>(r) * index_step;
      if (!rows_touch) run.restart(first_row + static_cast<std::ptrdiff_t>(r) * row_step);  // a run per row
      for (std::size_t k = 0; k < n_rows; ++k) {
        const std::uint64_t at =
            one_hot_position(index[static_cast<std::ptrdiff_t>(k) * index_step], length, p.wrap_negative);
        if (at != no_position) run.add(k * length + static_cast<std::size_t>(at));
      }
      run.write(n_rows * length, rows_touch && r + n_rows < rows);
    }
  });
}

// Elements of the inner block handled per tile: their positions stay in L1 while every
// sequence position is compared against them.
inline constexpr std::size_t inner_tile = 1024;

// The positions of a vector of indices of type I, as unsigned lanes u of I's width (L at most
// U's maximum): u when u < L; for a negative index of a signed I (its sign bit set), u + L when
// wrapping, which is below L exactly when the magnitude 0 - u is at most L; else `nothing`.
// One unsigned compare with L decides every case: a negative index that does not wrap becomes
// `nothing` first, which is at least L.
template <class I, class Batch>
[[gnu::always_inline]] inline Batch vector_positions(const Batch& u, const Batch& L, const Batch& nothing,
                                                     bool wrap_negative) {
  using W = typename Batch::value_type;
  using Target = typename Batch::arch_type;
  Batch at = u;
  if constexpr (std::is_signed_v<I>) {
    const auto negative = simd::less_unsigned<Target>(Batch(static_cast<W>(std::numeric_limits<I>::max())), u);
    at = xsimd::select(negative, wrap_negative ? u + L : nothing, u);
  }
  return xsimd::select(simd::less_unsigned<Target>(at, L), at, nothing);
}

// one_hot_position of the n indices at index, index_step apart, into positions of U's width,
// `none` for no_position. Contiguous indices as wide as U take vectors: one index per output
// column, so for a short axis (depth 16, axis 0) the scalar loop was a quarter of the call in
// cache (docs/decisions.md); wider indices take them too, narrowed. In U's arithmetic, a
// non-negative index u is a position when u < L; a negative one (wrapped) when its magnitude
// 0 - u is at most L, at u + L (vector_positions).
template <class Target, class I, class U>
void positions_of(const I* index, std::ptrdiff_t index_step, std::size_t n, std::uint64_t length, bool wrap_negative,
                  U* position) {
  constexpr U none = std::numeric_limits<U>::max();
  std::size_t k = 0;
  if constexpr (sizeof(I) == sizeof(U) && simd::is_vector_arch<Target>) {
    using batch = xsimd::batch<U, Target>;
    const batch L(static_cast<U>(length)), nothing(none);
    for (; index_step == 1 && k + batch::size <= n; k += batch::size) {
      vector_positions<I>(batch::load_unaligned(reinterpret_cast<const U*>(index + k)), L, nothing, wrap_negative)
          .store_aligned(position + k);
    }
  } else if constexpr (sizeof(I) > sizeof(U) && simd::is_vector_arch<Target>) {
    // Indices wider than U (ONNX's INT64 into FLOAT32 or INT32 outputs): the same at I's width,
    // then narrowed, a truncation (a position is below L <= U's maximum; `none` stays U's
    // maximum). The scalar loop left axis 0 of 16 x 4194304 at 1.29-1.40 of memset where UINT32
    // indices ran at 1.64-1.91 (the Intel Xeon guest): the stores wait for the positions.
    using W = std::make_unsigned_t<I>;
    using wide = xsimd::batch<W, Target>;
    const wide L(static_cast<W>(length)), nothing(static_cast<W>(none));
    const auto positions_at = [&](std::size_t from) {
      return vector_positions<I>(wide::load_unaligned(reinterpret_cast<const W*>(index + from)), L, nothing,
                                 wrap_negative);
    };
    // INT64 into 32-bit positions in registers, two vectors a step: through memory lane by lane
    // (below), axis 0 of 16 x 32768 in cache ran at 0.54 of memset where UINT32 ran at 0.76,
    // and 16 x 4194304 at 0.61 of the same bytes (Zen 3).
    if constexpr (sizeof(W) == 8 && sizeof(U) == 4 && simd::narrows_64_to_32<Target>) {
      for (; index_step == 1 && k + 2 * wide::size <= n; k += 2 * wide::size)
        simd::narrow_store_64_to_32<Target>(positions_at(k), positions_at(k + wide::size), position + k);
    }
    alignas(64) W at_wide[wide::size];
    for (; index_step == 1 && k + wide::size <= n; k += wide::size) {
      positions_at(k).store_aligned(at_wide);
      for (std::size_t i = 0; i < wide::size; ++i) position[k + i] = static_cast<U>(at_wide[i]);
    }
  }
  for (; k < n; ++k) {
    const std::uint64_t at = one_hot_position(index[static_cast<std::ptrdiff_t>(k) * index_step], length, wrap_negative);
    position[k] = at == no_position ? none : static_cast<U>(at);
  }
}

// Axis outside a stride-1 inner dimension: per tile of the inner dimension, normalize the
// indices once into positions of U's width (no_position becomes U's maximum, which no valid
// position reaches since L <= that maximum), then for every sequence position j store
// select(position == j, on, off) over the tile through the store-span helper. Contiguous
// indices as wide as U skip the positions and are compared as they are (below).
template <class Target, class I, class U>
void one_hot_inner(const OneHotProblem<I, U>& p, const simd::LoopNest<2>& nest, std::size_t a,
                   std::size_t inner, StoreStrategy stores) {
  using batch = xsimd::batch<U, Target>;
  const std::size_t length = nest.sizes[a];
  const std::ptrdiff_t step = nest.strides[out_operand][a];
  const std::size_t count = nest.sizes[inner];
  const std::ptrdiff_t index_step = nest.strides[index_operand][inner];
  const simd::LoopNest<2> outer = without_dimensions(nest, inner, a);
  const batch on(p.on), off(p.off);
  // rep means a fill of the background; here every vector is computed, so plain stores.
  if (stores == StoreStrategy::rep) stores = StoreStrategy::plain;
  // When every sequence position's run has the same offset within a cache line, the first tile
  // ends on a line, so every later tile starts on one: a streamed span then has no partial line
  // but at the run's two ends. (Tiles from the run's start, on NumPy's 16-byte grid, left each
  // span a partial line at both ends, written plain with a read for ownership that held the
  // streamed stores behind it: axis 0 of 16 x 4194304 at +16 bytes ran at 10.4-10.8 GB/s
  // against 19-20 on a line, Intel Xeon guest.)
  const bool runs_share_line_offset = static_cast<std::size_t>(step) * sizeof(U) % simd::cache_line_bytes == 0;
  // Contiguous indices as wide as U are compared as they are, with no positions made first
  // (their load and store a vector were a tenth of the loop's samples in cache; axis 0 of
  // 16 x 32768 in cache 0.80 -> 0.83 of memset, Intel Xeon guest): index j is position j, and
  // under wrapping index j - L (modulo U's range) is too. A signed index of U's width holds
  // L <= its magnitude limit, so j - L has the sign bit set for every j < L and never equals a
  // non-negative index; a negative index not wrapped is, unsigned, at least that limit, above
  // every j. In cache, only a tile whose indices start on the vector grid compares them so:
  // every run loads the tile's indices again, and off the grid many of those loads span two
  // cache lines (each AVX-512 load at 16 bytes past a line, NumPy's and malloc's offset),
  // where positions are made once a tile into an aligned buffer. A standalone driver, 16 x
  // 32768 in cache alternated with memset (the Intel Xeon guest, model 167): indices at +16
  // bytes compared as they are 0.70-0.71 of memset on AVX-512 and AVX2, through positions
  // 0.82-0.85; on a line both 0.81-0.87. A streamed output keeps the compares at any offset:
  // there the positions' pass cost AVX2 3% (1.00-1.01 -> 0.97 of the same bytes).
  constexpr std::uint64_t sign_limit = std::uint64_t{1} << (8 * sizeof(U) - 1);
  const bool compares_indices =
      sizeof(I) == sizeof(U) && index_step == 1 && (!std::is_signed_v<I> || length <= sign_limit);
  const bool compares_at_any_offset = stores == StoreStrategy::stream;
  const bool wraps = std::is_signed_v<I> && p.wrap_negative;
  // Flattened: store_span and its loop were calls, a row of 1024 elements each, and each call
  // spilled the lambdas' vectors to the stack and cleared the upper registers (vzeroupper):
  // axis 0 of 16 x 32768 in cache ran at 0.70 of memset, inlined 0.80 (a standalone loop
  // 0.84; Intel Xeon guest).
  simd::for_each_offset(outer, outer.rank, [&](const std::array<std::ptrdiff_t, 2>& offset) __attribute__((flatten)) {
    alignas(64) U position[inner_tile];
    const std::size_t head =
        runs_share_line_offset
            ? simd::elements_to_line<U>(reinterpret_cast<std::uintptr_t>(p.output + offset[out_operand]))
            : 0;
    for (std::size_t t = 0, n = 0; t < count; t += n) {
      n = std::min(t == 0 && head != 0 ? head : inner_tile, count - t);
      const I* index = p.indices + offset[index_operand] + static_cast<std::ptrdiff_t>(t) * index_step;
      U* tile = p.output + offset[out_operand] + static_cast<std::ptrdiff_t>(t);
      // What each run compares with j: the indices themselves (j - L matches too when they
      // wrap), or the positions made of them.
      const U* source = position;
      U wrapped_here_offset = 0;  // j - L's distance from j, modulo U's range: L when wrapping
      if (compares_indices && (compares_at_any_offset || reinterpret_cast<std::uintptr_t>(index) % sizeof(batch) == 0)) {
        source = reinterpret_cast<const U*>(index);
        if (wraps) wrapped_here_offset = static_cast<U>(length);
      } else {
        positions_of<Target>(index, index_step, n, length, p.wrap_negative, position);
      }
      // A streamed output is too large for the cache, and so are its indices: the next tile's
      // contiguous ones are asked for into L2 a part before each run of this tile's, so they
      // arrive while this tile's stores go out. Read after them, by the positions' pass, INT64
      // indices held 16 x 4194304 along axis 0 at 0.77-0.78 of the same bytes on AVX2 (the
      // Intel Xeon guest; with the asks 0.95-0.96, UINT32 0.94 -> 0.97-1.02), their loads a
      // fifth of the kernel's samples. In cache the asks cost UINT32 about 7% (AVX-512) and
      // gained nothing, so only a streamed output asks.
      const bool ask_next = index_step == 1 && stores == StoreStrategy::stream;
      const auto* next_index = ask_next ? reinterpret_cast<const std::byte*>(index + n) : nullptr;
      const std::size_t next_bytes = ask_next ? std::min(inner_tile, count - t - n) * sizeof(I) : 0;
      const std::size_t ask_bytes = (next_bytes / length + simd::cache_line_bytes) & ~(simd::cache_line_bytes - 1);
      for (std::size_t j = 0; j < length; ++j) {
        if (j * ask_bytes < next_bytes)
          simd::prefetch_lines<simd::prefetch_to_l2>(next_index + j * ask_bytes,
                                                     std::min(ask_bytes, next_bytes - j * ask_bytes));
        const U here = static_cast<U>(j), wrapped_here = static_cast<U>(here - wrapped_here_offset);
        const batch j_vector(here), wrapped_j(wrapped_here);
        // Captured by value: vector stores may alias any memory, so operands reached through a
        // reference would be loaded again after every store.
        simd::store_span<Target>(
            tile + static_cast<std::ptrdiff_t>(j) * step, n, stores,
            [source, j_vector, wrapped_j, on, off](std::size_t k) {
              const batch u = batch::load_unaligned(source + k);
              return xsimd::select(u == j_vector || u == wrapped_j, on, off);
            },
            [&](std::size_t k) { return source[k] == here || source[k] == wrapped_here ? p.on : p.off; });
      }
    }
  });
}

// Outputs of at most tiny_elements elements in at most tiny_sequences sequences take the
// reference loop on every Target: the vector paths' set-up (the store choice, a SparseRun, the
// row blocks) costs more than they save there. The reference's cost grows with the elements,
// whatever their width, and with the sequences (some 40-100 instructions each). Instructions
// a call through execute(), AVX2 path, callgrind, vector paths against the reference: seed
// example 1 (3 x 4 FLOAT32) 1460 / 1286, of INT8 1341 / 1199; one row of 16 FLOAT32
// 1122 / 999; 4 x 4 along axis 0 1411 / 1272; 16 rows of 1 1253 / 1614; 32 elements about
// even (8 rows of 4 FLOAT32 1438 / 1464, 4 rows of 8 INT8 1354 / 1493); 64 INT8 elements
// 1132-1810 / 1756-2317.
inline constexpr std::size_t tiny_elements = 16, tiny_sequences = 4;

// The store strategy for the whole call, and the paths: the dimension with output stride 1
// decides.
template <class Target, class I, class U>
void one_hot_bits(const OneHotProblem<I, U>& p) {
  const simd::LoopNest<2> nest = one_hot_nest(p);
  if constexpr (simd::is_vector_arch<Target>) {
    std::size_t elements = 1;
    for (std::uint32_t s : p.sizes) elements *= s;
    const std::size_t a = axis_dimension(nest);
    if (elements <= tiny_elements && elements <= tiny_sequences * nest.sizes[a]) return one_hot_reference(p, nest);
    std::size_t unit = nest.rank;
    for (std::size_t d = nest.rank; d-- > 0;)
      if (nest.strides[out_operand][d] == 1 && nest.sizes[d] > 1) {
        unit = d;
        break;
      }
    const std::size_t contiguous = contiguous_elements(nest);
    const StoreStrategy stores = simd::choose_stores<Target>(p.stores, {.output_bytes = elements * sizeof(U),
                                                                        .bytes_per_sparse = nest.sizes[a] * sizeof(U),
                                                                        .block = contiguous != 0 ? p.output : nullptr,
                                                                        .zero_background = p.off == 0 && contiguous != 0,
                                                                        .uniform_background = contiguous != 0,
                                                                        .plain_patches_in_l1 = unit == a});
    if (stores == StoreStrategy::rep && contiguous != 0) {
      one_hot_fill_then_patch<Target>(p, nest, contiguous);
      return;
    }
    if (unit == a) {
      one_hot_rows<Target>(p, nest, a, stores);
      simd::finish_stores<Target>(stores);
      return;
    }
    if (unit < nest.rank && nest.sizes[a] <= std::numeric_limits<U>::max()) {
      one_hot_inner<Target>(p, nest, a, unit, stores);
      simd::finish_stores<Target>(stores);
      return;
    }
  }
  one_hot_reference(p, nest);
}

// Where OnValue is in values, in elements: one step along the last dimension of size > 1 (0 if
// none). Empty strides mean packed ones, whose step there is 1 (every later size is 1).
inline std::size_t on_value_offset(const Dims& sizes, const Dims& strides) {
  for (std::size_t d = sizes.size(); d-- > 0;)
    if (sizes[d] > 1) return strides.empty() ? 1 : strides[d];
  return 0;
}

// OnValue's element.
template <class T>
const T* on_value_of(TensorView<const T> values) {
  return values.data() + on_value_offset(values.sizes(), values.strides());
}

// The typed kernel on an explicit Target; `wrap_negative` false is OpenVINO's ignore mode.
template <class Target, class I, class T>
void one_hot(TensorView<const I> indices, TensorView<const T> values, TensorView<T> output,
             std::uint32_t axis, bool wrap_negative = true) {
  using U = simd::bits_t<T>;
  assert(axis < output.rank() && indices.rank() == output.rank());
  const OneHotProblem<I, U> problem{indices.data(),
                                    indices.strides(),
                                    reinterpret_cast<U*>(output.data()),
                                    output.sizes(),
                                    output.strides(),
                                    axis,
                                    simd::to_bits(*values.data()),
                                    simd::to_bits(*on_value_of(values)),
                                    wrap_negative};
  one_hot_bits<Target>(problem);
}

}  // namespace refops::kernels::inline REFOPS_KERNEL_ABI::one_hot_detail

namespace refops::kernels::inline REFOPS_KERNEL_ABI {

// API.md: ONE_HOT on the widest vector instruction set this translation unit is compiled for.
// Assumes a valid description (the compiled layer validates).
template <class I, class T>
void one_hot(TensorView<const I> indices, TensorView<const T> values, TensorView<T> output,
             std::uint32_t axis) {
  one_hot_detail::one_hot<simd::default_arch>(indices, values, output, axis);
}

}  // namespace refops::kernels::inline REFOPS_KERNEL_ABI
