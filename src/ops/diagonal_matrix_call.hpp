// The type-erased DIAGONAL_MATRIX / DIAGONAL_MATRIX1 call that execute() hands to the per-ISA
// entry point run_diagonal_matrix (src/arch/diagonal_matrix.cpp). Both operators are one band
// kernel; the kernel moves bit patterns, so the entry only needs the element size.
#pragma once

#include <cstddef>
#include <optional>
#include <cstdint>

#include <refops/arch.hpp>
#include <refops/dims.hpp>

#include "dispatch/arch_table.hpp"

namespace refops::detail {

struct DiagonalMatrixCall {
  std::size_t element_bytes;         // 1, 2, 4 or 8
  const std::byte* input;            // nullptr: no InputTensor
  Dims input_strides;                // effective, one per dimension when input is set
  std::byte* output;
  Dims sizes, output_strides;        // the output's; effective strides
  std::uint64_t value_bits;          // Value in the output type, in the low element_bytes
  std::int64_t fill_begin, fill_end;
  // 0, or the longest Value run whose input a streamed row reads, forced by
  // force_diagonal_read_gap_bytes (diagonal_matrix_tuning.hpp).
  std::size_t read_gap_bytes = 0;
  // 0, or the parts of a streamed copy of the input read side by side, forced by
  // force_diagonal_read_streams.
  std::size_t read_streams = 0;
  // Set by finish_execute and run_split, not by the operator: ExecuteOptions::stores, and for a
  // part of a split call the whole call's output bytes (0: this call is whole), so every part
  // chooses the store strategy the unsplit call would (simd::StoreRequest).
  std::optional<StoreStrategy> stores = std::nullopt;
  std::size_t call_bytes = 0;
};

REFOPS_DECLARE_PER_ARCH(void run_diagonal_matrix(const DiagonalMatrixCall&);)

inline constexpr auto diagonal_matrix_entries = REFOPS_ARCH_TABLE(run_diagonal_matrix);

}  // namespace refops::detail
