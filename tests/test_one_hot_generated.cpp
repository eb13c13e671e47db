// Generated ONE_HOT problems against the oracle (tests/one_hot_oracle.hpp), bit-exact over the
// whole output buffer (padding must keep the sentinel), on every path this CPU has: all 4 x 11
// type pairs, every axis position, 1-8 dimensions, sizes around the vector widths, packed,
// padded and transposed outputs, broadcast indices and values, misaligned bases, and indices at
// the edges of each index type.
#include <refops/kernels/one_hot.hpp>
#include <refops/refops.hpp>

#include <array>
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

// Calls f(I{}) for each of the 4 index types.
template <class F>
void for_each_index_type(F&& f) {
  f(std::uint32_t{});
  f(std::int32_t{});
  f(std::uint64_t{});
  f(std::int64_t{});
}

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

template <class I, class T>
void check_generated_cases(TestRng& rng, int cases) {
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
    const OneHotDesc desc{{data_type_v<I>, index_sizes, make_strides(index_sizes, index_layout, rng), 0},
                          {data_type_v<T>, value_sizes, make_strides(value_sizes, value_layout, rng), 0},
                          {data_type_v<T>, out_sizes, make_strides(out_sizes, out_layout, rng), 0},
                          axis};
    Buffer indices = Buffer::for_tensor(desc.indices);
    Buffer values = Buffer::for_tensor(desc.values);
    Buffer output = Buffer::for_tensor(desc.output, sizeof(T) * rng.between(0, 3));
    for_each_coordinate(index_sizes, [&](const Dims& c) {
      set<I>(indices, desc.indices, c, random_index<I>(rng, out_sizes[axis]));
    });
    for_each_coordinate(value_sizes, [&](const Dims& c) { set<T>(values, desc.values, c, rng.nonzero_value<T>()); });
    if (rng.chance(0.3)) {  // OffValue all zero bytes: the zero fast path
      Dims origin = value_sizes;
      for (auto& c : origin) c = 0;
      set<T>(values, desc.values, origin, T(0));
    }
    const Buffer expected = one_hot_oracle(desc.indices, indices, desc.values, values, desc.output, output, axis);
    INFO("I=" << name_of(data_type_v<I>) << " T=" << name_of(data_type_v<T>) << " sizes=" << detail::to_text(out_sizes)
              << " strides=" << detail::to_text(desc.output.strides) << " indices strides="
              << detail::to_text(desc.indices.strides) << " values " << detail::to_text(value_sizes) << " strides "
              << detail::to_text(desc.values.strides) << " axis=" << axis);
    for_each_arch([&](Arch arch) {
      output.fill(sentinel);
      execute(desc, indices.in(), values.in(), output.out(), on(arch));
      CHECK(output.bytes() == expected.bytes());
    });
  }
}

}  // namespace

TEST_CASE("ONE_HOT matches the oracle for every index and value type", "[one_hot][generated]") {
  REFOPS_TEST_RNG(rng);
  for_each_index_type([&](auto i) {
    for (DataType value_type : all_data_types)
      visit_data_type(value_type, [&](auto t) { check_generated_cases<decltype(i), decltype(t)>(rng, 20); });
  });
}
