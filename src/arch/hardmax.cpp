// HARDMAX1's per-Arch entry point: the typed kernel for the call's data type.
#include "arch/arch_config.hpp"

#include <refops/kernels/hardmax.hpp>
#include <refops/tensor_desc.hpp>

#include "ops/hardmax_call.hpp"

namespace refops::detail::REFOPS_ARCH_NS {
namespace {
template <class T>
void run(const HardmaxCall& call) {
  const auto input = make_view(reinterpret_cast<const T*>(call.input_data), call.input.sizes,
                               effective_strides(call.input));
  const auto output = make_view(reinterpret_cast<T*>(call.output_data), call.output.sizes,
                                effective_strides(call.output));
  kernels::hardmax_detail::run<Arch, T>(input, output, call.axes, call.nan_mode);
}
}  // namespace

void hardmax(const HardmaxCall& call) {
  switch (call.input.data_type) {
    case DataType::float32: return run<float>(call);
    case DataType::float16: return run<float16>(call);
    case DataType::float64: return run<double>(call);
    default: break;  // validation admits FLOAT32 and FLOAT16 only
  }
}

}  // namespace refops::detail::REFOPS_ARCH_NS
