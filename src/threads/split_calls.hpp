// execute()'s last step for each operator: run a validated call's per-Arch entry point, on the
// calling thread or cut into parts on the options' thread pool (src/threads/split.hpp).
#pragma once

#include <refops/arch.hpp>

#include "ops/diagonal_matrix_call.hpp"
#include "ops/hardmax_call.hpp"
#include "ops/one_hot_call.hpp"

namespace refops::detail {

// ONE_HOT: parts are ranges of a dimension other than the axis (outer rows of indices and
// output; the inner block when the axis is outermost).
void run_split(const OneHotCall&, void (*entry)(const OneHotCall&), const ExecuteOptions&);
// DIAGONAL_MATRIX(1): parts are ranges of a batch dimension or of the rows; rows [r0, r1) of a
// band with fill range [Begin, End) are a matrix with fill range [Begin + r0, End + r0).
void run_split(const DiagonalMatrixCall&, void (*entry)(const DiagonalMatrixCall&), const ExecuteOptions&);
// HARDMAX(1): parts are ranges of a kept (non-reduced) dimension, so every group stays whole
// (for the columns path, the kept inner block); when the kept positions are too few for the
// threads, blocks of the reduced positions in two phases (src/threads/split_reduced.hpp).
void run_split(const HardmaxCall&, void (*entry)(const HardmaxCall&), const ExecuteOptions&);

}  // namespace refops::detail
