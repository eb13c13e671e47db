// The type-erased HARDMAX1 call that execute() (HARDMAX and HARDMAX1) hands to the per-ISA
// entry point run_hardmax (src/arch/hardmax.cpp). HARDMAX (v0) arrives as HARDMAX1 over the
// last axis.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>

#include <refops/arch.hpp>
#include <refops/dims.hpp>
#include <refops/nan_mode.hpp>

#include "dispatch/arch_table.hpp"

namespace refops::detail {

// The element types the feature-level tables admit (HARDMAX reads values, so unlike the other
// operators it needs the type, not only its size).
enum class HardmaxType { float32, float16 };

// What run_hardmax does with a call: all of it, or one phase of a call whose reduced positions
// are cut into blocks (src/threads/split_reduced.cpp, kernels/hardmax_two_phase.hpp).
enum class HardmaxPhase { whole, reduce, write };

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
  // 0, or the columns path's rows per pass forced by force_hardmax_pass_rows (hardmax_tuning.hpp).
  std::size_t pass_rows = 0;
  // Set by run_split for the blocks of a two-phase split: the block's first reduced position,
  // and one entry per group (row-major over the kept coordinates). reduce writes the block's
  // partial winners to keys and positions; write reads the merged winners from positions.
  HardmaxPhase phase = HardmaxPhase::whole;
  std::uint64_t first_position = 0;
  std::int64_t* keys = nullptr;
  std::uint64_t* positions = nullptr;
};

REFOPS_DECLARE_PER_ARCH(void run_hardmax(const HardmaxCall&);)

inline constexpr auto hardmax_entries = REFOPS_ARCH_TABLE(run_hardmax);

}  // namespace refops::detail
