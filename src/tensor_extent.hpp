// Arithmetic on tensor descriptions that the validator, calc_buffer_tensor_size and the
// buffer checks share; every result is checked for 64-bit overflow. Inline: execute() runs
// these a few times per tensor on every call.
#pragma once

#include <cstdint>

#include <refops/tensor_desc.hpp>

namespace refops::detail {

// Product of the sizes; 0 when it does not fit in 64 bits (or a size is 0).
inline std::uint64_t element_count(const Dims& sizes) noexcept {
  std::uint64_t n = 1;
  for (std::uint32_t s : sizes)
    if (__builtin_mul_overflow(n, std::uint64_t{s}, &n)) return 0;
  return n;
}

// Bytes from the first addressed byte to the end of the last addressed element, unrounded:
// (last element index + 1) * element size, with the effective strides. 0 when that does not
// fit in 64 bits. The description must have a valid DataType, sizes >= 1 and strides of the
// right count (check_tensor's first rules).
inline std::uint64_t addressed_bytes(const TensorDesc& desc) noexcept {
  std::uint64_t elements;  // the last element's index + 1
  if (desc.strides.empty()) {  // packed: the last index is product - 1, no 32-bit stride to wrap
    elements = element_count(desc.sizes);
    if (elements == 0) return 0;
  } else {
    std::uint64_t last = 0;
    for (std::size_t i = 0; i < desc.sizes.size(); ++i) {
      std::uint64_t term;
      if (__builtin_mul_overflow(std::uint64_t{desc.sizes[i]} - 1, std::uint64_t{desc.strides[i]}, &term) ||
          __builtin_add_overflow(last, term, &last))
        return 0;
    }
    if (__builtin_add_overflow(last, 1, &elements)) return 0;  // last index 2^64 - 1
  }
  std::uint64_t bytes;
  if (__builtin_mul_overflow(elements, std::uint64_t{size_of(desc.data_type)}, &bytes)) return 0;
  return bytes;
}

}  // namespace refops::detail
