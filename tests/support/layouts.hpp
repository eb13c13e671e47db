// Generated layouts (../shared/DESIGN.md, habit 8): for given sizes, the strides of a packed, padded,
// transposed or broadcast tensor.
#pragma once

#include <algorithm>
#include <numeric>
#include <string>
#include <vector>

#include <refops/dims.hpp>

#include "support/random.hpp"

namespace refops::test {

enum class Layout { packed, padded, transposed, broadcast };
inline const char* name_of(Layout l) {
  switch (l) {
    case Layout::packed: return "packed";
    case Layout::padded: return "padded";
    case Layout::transposed: return "transposed";
    case Layout::broadcast: return "broadcast";
  }
  return "?";
}
inline constexpr Layout output_layouts[] = {Layout::packed, Layout::padded, Layout::transposed};
inline constexpr Layout input_layouts[] = {Layout::packed, Layout::padded, Layout::transposed,
                                           Layout::broadcast};

// Strides for `sizes`: packed is empty (the description's default); padded nests the
// dimensions row-major, the fastest with stride 1, with 0-3 elements of padding after each
// row; transposed nests them in a random order (padded a little at random); broadcast is padded with stride 0 on some dimensions
// (only valid for inputs). All but broadcast address each element once.
inline Dims make_strides(const Dims& sizes, Layout layout, TestRng& rng) {
  if (layout == Layout::packed) return {};
  std::vector<std::size_t> order(sizes.size());
  std::iota(order.begin(), order.end(), std::size_t{0});
  if (layout == Layout::transposed)
    for (std::size_t i = order.size(); i > 1; --i) std::swap(order[i - 1], order[rng.between(0, i - 1)]);
  Dims strides = sizes;
  std::uint64_t step = 1;
  for (std::size_t k = order.size(); k-- > 0;) {  // order.back() is fastest
    const std::size_t d = order[k];
    strides[d] = static_cast<std::uint32_t>(step);
    step = step * sizes[d] + (layout == Layout::transposed ? rng.between(0, 1) : rng.between(0, 3));
  }
  if (layout == Layout::broadcast)
    for (std::size_t d = 0; d < sizes.size(); ++d)
      if (rng.chance(0.4)) strides[d] = 0;
  return strides;
}

}  // namespace refops::test
