#include <refops/tensor_desc.hpp>

#include <string>

#include <refops/diagnostics.hpp>

#include "tensor_extent.hpp"

namespace refops {
namespace detail {

std::optional<std::uint64_t> element_count(const Dims& sizes) {
  std::uint64_t n = 1;
  for (std::uint32_t s : sizes)
    if (__builtin_mul_overflow(n, std::uint64_t{s}, &n)) return std::nullopt;
  return n;
}

std::optional<std::uint64_t> last_element_index(const TensorDesc& desc) {
  if (desc.strides.empty()) {  // packed: computed from the sizes, so no 32-bit stride can wrap
    auto n = element_count(desc.sizes);
    if (!n) return std::nullopt;
    return *n - 1;
  }
  const Dims& strides = desc.strides;
  std::uint64_t last = 0;
  for (std::size_t i = 0; i < desc.sizes.size(); ++i) {
    std::uint64_t term;
    if (__builtin_mul_overflow(std::uint64_t{desc.sizes[i]} - 1, std::uint64_t{strides[i]}, &term) ||
        __builtin_add_overflow(last, term, &last))
      return std::nullopt;
  }
  return last;
}

std::optional<std::uint64_t> addressed_bytes(const TensorDesc& desc) {
  auto last = last_element_index(desc);
  std::uint64_t bytes;
  if (!last || __builtin_mul_overflow(*last + 1, std::uint64_t{size_of(desc.data_type)}, &bytes))
    return std::nullopt;
  return bytes;
}

}  // namespace detail

Dims packed_strides(const Dims& sizes) {
  Dims strides = sizes;
  std::uint64_t step = 1;
  for (std::size_t i = sizes.size(); i-- > 0;) {
    strides[i] = static_cast<std::uint32_t>(step);
    step *= sizes[i];
  }
  return strides;
}

Dims effective_strides(const TensorDesc& desc) {
  return desc.strides.empty() ? packed_strides(desc.sizes) : desc.strides;
}

std::uint64_t calc_buffer_tensor_size(const TensorDesc& desc) {
  auto fail = [](std::string field, std::string message) {
    throw Error({{std::move(field), std::move(message)}});
  };
  if (!is_valid(desc.data_type))
    fail("DataType", std::to_string(static_cast<std::uint32_t>(desc.data_type)) +
                         " is not a DML_TENSOR_DATA_TYPE: no element size");
  if (desc.sizes.empty()) fail("DimensionCount", "expected at least 1 dimension, found 0");
  for (std::size_t i = 0; i < desc.sizes.size(); ++i)
    if (desc.sizes[i] == 0)
      fail("Sizes[" + std::to_string(i) + "]", "expected a size of at least 1, found 0");
  if (!desc.strides.empty() && desc.strides.size() != desc.sizes.size())
    fail("Strides", "expected " + std::to_string(desc.sizes.size()) +
                        " strides (one per dimension), found " + std::to_string(desc.strides.size()));
  // Packed: product(sizes) * element size. Strided: (last index + 1) * element size. Both are
  // (last index + 1) * element size, since packed strides make the last index product - 1.
  auto bytes = detail::addressed_bytes(desc);
  if (!bytes || *bytes > UINT64_MAX - 3)
    fail(desc.strides.empty() ? "Sizes" : "Strides",
         "the buffer size does not fit in 64 bits (DirectML's helper would wrap here)");
  return (*bytes + 3) & ~std::uint64_t{3};
}

}  // namespace refops
