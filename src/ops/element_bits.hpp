// The bit pattern of one element, as the kernels take OffValue, OnValue and Value: in the low
// bytes of a 64-bit word (the kernels move bit patterns, so -0.0 and NaN payloads survive).
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>

#include <refops/data_type.hpp>
#include <refops/scalar.hpp>
#include <refops/kernels/simd.hpp>

namespace refops::detail {

// The element of type `type` at p (any alignment); `type` must be valid.
inline std::uint64_t element_bits(const std::byte* p, DataType type) {
  return visit_data_type(type, [&](auto tag) -> std::uint64_t {
    decltype(tag) value;
    std::memcpy(&value, p, sizeof value);
    return simd::to_bits(value);
  });
}

// A Scalar's value in its own type.
inline std::uint64_t element_bits(const Scalar& s) { return element_bits(s.union_bytes().data(), s.type()); }

}  // namespace refops::detail
