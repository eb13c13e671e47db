// A choice inside the DIAGONAL_MATRIX kernel that depends on the host, forced for the
// benchmark's rows that show each alternative next to the automatic one (issue 10), and for the
// tests that run each alternative. Internal: not part of the API (../shared/API.md).
#pragma once

#include <cstddef>

namespace refops::detail {

// The longest run of Value, in bytes, whose input lines a streamed row with an input still
// reads (kernels/diagonal_matrix.hpp, read_through_gap_bytes): any other value forces it for
// every later call, on every thread; 0 restores the kernel's rule.
void force_diagonal_read_gap_bytes(std::size_t bytes);
std::size_t forced_diagonal_read_gap_bytes();

// How many parts of a long streamed copy of the input are read side by side
// (kernels/diagonal_matrix.hpp, copy_read_streams); 1 reads it in one pass; 0 restores the
// kernel's rule.
void force_diagonal_read_streams(std::size_t streams);
std::size_t forced_diagonal_read_streams();

}  // namespace refops::detail
