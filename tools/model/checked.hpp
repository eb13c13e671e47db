// 64-bit products that report overflow instead of wrapping (sizes read from files and models).
#pragma once

#include <cstdint>
#include <optional>

namespace refops::model {

inline std::optional<std::uint64_t> checked_product(std::uint64_t a, std::uint64_t b) {
  std::uint64_t out;
  if (__builtin_mul_overflow(a, b, &out)) return std::nullopt;
  return out;
}

}  // namespace refops::model
