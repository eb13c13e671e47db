// HARDMAX(1) whose kept positions are too few to cut for the threads (axis 0 of 65536 x 1024:
// 1024 kept columns, one page per row, so plan_split cannot cut them): the reduced positions
// are cut instead, in two phases (include/refops/kernels/hardmax_two_phase.hpp).
#pragma once

#include <cstddef>

#include <refops/arch.hpp>

#include "ops/hardmax_call.hpp"

namespace refops::detail {

// Runs `call` as blocks of its outermost reduced dimension when that gives more parts than
// `kept_parts` (the parts of a split of its kept dimensions) and returns true; else returns
// false having run nothing. Only the columns shape (the innermost dimension of size > 1 kept):
// there each block runs the columns path's vector reduction and writer, where a reduced
// innermost dimension would fall back to a scalar loop.
bool run_reduced_split(const HardmaxCall& call, void (*entry)(const HardmaxCall&), const ExecuteOptions& options,
                       std::size_t kept_parts);

}  // namespace refops::detail
