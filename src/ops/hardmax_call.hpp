// The type-erased HARDMAX1 call that execute() (HARDMAX and HARDMAX1) hands to the per-ISA
// entry point run_hardmax (src/arch/hardmax.cpp). HARDMAX (v0) arrives as HARDMAX1 over the
// last axis.
#pragma once

#include <cstddef>
#include <optional>

#include <refops/arch.hpp>
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
  // Set by finish_execute and run_split, not by the operator: ExecuteOptions::stores, and for a
  // part of a split call the whole call's output bytes (0: this call is whole), so every part
  // chooses the store strategy the unsplit call would (simd::StoreRequest).
  std::optional<StoreStrategy> stores = std::nullopt;
  std::size_t call_bytes = 0;
};

REFOPS_DECLARE_PER_ARCH(void run_hardmax(const HardmaxCall&);)

inline constexpr auto hardmax_entries = REFOPS_ARCH_TABLE(run_hardmax);

}  // namespace refops::detail
