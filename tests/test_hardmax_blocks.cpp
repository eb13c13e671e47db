// HARDMAX1 on the shapes of the block paths, bit-exact against the oracle on every path:
// short rows reduced a block of rows at a time (hardmax_rows.hpp, "short rows"), and groups
// whose rows are interleaved with kept dimensions ("interleaved groups"). Row lengths and row
// counts sit on either side of every vector width and block size; every block mixes rows of
// different kinds (ties, +-0, NaN first, in the middle or last, all NaN), so branch-free
// per-row logic sees its neighbours differ. And the typed layer (kernels::hardmax) against the
// oracle and execute().
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <optional>
#include <span>
#include <string_view>
#include <vector>

#include <refops/refops.hpp>

#include "hardmax_cases.hpp"
#include "support/layouts.hpp"

using namespace refops;
using namespace refops::test;

namespace {

const double nan = std::numeric_limits<double>::quiet_NaN();

// One row of n values of a drawn kind; never all zero.
std::vector<double> draw_row(TestRng& rng, std::uint32_t n) {
  std::vector<double> v(n);
  const std::uint32_t p = static_cast<std::uint32_t>(rng.between(0, n - 1));
  const std::uint32_t nan_at[] = {0, n / 2, n - 1};  // first, middle, last
  switch (rng.between(0, 6)) {
    case 0:  // small integers: many ties, the first of them wins
      for (double& x : v) x = static_cast<double>(rng.between_signed(1, 3)) * (rng.chance(0.5) ? 1 : -1);
      break;
    case 1:  // a maximum at p and ties after it
      for (std::uint32_t i = 0; i < n; ++i) v[i] = i == p || (i > p && rng.chance(0.2)) ? 1000.0 : -static_cast<double>(i + 1);
      break;
    case 2:  // +-0 the largest, from p on, the rest negative: the first zero of either sign wins
      for (std::uint32_t i = 0; i < n; ++i) v[i] = i >= p && (i == p || rng.chance(0.5)) ? (rng.chance(0.5) ? -0.0 : 0.0) : -1.0 - i;
      break;
    case 3: {  // a NaN first, in the middle or last (maybe another after it), infinities around
      const std::uint32_t at = nan_at[rng.between(0, 2)];
      for (std::uint32_t i = 0; i < n; ++i)
        v[i] = i == at || (i > at && rng.chance(0.1)) ? std::copysign(nan, rng.chance(0.5) ? 1.0 : -1.0)
               : rng.chance(0.2)                      ? -INFINITY
                                                      : static_cast<double>(rng.between_signed(-5, 5)) + 0.5;
      break;
    }
    case 4:  // all NaN, both signs
      for (double& x : v) x = rng.chance(0.5) ? nan : -nan;
      break;
    case 5:  // NaN then -inf: under ignore, the first number displaces the leading NaN
      for (std::uint32_t i = 0; i < n; ++i) v[i] = i < p ? nan : -INFINITY;
      break;
    default:  // spread values with some ties and NaN
      for (double& x : v) {
        x = draw(rng, 0.05);
        if (x == 0.0) x = 0.25;  // keep zeros to the kinds above
      }
      break;
  }
  return v;
}

// One row whose maximum is mostly a positive number, with ties (halves from -8 to 7.5), as the
// raw-bit path for blocks of short rows wants from every row of a block; one row in ten gets
// what must turn that path aside: a NaN of either sign among the positives, +inf, a maximum of
// +-0 (either sign first), or no number above zero.
std::vector<double> draw_positive_row(TestRng& rng, std::uint32_t n) {
  std::vector<double> v(n);
  for (double& x : v) x = static_cast<double>(rng.between_signed(-16, 15)) * 0.5;
  const auto at = [&] { return static_cast<std::uint32_t>(rng.between(0, n - 1)); };
  const std::uint32_t p = at();
  v[p] = std::max(v[p], 0.5 * static_cast<double>(rng.between(1, 16)));
  if (!rng.chance(0.1)) return v;
  switch (rng.between(0, 4)) {
    case 0: v[at()] = -nan; break;
    case 1: v[at()] = nan; break;
    case 2: v[at()] = INFINITY; break;
    case 3:  // +-0 the largest: the first zero of either sign wins
      for (double& x : v) x = -std::abs(x) - 0.5;
      v[p] = rng.chance(0.5) ? 0.0 : -0.0;
      v[at()] = rng.chance(0.5) ? 0.0 : -0.0;
      break;
    default:
      for (double& x : v) x = -std::abs(x) - 0.5;
      break;
  }
  return v;
}

// One row of negative numbers, as log-probabilities are (halves from -8 to -0.5 with ties,
// some -inf, sometimes -0.0 the largest, tied), which the raw-bit path for blocks of short rows
// takes by their smallest bits; one row in ten gets what must turn that path aside: a NaN of
// either sign, +0.0 (tied with a -0.0 before it or not), or a positive number.
std::vector<double> draw_negative_row(TestRng& rng, std::uint32_t n) {
  std::vector<double> v(n);
  for (double& x : v) x = rng.chance(0.1) ? -INFINITY : -0.5 * static_cast<double>(rng.between(1, 16));
  const auto at = [&] { return static_cast<std::uint32_t>(rng.between(0, n - 1)); };
  if (rng.chance(0.2)) v[at()] = -0.0, v[at()] = -0.0;
  if (!rng.chance(0.1)) return v;
  switch (rng.between(0, 3)) {
    case 0: v[at()] = -nan; break;
    case 1: v[at()] = nan; break;
    case 2: v[at()] = 0.0; break;
    default: v[at()] = 0.5 * static_cast<double>(rng.between(1, 16)); break;
  }
  return v;
}

// One row of distinct quarters in a random order, half of them negative (or, when `negative`,
// all), so its maximum is in it once: the raw-bit blocks of short rows then write each row by
// compares with its maximum, no position (AVX2, hardmax_rows.hpp). One row in 40 repeats its
// maximum later on, which sends its block to positions, and the blocks after it for a while.
std::vector<double> draw_distinct_row(TestRng& rng, std::uint32_t n, bool negative) {
  std::vector<double> v(n);
  for (std::uint32_t i = 0; i < n; ++i) v[i] = 0.25 * (i + 1) - (negative ? 0.25 * (n + 1) : 0.125 * n);
  for (std::uint32_t i = n; i > 1; --i) std::swap(v[i - 1], v[rng.between(0, i - 1)]);
  if (n > 1 && rng.chance(1.0 / 40)) {
    const auto top = static_cast<std::uint32_t>(std::max_element(v.begin(), v.end() - 1) - v.begin());
    v[rng.between(top + 1, n - 1)] = v[top];
  }
  return v;
}
std::vector<double> draw_distinct_positive_row(TestRng& rng, std::uint32_t n) { return draw_distinct_row(rng, n, false); }
std::vector<double> draw_distinct_negative_row(TestRng& rng, std::uint32_t n) { return draw_distinct_row(rng, n, true); }

// An input for `desc` whose rows (along the last dimension) are drawn one by one.
template <class DrawRow = decltype(&draw_row)>
Buffer make_rows(const TensorDesc& desc, TestRng& rng, std::size_t misalign, DrawRow draw = &draw_row) {
  Buffer in = Buffer::for_tensor(desc, misalign);
  const std::size_t last = desc.sizes.size() - 1;
  Dims outer = desc.sizes;
  outer[last] = 1;
  for_each_coordinate(outer, [&](const Dims& c) {
    const std::vector<double> row = draw(rng, desc.sizes[last]);
    Dims at = c;
    for (std::uint32_t i = 0; i < desc.sizes[last]; ++i) {
      at[last] = i;
      store(in, desc, at, row[i]);
    }
  });
  return in;
}

// An input for `desc` whose groups over `axes` are drawn one by one (each a draw_row of the
// group's size, laid out row-major over the reduced dimensions): every group of a columns tile
// is of its own kind.
Buffer make_groups(const TensorDesc& desc, const Dims& axes, TestRng& rng, std::size_t misalign) {
  Buffer in = Buffer::for_tensor(desc, misalign);
  Dims kept = desc.sizes, reduced;
  for (std::uint32_t a : axes) kept[a] = 1;
  for (std::size_t d = 0; d < desc.sizes.size(); ++d) reduced.push_back(kept[d] == 1 ? desc.sizes[d] : 1);
  std::uint32_t group_size = 1;
  for (std::uint32_t s : reduced) group_size *= s;
  for_each_coordinate(kept, [&](const Dims& k) {
    const std::vector<double> values = draw_row(rng, group_size);
    std::size_t i = 0;
    for_each_coordinate(reduced, [&](const Dims& r) {
      Dims at = k;
      for (std::size_t d = 0; d < at.size(); ++d) at[d] += r[d];
      store(in, desc, at, values[i++]);
    });
  });
  return in;
}

// Packed or padded (rows stay contiguous, so the row paths are taken).
Dims row_layout(const Dims& sizes, TestRng& rng) {
  return make_strides(sizes, rng.chance(0.5) ? Layout::packed : Layout::padded, rng);
}

struct Shape {
  Dims sizes;
  Dims axes;
};

// Each shape in both types and both NaN modes, packed or padded, misaligned by up to three
// elements, its input made by make_input(desc, rng, misalign).
template <class MakeInput>
void check_shapes(std::span<const Shape> shapes, TestRng& rng, MakeInput&& make_input) {
  for (const Shape& shape : shapes) {
    for (DataType type : {DataType::float32, DataType::float16}) {
      for (NanMode mode : {NanMode::propagate, NanMode::ignore}) {
        Hardmax1Desc desc{{type, shape.sizes, {}, 0}, {type, shape.sizes, {}, 0}, shape.axes, mode};
        desc.input.strides = row_layout(shape.sizes, rng);
        desc.output.strides = row_layout(shape.sizes, rng);
        const std::size_t element = size_of(type);
        check_all_archs(desc, make_input(desc, rng, element * rng.between(0, 3)), element * rng.between(0, 3));
      }
    }
  }
}

// Runs of rows of each length (the last dimension reduced), a count from `counts` rows per run,
// in both types and both NaN modes, misaligned by up to three elements; the output also by 16
// bytes or not (on the 16-byte grid but off the vector grid: NumPy's arrays, which stream short
// rows in 16-byte pieces). In propagate mode input and output are packed (rows that touch take
// loops of their own: constant steps), in ignore mode each is packed or padded.
void check_short_rows(TestRng& rng, std::span<const std::uint32_t> lengths, std::span<const std::uint32_t> counts,
                      std::vector<double> (*draw)(TestRng&, std::uint32_t)) {
  for (DataType type : {DataType::float32, DataType::float16}) {
    for (std::uint32_t n : lengths) {
      for (NanMode mode : {NanMode::propagate, NanMode::ignore}) {
        const Dims sizes{static_cast<std::uint32_t>(rng.between(1, 3)), counts[rng.between(0, counts.size() - 1)], n};
        Hardmax1Desc desc{{type, sizes, {}, 0}, {type, sizes, {}, 0}, {2}, mode};
        const bool packed = mode == NanMode::propagate;
        desc.input.strides = packed ? make_strides(sizes, Layout::packed, rng) : row_layout(sizes, rng);
        desc.output.strides = packed ? make_strides(sizes, Layout::packed, rng) : row_layout(sizes, rng);
        const std::size_t element = size_of(type);
        check_all_archs(desc, make_rows(desc.input, rng, element * rng.between(0, 3), draw),
                        element * rng.between(0, 3) + 16 * rng.between(0, 1));
      }
    }
  }
}

}  // namespace

TEST_CASE("HARDMAX1 short rows reduced a block at a time match the oracle", "[hardmax][generated]") {
  REFOPS_TEST_RNG(rng);
  std::vector<std::uint32_t> lengths;
  // Every length to just past eight AVX2 FLOAT32 vectors (the longest short rows), then
  // lengths around eight vectors of 16 lanes (FLOAT16 on AVX2), then medium rows up to and
  // past a block (256 FLOAT32, 512 FLOAT16: the longest medium rows).
  for (std::uint32_t n = 1; n <= 66; ++n) lengths.push_back(n);
  for (std::uint32_t n : {80u, 96u, 100u, 127u, 128u, 129u, 250u, 255u, 256u, 257u, 511u, 512u, 513u})
    lengths.push_back(n);
  // Rows per run: around blocks of 4, 8, 16 and 32 rows (the lane counts).
  const std::uint32_t counts[] = {1, 3, 4, 5, 7, 8, 9, 15, 16, 17, 31, 32, 33, 47};
  check_short_rows(rng, lengths, counts, &draw_row);
}

TEST_CASE("HARDMAX1 blocks of short rows with positive maxima (raw bits) match the oracle", "[hardmax][generated]") {
  // Blocks of 8 rows whose every maximum is a positive number take raw bits, no keys (AVX2:
  // FLOAT32 rows of up to 64, FLOAT16 rows of up to 32; FLOAT32's odd lengths and FLOAT16's rows
  // of 20, 24 and 28 each a loop of their own, other FLOAT16 lengths one loop with a variable
  // length); a block with a NaN, +-0 or no positive maximum in any row must step aside.
  REFOPS_TEST_RNG(rng);
  const std::uint32_t lengths[] = {8,  9,  10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23,
                                   24, 25, 26, 27, 28, 29, 30, 31, 32, 33, 36, 40, 48, 57, 63, 64};
  const std::uint32_t counts[] = {8, 16, 17, 33, 47, 64};
  check_short_rows(rng, lengths, counts, &draw_positive_row);
}

TEST_CASE("HARDMAX1 blocks of short rows of negative numbers (raw bits) match the oracle", "[hardmax][generated]") {
  // Blocks whose every element is a negative number (no +0.0, no NaN) take raw bits too, each
  // row's maximum its smallest bits (AVX2); any other block must step aside.
  REFOPS_TEST_RNG(rng);
  const std::uint32_t lengths[] = {8,  9,  10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23,
                                   24, 25, 26, 27, 28, 29, 30, 31, 32, 33, 36, 40, 48, 57, 63, 64};
  const std::uint32_t counts[] = {8, 16, 17, 33, 47, 64};
  check_short_rows(rng, lengths, counts, &draw_negative_row);
}

TEST_CASE("HARDMAX1 blocks of short rows whose maxima occur once (written by compares) match the oracle",
          "[hardmax][generated]") {
  // Rows of one to four vectors (AVX2: FLOAT32 rows of 8 to 32, FLOAT16 of 16 to 32) whose
  // blocks hold no tie are written by compares; a tie sends the block, and from one to 64
  // blocks after it, to positions, and then the compares are tried again: runs of up to 600
  // rows see all three.
  REFOPS_TEST_RNG(rng);
  const std::uint32_t lengths[] = {7, 8, 9, 10, 12, 15, 16, 17, 20, 24, 28, 31, 32, 33};
  const std::uint32_t counts[] = {8, 17, 64, 200};
  check_short_rows(rng, lengths, counts, &draw_distinct_positive_row);
  check_short_rows(rng, lengths, counts, &draw_distinct_negative_row);
}

TEST_CASE("HARDMAX1 with kept dimensions between reduced ones matches the oracle", "[hardmax][generated]") {
  REFOPS_TEST_RNG(rng);
  // Reduced dimensions (R) interleaved with kept ones (K); the last is the row.
  struct Shape { const char* roles; };
  const Shape shapes[] = {{"RKR"}, {"RKRR"}, {"RKKR"}, {"KRKR"}, {"RRKR"}, {"KRKRR"}, {"RKRKR"}};
  const std::uint32_t row_lengths[] = {1, 3, 8, 15, 16, 17, 33, 64, 255, 257, 600};
  for (const Shape& shape : shapes) {
    for (DataType type : {DataType::float32, DataType::float16}) {
      for (int repeat = 0; repeat < 4; ++repeat) {
        const std::size_t rank = std::char_traits<char>::length(shape.roles);
        Dims sizes, axes;
        std::uint64_t reduced = 1, elements = 1;
        for (std::uint32_t d = 0; d < rank; ++d) {
          const bool is_row = d + 1 == rank;
          std::uint32_t s = is_row ? row_lengths[rng.between(0, std::size(row_lengths) - 1)]
                                   : static_cast<std::uint32_t>(rng.between(2, 6));
          if (!is_row && elements * s * 600 > 60000) s = 2;
          sizes.push_back(s);
          elements *= s;
          if (shape.roles[d] == 'R') {
            axes.push_back(d);
            reduced *= s;
          }
        }
        // Groups of at least 64 elements, so the state of the interleaved path is small
        // next to the output and that path is taken; smaller ones check the fallback.
        if (repeat < 3 && reduced < 64) sizes[0] = static_cast<std::uint32_t>(sizes[0] * ((64 + reduced - 1) / reduced));
        const NanMode mode = repeat % 2 == 0 ? NanMode::propagate : NanMode::ignore;
        Hardmax1Desc desc{{type, sizes, {}, 0}, {type, sizes, {}, 0}, axes, mode};
        desc.input.strides = make_strides(sizes, input_layouts[rng.between(0, 2)], rng);
        desc.output.strides = row_layout(sizes, rng);
        const std::size_t element = size_of(type);
        check_all_archs(desc, make_rows(desc.input, rng, element * rng.between(0, 3)), element * rng.between(0, 3));
      }
    }
  }
}

TEST_CASE("HARDMAX1 interleaved groups taken a chunk of groups at a time match the oracle", "[hardmax][generated]") {
  // More groups than the interleaved path keeps at once (1024, on the stack): chunks of the
  // outermost kept dimension that fits, with kept dimensions outside it looped around them.
  REFOPS_TEST_RNG(rng);
  const Shape shapes[] = {
      {{4, 1100, 16}, {0, 2}},         // one kept dimension in chunks of 1024 and 76
      {{4, 40, 3, 30, 16}, {0, 2, 4}}, // chunks of 34 x 30 groups
      {{2, 3, 1100, 32}, {1, 3}},      // a kept dimension outside the chunked one
  };
  check_shapes(shapes, rng, [](const Hardmax1Desc& desc, TestRng& r, std::size_t misalign) {
    return make_rows(desc.input, r, misalign);
  });
}

TEST_CASE("HARDMAX1 interleaved groups read side by side: every part length, the groups the parts leave", "[hardmax][generated]") {
  // Where the host reads rows side by side (kernels/hardmax_rows.hpp, reads_rows_side_by_side),
  // the interleaved path walks its innermost kept dimension as 4 parts side by side (from 8
  // groups on), then the groups the parts leave. Kept lengths on either side of whole parts,
  // with 1 to 3 left; the kept dimension innermost or with another kept one outside it; ties
  // between rows of a group (small integers), NaNs and infinities in some rows, and the row
  // that wins in any part.
  static_assert(kernels::hardmax_detail::rows_read_at_once == 4, "the kept lengths below straddle parts of 4");
  REFOPS_TEST_RNG(rng);
  for (std::uint32_t kept : {8u, 9u, 10u, 11u, 12u, 13u, 17u, 35u}) {
    for (DataType type : {DataType::float32, DataType::float16}) {
      const std::uint32_t row = rng.chance(0.5) ? 40 : static_cast<std::uint32_t>(rng.between(200, 300));
      const auto reduced = static_cast<std::uint32_t>(rng.between(2, 9));
      const bool kept_outside = rng.chance(0.3);
      const Dims sizes = kept_outside ? Dims{2, reduced, kept, row} : Dims{reduced, kept, row};
      const Dims axes = kept_outside ? Dims{1, 3} : Dims{0, 2};
      Hardmax1Desc desc{{type, sizes, {}, 0}, {type, sizes, {}, 0}, axes,
                        rng.chance(0.5) ? NanMode::propagate : NanMode::ignore};
      const bool ties = rng.chance(0.5);
      Buffer in = Buffer::for_tensor(desc.input);
      for_each_coordinate(sizes, [&](const Dims& c) {
        double v = ties ? static_cast<double>(rng.between_signed(-3, 3)) : static_cast<double>(rng.between_signed(-30000, 30000)) / 64.0;
        if (rng.chance(0.002)) v = rng.chance(0.5) ? std::numeric_limits<double>::quiet_NaN() : INFINITY;
        store(in, desc.input, c, v);
      });
      check_all_archs(desc, in, size_of(type) * rng.between(0, 3));
    }
  }
}

TEST_CASE("HARDMAX1 columns, zero-filled and patched or compare-and-selected, match the oracle", "[hardmax][generated]") {
  // The columns path (hardmax_columns.hpp): groups side by side in lanes, reduced several rows
  // at a time; from 32 rows per group on, the output is zero-filled a chunk (64 KiB) at a time
  // or in one fill (rep), then patched. Group counts and widths around the vector widths,
  // tiles (4096 groups) and chunks; padded outputs take the row-by-row fill; folded and
  // unfolded reduced dimensions; misaligned heads.
  REFOPS_TEST_RNG(rng);
  const Shape shapes[] = {
      {{31, 24}, {0}},         // below the patch threshold
      {{32, 9}, {0}},          // at it, a vector and one
      {{33, 17}, {0}},
      {{257, 16}, {0}},
      {{1100, 33}, {0}},       // several 64 KiB chunks
      {{70, 100}, {0}},
      {{40, 8200}, {0}},       // three tiles, the last narrower than a vector
      {{3, 40, 17}, {1}},      // a kept dimension outside the group
      {{5, 9, 20}, {0, 1}},    // two reduced dimensions (one when they fold)
      {{4, 3, 11, 24}, {0, 2}},// reduced dimensions around a kept one, columns innermost
  };
  check_shapes(shapes, rng, [](const Hardmax1Desc& desc, TestRng& r, std::size_t misalign) {
    return make_groups(desc.input, desc.axes, r, misalign);
  });
}

// The typed layer's tests are together in this file: each instantiates the header-only kernels
// for the test binary's own Arch, the slowest code of a test file to compile.
TEST_CASE("HARDMAX1's typed layer gives the oracle's output with every store strategy", "[hardmax][generated]") {
  // The typed layer takes the strategy directly (simd::StoreRequest), so every path's streamed
  // and plain writes are checked on the header-only Arch, whatever the compiled layer passes.
  REFOPS_TEST_RNG(rng);
  const Shape shapes[] = {
      {{3, 37, 16}, {2}},     // short rows, in blocks and one at a time
      {{5, 24}, {1}},         // short rows of three or six vectors
      {{3, 2100}, {1}},       // long rows: blocks written one row behind
      {{6, 5, 70}, {0, 2}},   // interleaved groups
      {{300, 37}, {0}},       // columns
      {{2, 3, 45}, {1, 2}},   // several rows per group
  };
  const std::optional<StoreStrategy> strategies[] = {std::nullopt, StoreStrategy::plain, StoreStrategy::stream,
                                                     StoreStrategy::rep};
  for (const Shape& shape : shapes) {
    for (DataType type : {DataType::float32, DataType::float16}) {
      for (NanMode mode : {NanMode::propagate, NanMode::ignore}) {
        Hardmax1Desc desc{{type, shape.sizes, {}, 0}, {type, shape.sizes, {}, 0}, shape.axes, mode};
        desc.output.strides = row_layout(shape.sizes, rng);
        const Buffer input = make_rows(desc.input, rng, 0);
        const Buffer expected = oracle(desc, input);
        const std::size_t misalign = size_of(type) * rng.between(0, 3);
        for (const auto& strategy : strategies) {
          Buffer out = Buffer::for_tensor(desc.output, misalign);
          auto run = [&](auto tag) {
            using T = decltype(tag);
            kernels::hardmax<T>(make_view(reinterpret_cast<const T*>(input.data()), shape.sizes),
                                make_view(reinterpret_cast<T*>(out.data()), shape.sizes, desc.output.strides), shape.axes,
                                mode, simd::StoreRequest{strategy, 0});
          };
          if (type == DataType::float32) run(float{});
          else run(float16{});
          INFO(describe(desc) << ", stores " << (strategy ? name_of(*strategy) : std::string_view("auto")));
          CHECK(std::memcmp(out.data(), expected.data(), expected.size()) == 0);
        }
      }
    }
  }
}

TEST_CASE("the typed layer gives what execute gives, FLOAT64 included", "[hardmax][generated]") {
  REFOPS_TEST_RNG(rng);
  for (int i = 0; i < 12; ++i) {
    const DataType type = i % 3 == 0 ? DataType::float64 : i % 3 == 1 ? DataType::float32 : DataType::float16;
    const Dims sizes{static_cast<std::uint32_t>(rng.between(1, 5)), edge_sizes[rng.between(0, std::size(edge_sizes) - 1)],
                     static_cast<std::uint32_t>(rng.between(1, 3))};
    Dims axes;
    for (std::uint32_t d = 0; d < 3; ++d)
      if (rng.chance(0.5) || (d == 2 && axes.empty())) axes.push_back(d);
    const Hardmax1Desc desc{{type, sizes, {}, 0}, {type, sizes, {}, 0}, axes,
                            rng.chance(0.5) ? NanMode::propagate : NanMode::ignore};
    const Buffer input = make_input(desc.input, rng, 0.05, 0);
    Buffer typed = Buffer::for_tensor(desc.output);
    auto run = [&](auto tag) {
      using T = decltype(tag);
      kernels::hardmax<T>(make_view(reinterpret_cast<const T*>(input.data()), sizes),
                          make_view(reinterpret_cast<T*>(typed.data()), sizes), axes, desc.nan_mode);
    };
    if (type == DataType::float64) run(double{});
    else if (type == DataType::float32) run(float{});
    else run(float16{});
    INFO(describe(desc));
    CHECK(typed.bytes() == oracle(desc, input).bytes());
  }
}

TEST_CASE("HARDMAX1 packed rows of 2 to 16 written from every element offset in a line", "[hardmax][generated]") {
  // Packed rows of 2, 4, 8 or 16 take, on AVX-512, a loop that writes whole output lines built
  // from masks, each shifted by where the output starts in its line
  // (kernels/hardmax_rows_in_a_vector.hpp, simd::MaskLines); the line before the output and the
  // last one are written masked. Every start in a line (16 FLOAT32, 32 FLOAT16 elements), with
  // outputs shorter than a line, of whole lines and of lines and a part.
  REFOPS_TEST_RNG(rng);
  for (DataType type : {DataType::float32, DataType::float16}) {
    const std::uint32_t line = 64 / static_cast<std::uint32_t>(size_of(type));
    for (std::uint32_t n : {2u, 4u, 8u, 16u}) {
      for (std::uint32_t elements : {n, line, 3 * line + 2 * n}) {
        const Dims sizes{elements / n, n};
        const NanMode mode = rng.chance(0.5) ? NanMode::propagate : NanMode::ignore;
        const Hardmax1Desc desc{{type, sizes, {}, 0}, {type, sizes, {}, 0}, {1}, mode};
        const Buffer in = make_rows(desc.input, rng, 0);
        for (std::uint32_t start = 0; start < line; ++start) check_all_archs(desc, in, start * size_of(type));
      }
    }
  }
}
