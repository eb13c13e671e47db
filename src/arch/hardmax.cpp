// HARDMAX(1)'s per-ISA entry point: the typed kernel for the call's element type (the two the
// feature-level tables admit; the kernel header also serves FLOAT64 to header-only users).
#include "arch/arch_config.hpp"

#include <refops/kernels/hardmax.hpp>

#include "ops/hardmax_call.hpp"

namespace refops::detail::REFOPS_ISA {
namespace {

template <class T>
void run_typed(const HardmaxCall& c) {
  const auto input = make_view(reinterpret_cast<const T*>(c.input), c.sizes, c.input_strides);
  const auto output = make_view(reinterpret_cast<T*>(c.output), c.sizes, c.output_strides);
  kernels::hardmax_detail::run<SimdTarget, T>(input, output, c.axes, c.nan_mode, {c.stores, c.call_bytes});
}

}  // namespace

void run_hardmax(const HardmaxCall& c) {
  switch (c.type) {
    case HardmaxType::float32: return run_typed<float>(c);
    case HardmaxType::float16: return run_typed<float16>(c);
  }
}

}  // namespace refops::detail::REFOPS_ISA
