// value_cast: the one numeric conversion refops uses between element types (SPEC section 3,
// our rule): floating to integer truncates toward zero and saturates, NaN gives 0; integer to
// integer saturates; to FLOAT16 rounds to nearest even; to FLOAT32/FLOAT64 as C++ converts.
#pragma once

#include <cmath>
#include <cstdint>
#include <limits>
#include <type_traits>

#include <refops/data_type.hpp>

namespace refops {

template <class To, class From>
constexpr To value_cast(From x) {
  static_assert(is_element_type_v<To> && is_element_type_v<From>);
  if constexpr (std::is_same_v<From, float16>) {
    return value_cast<To>(static_cast<float>(x));
  } else if constexpr (std::is_same_v<To, float16>) {
    // Eigen::half(float) rounds to nearest even; a double goes through float, which can round
    // twice only for doubles that no float holds.
    return float16(static_cast<float>(x));
  } else if constexpr (std::is_floating_point_v<To>) {
    return static_cast<To>(x);
  } else if constexpr (std::is_floating_point_v<From>) {
    if (std::isnan(x)) return To{0};
    // 2^digits is exact in every floating type; compare before converting, which would be UB.
    constexpr From upper = static_cast<From>(std::numeric_limits<To>::max() / 2 + 1) * From{2};
    constexpr From lower = static_cast<From>(std::numeric_limits<To>::min());
    if (x >= upper) return std::numeric_limits<To>::max();
    if (x <= lower) return std::numeric_limits<To>::min();
    return static_cast<To>(x);  // in range after truncation toward zero
  } else {  // integer to integer
    using Wide = std::conditional_t<std::is_signed_v<From> && std::is_signed_v<To>, std::int64_t,
                                    std::uint64_t>;
    if constexpr (std::is_signed_v<From> && !std::is_signed_v<To>) {
      if (x < 0) return To{0};
    }
    if constexpr (!std::is_signed_v<From> && std::is_signed_v<To>) {
      if (static_cast<std::uint64_t>(x) > static_cast<std::uint64_t>(std::numeric_limits<To>::max()))
        return std::numeric_limits<To>::max();
      return static_cast<To>(x);
    }
    if (static_cast<Wide>(x) > static_cast<Wide>(std::numeric_limits<To>::max()))
      return std::numeric_limits<To>::max();
    if constexpr (std::is_signed_v<To>) {
      if (static_cast<Wide>(x) < static_cast<Wide>(std::numeric_limits<To>::min()))
        return std::numeric_limits<To>::min();
    }
    return static_cast<To>(x);
  }
}

}  // namespace refops
