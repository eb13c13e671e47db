// ONE_HOT's per-Arch entry point: picks the typed kernel for the index type and the value
// width (values are bit patterns, so 4 x 4 instantiations cover all 4 x 11 type pairs).
#include "arch/arch_config.hpp"

#include <refops/kernels/one_hot.hpp>

#include "ops/one_hot_call.hpp"

namespace refops::detail::REFOPS_ARCH_NS {
namespace {

template <class I, class U>
void run_typed(const OneHotCall& c) {
  const kernels::one_hot_detail::OneHotProblem<I, U> problem{static_cast<const I*>(c.indices),
                                                             c.indices_strides,
                                                             static_cast<U*>(c.output),
                                                             c.output_sizes,
                                                             c.output_strides,
                                                             c.axis,
                                                             static_cast<U>(c.off_bits),
                                                             static_cast<U>(c.on_bits),
                                                             c.wrap_negative,
                                                             {c.stores, 0}};
  kernels::one_hot_detail::one_hot_bits<Arch>(problem);
}

template <class I>
void run_for_index(const OneHotCall& c) {
  switch (c.value_bytes) {
    case 1: return run_typed<I, std::uint8_t>(c);
    case 2: return run_typed<I, std::uint16_t>(c);
    case 4: return run_typed<I, std::uint32_t>(c);
    default: return run_typed<I, std::uint64_t>(c);
  }
}

}  // namespace

void run_one_hot(const OneHotCall& c) {
  switch (c.index_type) {
    case DataType::uint32: return run_for_index<std::uint32_t>(c);
    case DataType::int32: return run_for_index<std::int32_t>(c);
    case DataType::uint64: return run_for_index<std::uint64_t>(c);
    default: return run_for_index<std::int64_t>(c);
  }
}

}  // namespace refops::detail::REFOPS_ARCH_NS
