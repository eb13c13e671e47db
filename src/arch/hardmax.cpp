// HARDMAX(1)'s per-ISA entry point: the typed kernel for the call's element type (the two the
// feature-level tables admit; the kernel header also serves FLOAT64 to header-only users), for
// a whole call or one phase of a block of a two-phase split (HardmaxCall::phase).
#include "arch/arch_config.hpp"

#include <refops/kernels/hardmax.hpp>
#include <refops/kernels/hardmax_two_phase.hpp>

#include "ops/hardmax_call.hpp"
#include "ops/hardmax_tuning.hpp"

namespace refops::detail::REFOPS_ISA {
namespace {

template <class T>
void run_typed(const HardmaxCall& c) {
  const auto input = make_view(reinterpret_cast<const T*>(c.input), c.sizes, c.input_strides);
  const auto output = make_view(reinterpret_cast<T*>(c.output), c.sizes, c.output_strides);
  namespace k = kernels::hardmax_detail;
  switch (c.phase) {
    case HardmaxPhase::whole:
      return k::run<SimdTarget, T>(input, output, c.axes, c.nan_mode, {c.stores, c.call_bytes}, c.pass_rows);
    case HardmaxPhase::reduce:
      return k::reduce_block<SimdTarget, T>(input, output, c.axes, c.nan_mode, c.first_position, c.keys, c.positions,
                                            c.call_bytes, c.pass_rows);
    case HardmaxPhase::write:
      return k::write_block<SimdTarget, T>(input, output, c.axes, c.first_position, c.positions,
                                           {c.stores, c.call_bytes});
  }
}

}  // namespace

void force_columns_prefetch(std::size_t choice) {
  kernels::hardmax_detail::forced_columns_prefetch.store(choice, std::memory_order_relaxed);
}

void force_columns_fold(std::size_t choice) {
  kernels::hardmax_detail::forced_columns_fold.store(choice, std::memory_order_relaxed);
}

void force_line_prefetch(std::size_t choice) {
  kernels::hardmax_detail::forced_line_prefetch.store(choice, std::memory_order_relaxed);
}

void force_rows_loop(std::size_t choice) {
  kernels::hardmax_detail::forced_rows_loop.store(choice, std::memory_order_relaxed);
}

void force_rows_side_by_side(std::size_t choice) {
  kernels::hardmax_detail::forced_rows_side_by_side.store(choice, std::memory_order_relaxed);
}

void force_rows_zeros_beside(std::size_t choice) {
  kernels::hardmax_detail::forced_rows_zeros_beside.store(choice, std::memory_order_relaxed);
}

void run_hardmax(const HardmaxCall& c) {
  switch (c.type) {
    case HardmaxType::float32: return run_typed<float>(c);
    case HardmaxType::float16: return run_typed<float16>(c);
  }
}

}  // namespace refops::detail::REFOPS_ISA
