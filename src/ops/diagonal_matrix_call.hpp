// The type-erased DIAGONAL_MATRIX / DIAGONAL_MATRIX1 call that execute() hands to the per-arch
// entry point (src/arch/diagonal_matrix.cpp). Both operators are one band kernel; the kernel
// moves bit patterns, so the entry only needs the element size.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>

#include <refops/arch.hpp>

#include <refops/dims.hpp>

#include "dispatch/arch_table.hpp"
#include "validation/level_table.hpp"

namespace refops::detail {

struct DiagonalMatrixCall {
  std::size_t element_bytes = 4;
  std::byte* output = nullptr;
  Dims sizes, output_strides;          // effective strides, one per dimension
  const std::byte* input = nullptr;    // nullptr: no InputTensor
  Dims input_strides;                  // one per dimension when input is set
  std::uint64_t value_bits = 0;        // Value in the output type, in the low element_bytes
  std::int64_t fill_begin = 0, fill_end = 1;
  std::optional<StoreStrategy> stores;  // ExecuteOptions::stores
};

// The feature-level tables (src/ops/diagonal_matrix.cpp), for the docs and their test.
const OperatorTable& diagonal_matrix_table();
const OperatorTable& diagonal_matrix1_table();

REFOPS_DECLARE_PER_ARCH(void run_diagonal_matrix(const DiagonalMatrixCall&);)

}  // namespace refops::detail
