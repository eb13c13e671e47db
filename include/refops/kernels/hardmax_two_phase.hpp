// HARDMAX, a call whose reduced positions are cut into blocks for several threads (the split is
// src/threads/split_reduced.cpp; it is taken when the kept positions are too few to cut, as in
// axis 0 of 65536 x 1024). Two phases, each run on every block:
// - reduce_block: a block's partial winner per group, as (key, position): the key of the
//   block's first maximum (hardmax_core.hpp's keys: their order is the value order, NaN
//   mapped per NanMode) and its position counted from the group's first element.
// - write_block: the block's output rows from the merged winners: zeros, and the 1 of every
//   group whose winner falls in the block.
// Between the two the caller merges the blocks' winners in position order with a strict
// greater-than on the keys. Every path's fold is "the first maximum" under one total order of
// the keys (NaN above every number for propagate, below for ignore, +-0 equal), and the first
// maximum of a sequence is the first maximum among its blocks' first maxima taken in order, so
// the merged winner is the serial fold's, bit for bit.
//
// Blocks are sub-views: the outermost reduced dimension cut into ranges, so every block is a
// range of consecutive positions. Groups are numbered row-major over the kept coordinates,
// which every block shares. The columns shape runs the columns path's own reduction and
// zero-fill-and-patch writer; any other shape a scalar loop over keys (the split takes only
// the columns shape on vector paths; the scalar reference path splits the same way).
#pragma once

#include <refops/kernels/hardmax_columns.hpp>
#include <refops/kernels/hardmax_core.hpp>

namespace refops::kernels::inline REFOPS_KERNEL_ABI::hardmax_detail {

// Every group's partial winner over the block `input` whose first position is
// `first_position`: key[g] and position[g] (from the group's first element) for group g.
// call_bytes: the input bytes of the whole call, which with this block's choose the rows per pass
// and the prefetches (Columns::passes_for; forced_pass_rows as in hardmax.hpp's run).
template <class Target, class T>
void reduce_block(TensorView<const T> input, TensorView<T> output, const Dims& axes, NanMode mode,
                  std::uint64_t first_position, std::int64_t* key, std::uint64_t* position, std::size_t call_bytes,
                  std::size_t forced_pass_rows = 0) {
  using K = typename Traits<T>::K;
  const Plan plan = make_plan(input, output, axes);
  const K nan = nan_key<T>(mode);
  const T* in = input.data();
  const simd::DenormalsAsNumbers exact_compares;  // the reduction compares floats
  if constexpr (simd::is_vector_arch<Target>) {
    using C = Columns<Target, T>;
    if (C::takes(plan.all)) {
      // Nothing is written while these blocks are read.
      const auto passes =
          C::passes_for(std::max(call_bytes, input.element_count() * sizeof(T)), forced_pass_rows, false);
      alignas(64) K tile_key[C::tile];
      alignas(64) K index[C::tile];
      alignas(64) K index_high[C::split_positions ? C::tile : 1];
      C::for_each_tile(plan.kept, [&](std::ptrdiff_t i, std::ptrdiff_t, std::size_t n, std::size_t g) {
        C::reduce(plan.reduced, in + i, n, mode, passes, nan, tile_key, index, index_high);
        for (std::size_t j = 0; j < n; ++j) {
          key[g + j] = C::state_key(tile_key[j], nan);
          position[g + j] = first_position + C::position_of(index, index_high, j);
        }
      });
      return;
    }
  }
  std::size_t g = 0;
  for_each_group(plan.kept, [&](std::ptrdiff_t i, std::ptrdiff_t) {
    K best = 0;
    std::uint64_t best_at = 0, at = 0;
    simd::for_each_offset(plan.reduced, plan.reduced.rank, [&](const std::array<std::ptrdiff_t, 2>& e) {
      const K k = key_at(in + i + e[0], nan);
      if (at == 0 || k > best) {
        best = k;
        best_at = at;
      }
      ++at;
    });
    key[g] = best;
    position[g++] = first_position + best_at;
  });
}

// The block `output` whose first position is `first_position`, from every group's merged
// winner: winner[g] for group g (a position in any block).
template <class Target, class T>
void write_block(TensorView<const T> input, TensorView<T> output, const Dims& axes, std::uint64_t first_position,
                 const std::uint64_t* winner, const simd::StoreRequest& store_request = {}) {
  using U = typename Traits<T>::U;
  const Plan plan = make_plan(input, output, axes);
  U* out = reinterpret_cast<U*>(output.data());
  const std::uint64_t rows = plan.group_size;
  if constexpr (simd::is_vector_arch<Target>) {
    using C = Columns<Target, T>;
    using K = typename Traits<T>::K;
    if (C::takes(plan.all)) {
      const StoreStrategy stores =
          simd::choose_stores<Target>(store_request, C::store_needs(plan, output.element_count() * sizeof(T)));
      const bool contiguous = C::contiguous_rows(plan, C::width_of(plan));
      std::uint32_t local[C::tile];
      alignas(64) K index[C::tile];
      alignas(64) K index_high[C::split_positions ? C::tile : 1];
      C::for_each_tile(plan.kept, [&](std::ptrdiff_t, std::ptrdiff_t o, std::size_t n, std::size_t g) {
        for (std::size_t j = 0; j < n; ++j) {
          const std::uint64_t w = winner[g + j];
          local[j] = w >= first_position && w - first_position < rows ? static_cast<std::uint32_t>(w - first_position)
                                                                      : C::no_winner;
        }
        if (C::patches(plan)) return C::write_patched(plan, out + o, n, local, stores, contiguous);
        for (std::size_t j = 0; j < n; ++j) {
          index[j] = C::low(local[j]);
          if constexpr (C::split_positions) index_high[j] = C::high(local[j]);
        }
        C::write_selected_rows(plan.reduced, out + o, n, index, index_high, stores);
      });
      simd::finish_stores<Target>(stores);
      return;
    }
  }
  std::size_t g = 0;
  for_each_group(plan.kept, [&](std::ptrdiff_t, std::ptrdiff_t o) {
    const std::uint64_t w = winner[g++];
    std::uint64_t at = first_position;
    simd::for_each_offset(plan.reduced, plan.reduced.rank, [&](const std::array<std::ptrdiff_t, 2>& e) {
      out[o + e[1]] = at++ == w ? Traits<T>::one : U{0};
    });
  });
}

}  // namespace refops::kernels::inline REFOPS_KERNEL_ABI::hardmax_detail
