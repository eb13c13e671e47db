// The type-erased HARDMAX1 call that execute() hands to the per-Arch entry point
// (src/arch/hardmax.cpp), and the operators' feature-level tables (shared with the tests and
// the docs).
#pragma once

#include <cstddef>

#include <refops/hardmax.hpp>

#include "dispatch/arch_table.hpp"
#include "validation/level_table.hpp"

namespace refops::detail {

// A validated description and its bound buffers. HARDMAX (v0) arrives as HARDMAX1 over the
// last axis.
struct HardmaxCall {
  TensorDesc input, output;
  const std::byte* input_data;
  std::byte* output_data;
  Dims axes;
  NanMode nan_mode;
};

REFOPS_DECLARE_PER_ARCH(void hardmax(const HardmaxCall&);)

const OperatorTable& hardmax_table();   // DML_OPERATOR_ACTIVATION_HARDMAX
const OperatorTable& hardmax1_table();  // DML_OPERATOR_ACTIVATION_HARDMAX1

}  // namespace refops::detail
