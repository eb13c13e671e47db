// What the generated HARDMAX1 tests share: drawn values with many ties, a case in words, an input
// filled through its strides, and the bit-exact comparison with the oracle (the whole output
// buffer, padding included) on every path the host has.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <sstream>
#include <string>
#include <vector>

#include <refops/kernels/hardmax_full_width_rows.hpp>
#include <refops/kernels/hardmax_rows.hpp>
#include <refops/kernels/hardmax_rows_in_a_vector.hpp>
#include <refops/refops.hpp>

#include "hardmax_oracle.hpp"
#include "ops/hardmax_tuning.hpp"
#include "support/archs.hpp"
#include "support/buffers.hpp"
#include "support/forced_choice.hpp"
#include "support/catch.hpp"
#include "support/random.hpp"
#include "validation/tensor_rules.hpp"

namespace refops::test {

// Sizes on either side of every vector width (FLOAT16 and FLOAT32, 16 to 64 bytes).
inline constexpr std::uint32_t edge_sizes[] = {1, 2, 3, 7, 8, 9, 15, 16, 17, 31, 32, 33, 63, 64, 65};

inline Buffer oracle(const Hardmax1Desc& desc, const Buffer& input) {
  return hardmax_oracle(desc, input, Buffer::for_tensor(desc.output));
}

// Values with many ties (small integers, both zeros, infinities), denormals and, when asked,
// NaN.
inline double draw(TestRng& rng, double nan_chance) {
  // copysign, not a product: x86 returns a NaN operand of a multiplication unchanged, so
  // NaN * -1 kept the sign bit clear and no negative NaN was ever drawn.
  if (rng.chance(nan_chance)) return std::copysign(std::numeric_limits<double>::quiet_NaN(), rng.chance(0.5) ? 1.0 : -1.0);
  switch (rng.between(0, 8)) {
    case 0: return -0.0;
    case 1: return 0.0;
    case 2: return rng.chance(0.5) ? INFINITY : -INFINITY;
    case 3: case 4: return static_cast<double>(rng.between_signed(-3, 3));
    // A few denormals of FLOAT32 (2^-149: zero in FLOAT16) or of FLOAT16 (2^-24).
    case 5: return std::ldexp(static_cast<double>(rng.between_signed(-3, 3)), rng.chance(0.5) ? -149 : -24);
    default: return static_cast<double>(rng.between_signed(-100000, 100000)) / 64.0;  // rounded when stored
  }
}

inline std::string describe(const Hardmax1Desc& d) {
  std::ostringstream s;
  s << name_of(d.input.data_type) << " sizes " << detail::to_text(d.input.sizes) << " in strides "
    << detail::to_text(d.input.strides) << " out strides " << detail::to_text(d.output.strides) << " axes "
    << detail::to_text(d.axes) << (d.nan_mode == NanMode::propagate ? " propagate" : " ignore");
  return s.str();
}

// Fills the input (every addressed element) with drawn values.
inline Buffer make_input(const TensorDesc& desc, TestRng& rng, double nan_chance, std::size_t misalign) {
  Buffer in = Buffer::for_tensor(desc, misalign);
  for_each_coordinate(desc.sizes, [&](const Dims& c) { store(in, desc, c, draw(rng, nan_chance)); });
  return in;
}

// True when desc reduces its last axis only, in rows of which `rows(row, element bytes)` holds.
template <class Rows>
bool reduces_last_axis_rows(const Hardmax1Desc& desc, Rows rows) {
  const auto last = desc.input.sizes.size() - 1;
  return desc.axes.size() == 1 && desc.axes[0] == last && rows(desc.input.sizes[last], size_of(desc.input.data_type));
}

// Rows whose streamed blocks take the whole-line loop when packed (kernels/hardmax_rows.hpp,
// whole_line_rows), whose prefetch the host decides.
inline bool takes_whole_line_rows(const Hardmax1Desc& desc) {
  return reduces_last_axis_rows(desc, kernels::hardmax_detail::whole_line_rows);
}

// FLOAT32 rows of medium length or longer, or FLOAT32 or FLOAT16 rows of 2, 4, 8 or 16, which
// AVX-512 gives to one of two loops by the host (kernels/hardmax_full_width_rows.hpp,
// full_width_rows and full_width_loop, long rows only on a dense output;
// kernels/hardmax_rows_in_a_vector.hpp, rows_in_a_vector, packed rows only).
inline bool takes_full_width_rows(const Hardmax1Desc& desc) {
  return reduces_last_axis_rows(desc, kernels::hardmax_detail::host_chooses_rows_loop);
}

// Rows that the host reads side by side (kernels/hardmax_rows.hpp, reads_rows_side_by_side):
// FLOAT32 rows of a page or more in AVX-512's full-width loop on a dense output
// (kernels/hardmax_full_width_rows.hpp, side_by_side_rows), and interleaved groups
// (kernels/hardmax_rows.hpp, interleaved_groups).
inline bool takes_rows_side_by_side(const Hardmax1Desc& desc) {
  return reduces_last_axis_rows(desc, kernels::hardmax_detail::side_by_side_rows) ||
         kernels::hardmax_detail::interleaved_groups(desc.input.sizes, desc.axes);
}

// FLOAT32 rows longer than the medium rows' kilobyte, whose zeros AVX-512's full-width loop
// stores beside its reads on a dense output by plain stores, by where the input is
// (kernels/hardmax_full_width_rows.hpp, zeros_beside_rows and zeros_beside_reads).
inline bool takes_rows_zeros_beside(const Hardmax1Desc& desc) {
  return reduces_last_axis_rows(desc, kernels::hardmax_detail::zeros_beside_rows);
}

// Runs desc on every path with every store strategy (forced through ExecuteOptions::stores,
// and chosen per call) and compares the whole output buffer with the oracle's. A kept last
// axis (the columns path) runs again with passes of 2 rows and of 4 (the rule takes one by
// the type, the vector width, the vendor and the size), and again with the next pass
// prefetched, which the rule leaves out for inputs that fit in L2 (these do), and with each
// pass folded to its maximum and row by row (the rule takes one by the instruction set); rows
// that take the whole-line loop run with its prefetch forced each way, FLOAT32 medium and long
// rows and rows of 2 to 16 on each of their two loops, FLOAT32 rows of a page or more and
// interleaved groups read one at a time and side by side (the rules take one by the CPU's
// vendor), and FLOAT32 long rows with their zeros stored beside their reads and with lines
// built a row behind (the rule takes one by where the input is).
inline void check_all_archs(const Hardmax1Desc& desc, const Buffer& input, std::size_t out_misalign = 0) {
  INFO(describe(desc));
  const Buffer expected = oracle(desc, input);
  const auto last = static_cast<std::uint32_t>(desc.input.sizes.size() - 1);
  const bool columns = std::find(desc.axes.begin(), desc.axes.end(), last) == desc.axes.end();
  struct Choice {
    void (*force)(std::size_t);
    std::size_t value;
    const char* name;
  };
  std::vector<Choice> choices{{detail::force_hardmax_pass_rows, 0, "every choice by its rule"}};
  if (columns) {
    choices.push_back({detail::force_hardmax_pass_rows, 2, "rows per pass 2"});
    choices.push_back({detail::force_hardmax_pass_rows, 4, "rows per pass 4"});
    choices.push_back({detail::force_hardmax_columns_prefetch, 2, "columns prefetch the next pass"});
    choices.push_back({detail::force_hardmax_columns_fold, 1, "columns fold each pass to its maximum"});
    choices.push_back({detail::force_hardmax_columns_fold, 2, "columns fold each pass row by row"});
  }
  if (takes_whole_line_rows(desc)) {
    choices.push_back({detail::force_hardmax_line_prefetch, 1, "whole-line blocks never prefetch"});
    choices.push_back({detail::force_hardmax_line_prefetch, 2, "whole-line blocks prefetch"});
  }
  if (takes_full_width_rows(desc)) {
    choices.push_back({detail::force_hardmax_rows_loop, 1, "rows on Rows' loops"});
    choices.push_back({detail::force_hardmax_rows_loop, 2, "rows on the full-width loops"});
  }
  if (takes_rows_side_by_side(desc)) {
    choices.push_back({detail::force_hardmax_rows_side_by_side, 1, "rows read one at a time"});
    choices.push_back({detail::force_hardmax_rows_side_by_side, 2, "rows read side by side"});
  }
  if (takes_rows_zeros_beside(desc)) {
    choices.push_back({detail::force_hardmax_rows_zeros_beside, 1, "long rows' lines built a row behind"});
    choices.push_back({detail::force_hardmax_rows_zeros_beside, 2, "long rows' zeros beside their reads"});
  }
  for (const Choice& choice : choices) {
    INFO(choice.name);
    const ForcedChoice forced(choice.force, choice.value);
    for_each_arch_and_stores([&](const ExecuteOptions& options) {
      Buffer out = Buffer::for_tensor(desc.output, out_misalign);
      execute(desc, input.in(), out.out(), options);
      const bool same = std::memcmp(out.data(), expected.data(), expected.size()) == 0;
      CHECK(same);
      CHECK(out.head_untouched());
    });
  }
}

}  // namespace refops::test
