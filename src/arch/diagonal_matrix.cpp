// DIAGONAL_MATRIX(1)'s per-ISA entry point: the band kernel, instantiated once per element
// size (the kernel moves bit patterns; the 11 types share 4 instantiations).
#include "arch/arch_config.hpp"

#include <refops/kernels/diagonal_matrix.hpp>

#include "ops/diagonal_matrix_call.hpp"

namespace refops::detail::REFOPS_ISA {
namespace {

template <class U>
void run_bits(const DiagonalMatrixCall& c) {
  namespace kernel = kernels::diagonal_matrix_detail;
  kernel::diagonal_band_bits<SimdTarget>(kernel::make_band_problem(
      reinterpret_cast<U*>(c.output), c.sizes, c.output_strides, reinterpret_cast<const U*>(c.input),
      c.input_strides, static_cast<U>(c.value_bits), c.fill_begin, c.fill_end, {c.stores, c.call_bytes},
      {c.read_gap_bytes, c.read_streams}));
}

}  // namespace

void run_diagonal_matrix(const DiagonalMatrixCall& c) {
  switch (c.element_bytes) {
    case 1: return run_bits<std::uint8_t>(c);
    case 2: return run_bits<std::uint16_t>(c);
    case 4: return run_bits<std::uint32_t>(c);
    default: return run_bits<std::uint64_t>(c);  // 8: validation admits no other size
  }
}

}  // namespace refops::detail::REFOPS_ISA
