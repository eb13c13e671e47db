// Arithmetic on tensor descriptions that the validator, calc_buffer_tensor_size and the
// buffer checks share; every result is checked for 64-bit overflow.
#pragma once

#include <cstdint>
#include <optional>

#include <refops/tensor_desc.hpp>

namespace refops::detail {

// Product of the sizes; nullopt on overflow.
std::optional<std::uint64_t> element_count(const Dims& sizes);

// Index (in elements) of the last addressed element: sum((sizes[i]-1) * strides[i]) with the
// effective strides; nullopt on overflow. Sizes must be >= 1 and strides count right.
std::optional<std::uint64_t> last_element_index(const TensorDesc&);

// Bytes from the first addressed byte to the end of the last addressed element, unrounded:
// what a buffer must hold. nullopt on overflow.
std::optional<std::uint64_t> addressed_bytes(const TensorDesc&);

}  // namespace refops::detail
