// ONE_HOT's per-ISA entry point: picks the typed kernel for the index type and the value
// width (values are bit patterns, so 4 x 4 instantiations cover all 4 x 11 type pairs).
#include "arch/arch_config.hpp"

#include <refops/kernels/one_hot.hpp>

#include "ops/one_hot_call.hpp"

namespace refops::detail::REFOPS_ISA {
namespace {

template <class I, class U>
void run_typed(const OneHotCall& c) {
  const kernels::one_hot_detail::OneHotProblem<I, U> problem{.indices = reinterpret_cast<const I*>(c.indices),
                                                     .indices_strides = c.indices_strides,
                                                     .output = reinterpret_cast<U*>(c.output),
                                                     .sizes = c.sizes,
                                                     .output_strides = c.output_strides,
                                                     .axis = c.axis,
                                                     .off = static_cast<U>(c.off_bits),
                                                     .on = static_cast<U>(c.on_bits),
                                                     .wrap_negative = c.wrap_negative,
                                                     .stores = {c.stores, c.call_bytes}};
  kernels::one_hot_detail::one_hot_bits<SimdTarget>(problem);
}

template <class I>
void run_for_index(const OneHotCall& c) {
  switch (c.value_bytes) {
    case 1: return run_typed<I, std::uint8_t>(c);
    case 2: return run_typed<I, std::uint16_t>(c);
    case 4: return run_typed<I, std::uint32_t>(c);
    default: return run_typed<I, std::uint64_t>(c);  // 8: validation admits no other size
  }
}

}  // namespace

void run_one_hot(const OneHotCall& c) {
  switch (c.index_type) {
    case DataType::uint32: return run_for_index<std::uint32_t>(c);
    case DataType::int32: return run_for_index<std::int32_t>(c);
    case DataType::uint64: return run_for_index<std::uint64_t>(c);
    default: return run_for_index<std::int64_t>(c);  // INT64: validation admits no other type
  }
}

}  // namespace refops::detail::REFOPS_ISA
