// Generated ONE_HOT problems against the oracle (tests/one_hot_oracle.hpp), bit-exact over the
// whole output buffer (padding must keep the sentinel), on every path this CPU has: all 4 x 11
// type pairs, every axis position, 1-8 dimensions, sizes around the vector widths, packed,
// padded and transposed outputs, broadcast indices and values, misaligned bases, and indices at
// the edges of each index type.
#include <refops/kernels/one_hot.hpp>
#include <refops/refops.hpp>

#include <utility>
#include <limits>
#include <vector>

#include "one_hot_oracle.hpp"
#include "support/archs.hpp"
#include "support/buffers.hpp"
#include "support/catch.hpp"
#include "support/layouts.hpp"
#include "support/random.hpp"
#include "validation/tensor_rules.hpp"

using namespace refops;
using namespace refops::test;

namespace {

// An index for a sequence of `length`: mostly valid, often negative or past either end, and
// now and then an extreme of the type or a value that equals a valid one modulo 2^32.
template <class I>
I random_index(TestRng& rng, std::uint32_t length) {
  const auto L = static_cast<std::int64_t>(length);
  constexpr bool is_signed = std::is_signed_v<I>;
  switch (rng.between(0, 9)) {
    case 0: return std::numeric_limits<I>::max();
    case 1: return std::numeric_limits<I>::min();
    case 2: return static_cast<I>(L + static_cast<std::int64_t>(rng.between(0, 2)));  // L, L+1, L+2
    case 3:
      if constexpr (sizeof(I) == 8) return static_cast<I>((std::uint64_t{1} << 32) + rng.between(0, length - 1));
      else return static_cast<I>(rng.bits());
    case 4:
    case 5:
      if constexpr (is_signed) return static_cast<I>(-static_cast<std::int64_t>(rng.between(1, length + 1)));
      else return static_cast<I>(rng.between(0, length - 1));
    default: return static_cast<I>(rng.between(0, length - 1));
  }
}
Scalar random_index(DataType type, TestRng& rng, std::uint32_t length) {
  return visit_index_type(type, [&](auto i) { return Scalar::of(random_index<decltype(i)>(rng, length)); });
}

// Sizes of `rank` dimensions: each from a list around the vector widths, the product capped.
Dims random_sizes(TestRng& rng, std::size_t rank, std::uint64_t cap) {
  static constexpr std::uint32_t picks[] = {1, 1, 1, 2, 3, 4, 5, 7, 8, 9, 15, 16, 17, 31, 32, 33, 63, 64, 65, 130};
  Dims sizes;
  for (std::size_t d = 0; d < rank; ++d)
    sizes.push_back(picks[rng.between(0, std::size(picks) - 1)]);
  auto product = [&] {
    std::uint64_t p = 1;
    for (auto s : sizes) p *= s;
    return p;
  };
  while (product() > cap) {
    const std::size_t d = rng.between(0, rank - 1);
    if (sizes[d] > 1) sizes[d] = static_cast<std::uint32_t>(rng.between(1, sizes[d] / 2));
  }
  return sizes;
}

// Values sizes of the output's rank holding at least 2 elements (shapes like {1,1,3,1}).
Dims random_value_sizes(TestRng& rng, std::size_t rank) {
  Dims sizes;
  for (std::size_t d = 0; d < rank; ++d) sizes.push_back(1);
  sizes[rng.between(0, rank - 1)] = static_cast<std::uint32_t>(rng.between(2, 3));
  if (rng.chance(0.3)) sizes[rng.between(0, rank - 1)] = 2;
  return sizes;
}

// Only the draws of index and value elements depend on the types (random_index,
// nonzero_scalar): the check is compiled once, not once per type pair.
void check_generated_cases(TestRng& rng, int cases, DataType index_type, DataType value_type) {
  for (int n = 0; n < cases; ++n) {
    const std::size_t rank = rng.between(1, 8);
    const auto axis = static_cast<std::uint32_t>(rng.between(0, rank - 1));
    const Dims out_sizes = random_sizes(rng, rank, 2500);
    Dims index_sizes = out_sizes;
    index_sizes[axis] = 1;
    const Dims value_sizes = random_value_sizes(rng, rank);
    const Layout out_layout = output_layouts[rng.between(0, 2)];
    const Layout index_layout = input_layouts[rng.between(0, 3)];
    const Layout value_layout = input_layouts[rng.between(0, 3)];
    const OneHotDesc desc{{index_type, index_sizes, make_strides(index_sizes, index_layout, rng), 0},
                          {value_type, value_sizes, make_strides(value_sizes, value_layout, rng), 0},
                          {value_type, out_sizes, make_strides(out_sizes, out_layout, rng), 0},
                          axis};
    Buffer indices = Buffer::for_tensor(desc.indices);
    Buffer values = Buffer::for_tensor(desc.values);
    Buffer output = Buffer::for_tensor(desc.output, size_of(value_type) * rng.between(0, 3));
    for_each_coordinate(index_sizes, [&](const Dims& c) {
      set_scalar(indices, desc.indices, c, random_index(index_type, rng, out_sizes[axis]));
    });
    for_each_coordinate(value_sizes,
                        [&](const Dims& c) { set_scalar(values, desc.values, c, rng.nonzero_scalar(value_type)); });
    if (rng.chance(0.3)) {  // OffValue all zero bytes: the zero fast path
      Dims origin = value_sizes;
      for (auto& c : origin) c = 0;
      set_scalar(values, desc.values, origin, Scalar::from_union_bytes(value_type, {}));
    }
    const Buffer expected = one_hot_oracle(desc.indices, indices, desc.values, values, desc.output, output, axis);
    INFO("I=" << name_of(index_type) << " T=" << name_of(value_type) << " sizes=" << detail::to_text(out_sizes)
              << " strides=" << detail::to_text(desc.output.strides) << " indices strides="
              << detail::to_text(desc.indices.strides) << " values " << detail::to_text(value_sizes) << " strides "
              << detail::to_text(desc.values.strides) << " axis=" << axis);
    for_each_arch_and_stores([&](const ExecuteOptions& options) {
      output.fill(sentinel);
      execute(desc, indices.in(), values.in(), output.out(), options);
      CHECK(output.bytes() == expected.bytes());
    });
  }
}

}  // namespace

TEST_CASE("ONE_HOT matches the oracle for every index and value type", "[one_hot][generated]") {
  REFOPS_TEST_RNG(rng);
  for (DataType index_type : index_types)
    for (DataType value_type : all_data_types) check_generated_cases(rng, 20, index_type, value_type);
}

namespace {

// The indices at the edges of I for a sequence of `length`: around 0 and `length`, the type's
// extremes, and for 64-bit types values equal to valid positions modulo 2^32.
template <class I>
std::vector<Scalar> edge_indices(std::uint32_t length) {
  std::vector<std::int64_t> wanted{0, length - 1, length, length + 1, -1, -static_cast<std::int64_t>(length),
                                   -static_cast<std::int64_t>(length) - 1};
  std::vector<Scalar> edges;
  for (std::int64_t v : wanted)
    if (std::is_signed_v<I> || v >= 0) edges.push_back(Scalar::of(static_cast<I>(v)));
  edges.push_back(Scalar::of(std::numeric_limits<I>::min()));
  edges.push_back(Scalar::of(std::numeric_limits<I>::max()));
  if constexpr (sizeof(I) == 8) {  // equal to valid positions modulo 2^32
    edges.push_back(Scalar::of(static_cast<I>(std::uint64_t{1} << 32)));
    edges.push_back(Scalar::of(static_cast<I>((std::uint64_t{1} << 32) + length - 1)));
    edges.push_back(Scalar::of(static_cast<I>(std::uint64_t{0xFFFFFFFF00000000u})));
  }
  return edges;
}

// Every sequence of a {rows, L} (axis 1) and {L, rows} (axis 0) output gets one of the edge
// indices, so each path sees all of them.
void check_edges(DataType index_type, DataType value_type, std::uint32_t length) {
  const std::vector<Scalar> edges =
      visit_index_type(index_type, [&](auto i) { return edge_indices<decltype(i)>(length); });
  const auto [off, on] = visit_data_type(
      value_type, [](auto t) { return std::pair{Scalar::of(decltype(t)(3)), Scalar::of(decltype(t)(7))}; });
  const auto rows = static_cast<std::uint32_t>(edges.size() * 5);  // several vectors of rows
  for (std::uint32_t axis : {0u, 1u}) {
    const Dims out_sizes = axis == 1 ? Dims{rows, length} : Dims{length, rows};
    const Dims index_sizes = axis == 1 ? Dims{rows, 1} : Dims{1, rows};
    const OneHotDesc desc{{index_type, index_sizes, {}, 0},
                          {value_type, {1, 2}, {}, 0},
                          {value_type, out_sizes, {}, 0},
                          axis};
    Buffer indices = Buffer::for_tensor(desc.indices), values = Buffer::for_tensor(desc.values);
    Buffer output = Buffer::for_tensor(desc.output);
    std::size_t k = 0;
    for_each_coordinate(index_sizes,
                        [&](const Dims& c) { set_scalar(indices, desc.indices, c, edges[k++ % edges.size()]); });
    set_scalar(values, desc.values, {0, 0}, off);
    set_scalar(values, desc.values, {0, 1}, on);
    const Buffer expected = one_hot_oracle(desc.indices, indices, desc.values, values, desc.output, output, axis);
    INFO("I=" << name_of(index_type) << " T=" << name_of(value_type) << " L=" << length << " axis=" << axis);
    for_each_arch_and_stores([&](const ExecuteOptions& options) {
      output.fill(sentinel);
      execute(desc, indices.in(), values.in(), output.out(), options);
      CHECK(output.bytes() == expected.bytes());
    });
  }
}

}  // namespace

TEST_CASE("ONE_HOT: indices at the edges of each index type never alias a valid position", "[one_hot][generated]") {
  for (DataType index_type : index_types)
    for (std::uint32_t length : {1u, 3u, 17u, 300u})  // 300: past UINT8's range (int8 falls back)
      for (DataType value_type : {DataType::uint8, DataType::float16, DataType::float32, DataType::float64})
        check_edges(index_type, value_type, length);
}

// Each store strategy's head and tail handling: rows of lengths around the vector widths and
// long ones, packed (one contiguous output: rep fills it whole) and padded (rep per block),
// axis 1 (rows) and axis 0 (compare-and-select), output bases 0-5 elements past a 64-byte
// boundary (4 elements: 16 bytes, NumPy's alignment, where short rows stream 16-byte pieces),
// on every arch with every strategy forced. Axis 0 also over 1040 packed columns: runs 4160
// bytes apart share their offset in a line, so the compare-and-select tiles start with a
// head that ends on a line, then a whole tile (1024), then the rest.
TEST_CASE("ONE_HOT: every store strategy writes the oracle's bytes at every misalignment", "[one_hot][generated]") {
  REFOPS_TEST_RNG(rng);
  // 4, 8, 16, 24, 32: rows of one to four whole vectors on SSE2 and AVX2 (the short-rows path).
  for (std::uint32_t length : {1u, 4u, 5u, 8u, 16u, 17u, 24u, 32u, 33u, 64u, 256u, 1000u, 1030u}) {
    for (std::uint32_t axis : {0u, 1u}) {
      for (bool padded : {false, true}) {
        for (std::uint32_t rows : axis == 0 && length <= 64 ? std::vector<std::uint32_t>{37, 1040}
                                                             : std::vector<std::uint32_t>{37}) {
          const Dims out_sizes = axis == 1 ? Dims{rows, length} : Dims{length, rows};
          const Dims index_sizes = axis == 1 ? Dims{rows, 1} : Dims{1, rows};
          const Dims out_strides = padded ? Dims{out_sizes[1] + 3, 1} : Dims{};
          const TensorDesc index_desc{DataType::int64, index_sizes, {}, 0};
          const TensorDesc value_desc{DataType::float32, {1, 2}, {}, 0};
          const TensorDesc out_desc{DataType::float32, out_sizes, out_strides, 0};
          Buffer indices = Buffer::for_tensor(index_desc), values = Buffer::for_tensor(value_desc);
          for_each_coordinate(index_sizes, [&](const Dims& c) {
            set<std::int64_t>(indices, index_desc, c,
                              rng.between_signed(-static_cast<std::int64_t>(length) - 2, length + 1));
          });
          const float off = rng.chance(0.5) ? 0.0f : 2.5f;
          set<float>(values, value_desc, {0, 0}, off);
          set<float>(values, value_desc, {0, 1}, -0.0f);
          for (std::size_t misalign = 0; misalign < 6; ++misalign) {
            Buffer output = Buffer::for_tensor(out_desc, 4 * misalign);
            const Buffer expected = one_hot_oracle(index_desc, indices, value_desc, values, out_desc, output, axis);
            INFO("L=" << length << " axis " << axis << " rows " << rows << (padded ? " padded" : " packed") << " off "
                      << off << " base +" << misalign << " elements");
            for_each_arch_and_stores([&](const ExecuteOptions& options) {
              output.fill(sentinel);
              execute(OneHotDesc{index_desc, value_desc, out_desc, axis}, indices.in(), values.in(), output.out(),
                      options);
              CHECK(output.bytes() == expected.bytes());
            });
          }
        }
      }
    }
  }
}

// Along axis 0 with indices as wide as the output (UINT32 and INT32 into FLOAT32), a tile's
// indices are compared as they are when they start on the vector grid or the output streams,
// and made positions first otherwise. Index bases 0 to 48 bytes past a line and output bases
// 0 and 16 bytes past one reach both on every arch, with every strategy forced; the indices
// are random_index's (in range, wrapped negatives, and each type's edges).
TEST_CASE("ONE_HOT axis 0: indices as wide as the output give the oracle's bytes at every index offset",
          "[one_hot][generated]") {
  REFOPS_TEST_RNG(rng);
  for (DataType index_type : {DataType::uint32, DataType::int32}) {
    for (std::uint32_t length : {5u, 16u, 33u}) {
      for (std::uint32_t rows : {37u, 1040u}) {
        const Dims out_sizes{length, rows}, index_sizes{1, rows};
        const TensorDesc index_desc{index_type, index_sizes, {}, 0};
        const TensorDesc value_desc{DataType::float32, {1, 2}, {}, 0};
        const TensorDesc out_desc{DataType::float32, out_sizes, {}, 0};
        Buffer values = Buffer::for_tensor(value_desc);
        set<float>(values, value_desc, {0, 0}, rng.chance(0.5) ? 0.0f : 2.5f);
        set<float>(values, value_desc, {0, 1}, -0.0f);
        for (std::size_t index_misalign : {0u, 4u, 16u, 32u, 48u}) {
          Buffer indices = Buffer::for_tensor(index_desc, index_misalign);
          for_each_coordinate(index_sizes, [&](const Dims& c) {
            set_scalar(indices, index_desc, c, random_index(index_type, rng, length));
          });
          for (std::size_t out_misalign : {0u, 16u}) {
            Buffer output = Buffer::for_tensor(out_desc, out_misalign);
            const Buffer expected = one_hot_oracle(index_desc, indices, value_desc, values, out_desc, output, 0);
            INFO(name_of(index_type) << " L=" << length << " rows " << rows << " indices +" << index_misalign
                                     << " bytes, output +" << out_misalign << " bytes");
            for_each_arch_and_stores([&](const ExecuteOptions& options) {
              output.fill(sentinel);
              execute(OneHotDesc{index_desc, value_desc, out_desc, 0}, indices.in(), values.in(), output.out(),
                      options);
              CHECK(output.bytes() == expected.bytes());
            });
          }
        }
      }
    }
  }
}
