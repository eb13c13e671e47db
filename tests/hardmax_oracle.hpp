// The HARDMAX1 oracle of the tests and the fuzz target: a dense loop over coordinates that
// groups elements by their kept coordinates (std::map), deliberately simpler than the kernels.
#pragma once

#include <cmath>
#include <cstring>
#include <limits>
#include <map>
#include <vector>

#include <refops/refops.hpp>

#include "support/buffers.hpp"

namespace refops::test {

inline double as_double(const Buffer& b, const TensorDesc& d, const Dims& c) {
  if (d.data_type == DataType::float16) return static_cast<double>(static_cast<float>(get<float16>(b, d, c)));
  if (d.data_type == DataType::float64) return get<double>(b, d, c);
  return static_cast<double>(get<float>(b, d, c));
}

inline void store(Buffer& b, const TensorDesc& d, const Dims& c, double v) {
  if (d.data_type == DataType::float16) set<float16>(b, d, c, float16(static_cast<float>(v)));
  else if (d.data_type == DataType::float64) set<double>(b, d, c, v);
  else set<float>(b, d, c, static_cast<float>(v));
}

// The oracle: move the reduced axes last (collect each group's values in row-major order of
// the reduced axes, increasing dimension order), then take the first maximum as SPEC states
// it: under propagate the first NaN if there is one; otherwise the first value equal to the
// largest number; an all-NaN group (ignore) gives its first element. `output` is the
// sentinel-filled buffer the kernel gets; returns what it must become (padding kept).
inline Buffer hardmax_oracle(const Hardmax1Desc& desc, const Buffer& input, const Buffer& output) {
  bool reduced[8] = {};
  for (std::uint32_t a : desc.axes) reduced[a] = true;
  std::map<std::vector<std::uint32_t>, std::vector<Dims>> groups;  // kept coordinate -> members
  for_each_coordinate(desc.input.sizes, [&](const Dims& c) {
    std::vector<std::uint32_t> kept;
    for (std::size_t d = 0; d < c.size(); ++d) kept.push_back(reduced[d] ? 0u : c[d]);
    groups[kept].push_back(c);  // for_each_coordinate is row-major: members arrive in order
  });
  Buffer out(output.size());
  std::memcpy(out.data(), output.data(), output.size());
  for (auto& [kept, members] : groups) {
    std::vector<double> v;
    for (const Dims& c : members) v.push_back(as_double(input, desc.input, c));
    std::size_t winner = members.size();
    if (desc.nan_mode == NanMode::propagate)
      for (std::size_t i = 0; i < v.size() && winner == v.size(); ++i)
        if (std::isnan(v[i])) winner = i;
    if (winner == v.size()) {
      double m = -std::numeric_limits<double>::infinity();
      bool any = false;
      for (double x : v)
        if (!std::isnan(x)) { m = any ? std::max(m, x) : x; any = true; }
      winner = 0;
      if (any)
        for (std::size_t i = 0; i < v.size(); ++i)
          if (v[i] == m) { winner = i; break; }
    }
    for (std::size_t i = 0; i < members.size(); ++i) store(out, desc.output, members[i], i == winner ? 1.0 : 0.0);
  }
  return out;
}

}  // namespace refops::test
