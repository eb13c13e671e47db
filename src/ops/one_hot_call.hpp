// The type-erased ONE_HOT call that execute() (ONE_HOT and OneHot-1) hands to the per-ISA
// entry point run_one_hot (src/arch/one_hot.cpp), after validation: both operators end in the
// same kernel.
#pragma once

#include <cstddef>
#include <optional>
#include <cstdint>

#include <refops/data_type.hpp>
#include <refops/arch.hpp>
#include <refops/dims.hpp>

#include "dispatch/arch_table.hpp"

namespace refops::detail {

struct OneHotCall {
  DataType index_type;              // UINT32, INT32, UINT64 or INT64
  const std::byte* indices;
  Dims indices_strides;             // effective, one per output dimension (any value at the axis)
  std::size_t value_bytes;          // 1, 2, 4 or 8: the kernel moves bit patterns
  std::uint64_t off_bits, on_bits;  // in the low value_bytes bytes
  std::byte* output;
  Dims sizes, output_strides;       // the output's; effective strides
  std::uint32_t axis;
  bool wrap_negative;               // false: OpenVINO's ignore mode (negative indices are all-off)
  // Set by finish_execute and run_split, not by the operator: ExecuteOptions::stores, and for a
  // part of a split call the whole call's output bytes (0: this call is whole), so every part
  // chooses the store strategy the unsplit call would (simd::StoreRequest).
  std::optional<StoreStrategy> stores = std::nullopt;
  std::size_t call_bytes = 0;
};

REFOPS_DECLARE_PER_ARCH(void run_one_hot(const OneHotCall&);)

inline constexpr auto one_hot_entries = REFOPS_ARCH_TABLE(run_one_hot);

}  // namespace refops::detail
