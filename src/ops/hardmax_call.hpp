// The type-erased HARDMAX1 call that execute() (HARDMAX and HARDMAX1) hands to the per-ISA
// entry point run_hardmax (src/arch/hardmax.cpp). HARDMAX (v0) arrives as HARDMAX1 over the
// last axis.
#pragma once

#include <cstddef>

#include <refops/dims.hpp>
#include <refops/nan_mode.hpp>

#include "dispatch/arch_table.hpp"

namespace refops::detail {

// The element types the feature-level tables admit (HARDMAX reads values, so unlike the other
// operators it needs the type, not only its size).
enum class HardmaxType { float32, float16 };

struct HardmaxCall {
  HardmaxType type;
  const std::byte* input;
  Dims input_strides;          // effective
  std::byte* output;
  Dims sizes, output_strides;  // the output's (the input's are the same); effective strides
  Dims axes;                   // distinct, each < sizes.size()
  NanMode nan_mode;
};

REFOPS_DECLARE_PER_ARCH(void run_hardmax(const HardmaxCall&);)

inline constexpr auto hardmax_entries = REFOPS_ARCH_TABLE(run_hardmax);

}  // namespace refops::detail
