// The type-erased ONE_HOT call that execute() (ONE_HOT and OneHot-1) hands to the per-Arch
// entry point, after validation: both operators end in the same kernel.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>

#include <refops/arch.hpp>
#include <refops/data_type.hpp>
#include <refops/dims.hpp>

#include "dispatch/arch_table.hpp"

namespace refops::detail {

struct OneHotCall {
  DataType index_type;         // UINT32, INT32, UINT64 or INT64
  const void* indices;
  Dims indices_strides;        // effective, one per output dimension (any value at the axis)
  std::size_t value_bytes;     // 1, 2, 4 or 8: the kernel moves bit patterns
  std::uint64_t off_bits, on_bits;  // in the low value_bytes bytes
  void* output;
  Dims output_sizes, output_strides;  // effective strides
  std::uint32_t axis;
  bool wrap_negative;          // false: OpenVINO's ignore mode (negative indices are all-off)
  std::optional<StoreStrategy> stores;  // ExecuteOptions::stores
};

REFOPS_DECLARE_PER_ARCH(void run_one_hot(const OneHotCall&);)

}  // namespace refops::detail

namespace refops::detail {

// Runs the call on the Arch that `options` resolve to (throws Error for a forced Arch this CPU
// lacks). Both execute() overloads end here.
void dispatch_one_hot(const OneHotCall&, const ExecuteOptions&);

// The bit pattern of the 1-, 2-, 4- or 8-byte element at p, as an unsigned integer.
std::uint64_t bits_at(const std::byte* p, std::size_t bytes);

}  // namespace refops::detail
