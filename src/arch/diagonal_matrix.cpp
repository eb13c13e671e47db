// The DIAGONAL_MATRIX(1) band kernel for this compilation's Arch, instantiated once per
// element size (the kernel moves bit patterns; the 11 types share 4 instantiations).
#include "arch/arch_config.hpp"

#include <refops/kernels/diagonal_matrix.hpp>

#include "ops/diagonal_matrix_call.hpp"

namespace refops::detail::REFOPS_ARCH_NS {
namespace {
template <class U>
void run_bits(const DiagonalMatrixCall& call) {
  namespace kernel = kernels::diagonal_matrix_detail;
  kernel::diagonal_band_bits<Arch>(kernel::make_band_problem(
      reinterpret_cast<U*>(call.output), call.sizes, call.output_strides, reinterpret_cast<const U*>(call.input),
      call.input_strides, static_cast<U>(call.value_bits), call.fill_begin, call.fill_end, {call.stores, 0}));
}
}  // namespace

void run_diagonal_matrix(const DiagonalMatrixCall& call) {
  switch (call.element_bytes) {
    case 1: run_bits<std::uint8_t>(call); return;
    case 2: run_bits<std::uint16_t>(call); return;
    case 4: run_bits<std::uint32_t>(call); return;
    default: run_bits<std::uint64_t>(call); return;
  }
}

}  // namespace refops::detail::REFOPS_ARCH_NS
