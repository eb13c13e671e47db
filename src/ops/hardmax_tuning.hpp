// A choice inside the HARDMAX kernel that depends on the host, forced for the benchmark's rows
// that show each alternative next to the automatic one (issue 10), and for the tests that run
// each alternative on small shapes. Internal: not part of the API (../shared/API.md).
#pragma once

#include <cstddef>

#include "dispatch/arch_table.hpp"

namespace refops::detail {

// The rows the columns path folds per pass (kernels/hardmax_columns.hpp, pass_rows_for): 2 or
// 4 forces them for every later call, on every thread; 0 restores the kernel's rule.
void force_hardmax_pass_rows(std::size_t rows);
std::size_t forced_hardmax_pass_rows();

// Whether the columns path prefetches the next pass's rows (kernels/hardmax_columns.hpp,
// prefetches_for): 1 never, 2 always, for every later call on every instruction set; 0
// restores the kernel's rule. Each instruction set keeps its own copy, as below.
void force_hardmax_columns_prefetch(std::size_t choice);
REFOPS_DECLARE_PER_ARCH(void force_columns_prefetch(std::size_t choice);)

// Whether the columns path folds each pass row by row or to its maximum, finding the row
// afterwards (kernels/hardmax_columns.hpp, folds_by_rows): 1 to its maximum, 2 row by row, for
// every later call on every instruction set; 0 restores the kernel's rule. Each instruction set
// keeps its own copy.
void force_hardmax_columns_fold(std::size_t choice);
REFOPS_DECLARE_PER_ARCH(void force_columns_fold(std::size_t choice);)

// Whether short rows streamed as whole lines prefetch their input (kernels/hardmax_rows.hpp,
// whole_line_prefetch): 1 never, 2 always, for every later call on every instruction set; 0
// restores the kernel's rule. Each instruction set's kernels keep their own copy of the
// setting (force_line_prefetch sets one).
void force_hardmax_line_prefetch(std::size_t choice);
REFOPS_DECLARE_PER_ARCH(void force_line_prefetch(std::size_t choice);)

// Which loops take AVX-512's FLOAT32 medium and long rows (kernels/hardmax_full_width_rows.hpp,
// full_width_loop): 1 Rows' loops (AVX2's for medium rows), 2 the full-width one, for every
// later call; 0 restores the kernel's rule. Each instruction set keeps its own copy, as above.
void force_hardmax_rows_loop(std::size_t choice);
REFOPS_DECLARE_PER_ARCH(void force_rows_loop(std::size_t choice);)

// Whether rows are read side by side (kernels/hardmax_rows.hpp, reads_rows_side_by_side: AVX-512's
// FLOAT32 long rows on a dense output, and the interleaved groups of axes {0, 2} and the like): 1
// one row at a time, 2 rows_read_at_once rows, for every later call; 0 restores the kernel's
// rule. Each instruction set keeps its own copy.
void force_hardmax_rows_side_by_side(std::size_t choice);
REFOPS_DECLARE_PER_ARCH(void force_rows_side_by_side(std::size_t choice);)

// Whether AVX-512's FLOAT32 long rows on a dense output, by plain stores, store their zeros
// beside their reads (kernels/hardmax_full_width_rows.hpp, zeros_beside_reads): 1 each row's
// lines built while the next row is read, 2 zeros beside the reads, for every later call; 0
// restores the kernel's rule. Each instruction set keeps its own copy.
void force_hardmax_rows_zeros_beside(std::size_t choice);
REFOPS_DECLARE_PER_ARCH(void force_rows_zeros_beside(std::size_t choice);)

}  // namespace refops::detail
