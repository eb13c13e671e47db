// OpenVINO OneHot-1 (and OneHot-16's negative_indices_mode) through the ONE_HOT kernel: rank-0
// indices, negative axes, on/off values of all 11 types, ignore and normalize, against the
// oracle on every path; and each of its rules broken once (OpenVINO's names in the fields).
#include <refops/refops.hpp>

#include <iterator>
#include <limits>
#include <vector>

#include "one_hot_oracle.hpp"
#include "support/archs.hpp"
#include "support/buffers.hpp"
#include "support/catch.hpp"
#include "support/layouts.hpp"
#include "support/random.hpp"

using namespace refops;
using namespace refops::test;

namespace {

void check_against_oracle(const OneHotV1Desc& desc, const Buffer& indices) {
  Buffer output = Buffer::for_tensor(output_desc(desc));
  const Buffer expected = one_hot_v1_oracle(desc, indices, output);
  INFO("I=" << name_of(desc.indices.data_type) << " T=" << name_of(desc.on_value.type()) << " axis=" << desc.axis
            << " depth=" << desc.depth << " rank=" << desc.indices.sizes.size()
            << (desc.negative_indices == NegativeIndices::normalize ? " normalize" : " ignore"));
  for_each_arch([&](Arch arch) {
    output.fill(sentinel);
    execute(desc, indices.in(), output.out(), on(arch));
    CHECK(output.bytes() == expected.bytes());
  });
}

// An index for `depth`: -depth-1 .. depth, now and then an extreme of I.
template <class I>
Scalar random_index(TestRng& rng, std::int64_t depth) {
  I v = static_cast<I>(rng.between_signed(-depth - 1, depth));
  if (rng.chance(0.1)) v = rng.chance(0.5) ? std::numeric_limits<I>::min() : std::numeric_limits<I>::max();
  return Scalar::of(v);
}

// Only the draws of index and on/off values depend on the types (random_index,
// nonzero_scalar): the check is compiled once, not once per type pair.
void check_generated(TestRng& rng, int cases, DataType index_type, DataType value_type) {
  for (int n = 0; n < cases; ++n) {
    const std::size_t rank = rng.between(0, 4);
    Dims sizes;
    for (std::size_t d = 0; d < rank; ++d) sizes.push_back(static_cast<std::uint32_t>(rng.between(1, 9)));
    OneHotV1Desc desc;
    desc.indices = {index_type, sizes, rank ? make_strides(sizes, input_layouts[rng.between(0, 3)], rng) : Dims{}, 0};
    desc.depth = static_cast<std::int64_t>(rng.between(1, 40));
    desc.axis = rng.between_signed(-static_cast<std::int64_t>(rank) - 1, static_cast<std::int64_t>(rank));
    desc.on_value = rng.nonzero_scalar(value_type);
    desc.off_value = rng.chance(0.3) ? Scalar::from_union_bytes(value_type, {}) : rng.nonzero_scalar(value_type);
    desc.negative_indices = rng.chance(0.5) ? NegativeIndices::ignore : NegativeIndices::normalize;
    const TensorDesc as_tensor = rank ? desc.indices : TensorDesc{index_type, {1}, {}, 0};
    Buffer indices = Buffer::for_tensor(as_tensor);
    for_each_coordinate(as_tensor.sizes, [&](const Dims& c) {
      set_scalar(indices, as_tensor, c,
                 visit_index_type(index_type, [&](auto i) { return random_index<decltype(i)>(rng, desc.depth); }));
    });
    check_against_oracle(desc, indices);
  }
}

// Axis 0 of long rows of contiguous indices: the compare-and-select path compares indices of
// the output's width as they are (index j - depth when they wrap), so every index near 0,
// near +-depth and at I's extremes, under ignore and under normalize, on every arch.
template <class I>
void check_axis_0_rows(DataType index_type, Scalar on_value, Scalar off_value) {
  constexpr std::uint32_t columns = 1040;  // vectors of every width, and a tile and a part
  for (std::int64_t depth : {1, 3, 17, 64}) {
    const auto as_index = [](std::int64_t v) { return static_cast<I>(v); };  // negatives modulo 2^n when unsigned
    const I edges[] = {as_index(0),          as_index(1),          as_index(depth - 1),
                       as_index(depth),      as_index(depth + 1),  as_index(-1),
                       as_index(-depth),     as_index(-depth - 1), as_index(-depth + 1),
                       std::numeric_limits<I>::min(), std::numeric_limits<I>::max()};
    const TensorDesc index_desc{index_type, {columns}, {}, 0};
    Buffer indices = Buffer::for_tensor(index_desc);
    for (std::uint32_t c = 0; c < columns; ++c)
      set_scalar(indices, index_desc, {c}, Scalar::of(edges[(c * 7) % std::size(edges)]));
    for (NegativeIndices mode : {NegativeIndices::ignore, NegativeIndices::normalize})
      check_against_oracle({index_desc, depth, on_value, off_value, 0, mode}, indices);
  }
}

TEST_CASE("OneHot-1: axis 0 compares indices as wide as the output's elements exactly",
          "[one_hot][one_hot_v1][generated]") {
  check_axis_0_rows<std::int32_t>(DataType::int32, Scalar::of(1.5f), Scalar::of(-0.25f));
  check_axis_0_rows<std::uint32_t>(DataType::uint32, Scalar::of(std::int32_t{7}), Scalar::of(std::int32_t{-3}));
  check_axis_0_rows<std::int64_t>(DataType::int64, Scalar::of(2.5), Scalar::of(-1.0));
  check_axis_0_rows<std::uint64_t>(DataType::uint64, Scalar::of(std::uint64_t{9}), Scalar::of(std::uint64_t{4}));
}

bool has(const std::vector<Diagnostic>& d, const std::string& field, const std::string& says) {
  for (const auto& x : d)
    if (x.field == field && x.message.find(says) != std::string::npos) return true;
  return false;
}

OneHotV1Desc valid_v1() {
  return {{DataType::int32, {2, 3}, {}, 0}, 5, Scalar::of(1.0f), Scalar::of(0.0f), -1, NegativeIndices::ignore};
}

// Broken once: validate() names it, output_desc() and execute() throw it, nothing is written.
void require_rejected(const OneHotV1Desc& desc, const std::string& field, const std::string& says) {
  const auto d = validate(desc);
  INFO(to_string(d));
  CHECK(d.size() == 1);
  CHECK(has(d, field, says));
  CHECK_THROWS_AS(output_desc(desc), Error);
  Buffer indices(256), output(4096);
  try {
    execute(desc, indices.in(), output.out());
    FAIL("execute() accepted a OneHot-1 description broken at " << field);
  } catch (const Error& e) {
    CHECK(has(e.diagnostics(), field, says));
  }
  CHECK(output.all_sentinel());
}

}  // namespace

TEST_CASE("OneHot-1: a rank-0 index gives a 1-D output", "[one_hot][one_hot_v1]") {
  for (std::int64_t axis : {0, -1}) {
    OneHotV1Desc desc{{DataType::int64, {}, {}, 0}, 4, Scalar::of(std::uint16_t{9}), Scalar::of(std::uint16_t{3}), axis};
    CHECK(output_desc(desc).sizes == Dims{4});
    const std::vector<std::int64_t> index{2};
    for_each_arch([&](Arch arch) {
      std::vector<std::uint16_t> out(4, 0xEEEE);
      execute(desc, std::as_bytes(std::span(index)), std::as_writable_bytes(std::span(out)), on(arch));
      CHECK(out == std::vector<std::uint16_t>{3, 3, 9, 3});
    });
  }
}

TEST_CASE("OneHot-1: negative indices are all-off by default and wrap with normalize", "[one_hot][one_hot_v1]") {
  const std::vector<std::int32_t> indices{-1, -3, 5, 2, std::numeric_limits<std::int32_t>::min()};
  OneHotV1Desc desc{{DataType::int32, {5}, {}, 0}, 3, Scalar::of(std::int8_t{1}), Scalar::of(std::int8_t{-2}), -1};
  const std::vector<std::int8_t> ignored{-2, -2, -2, -2, -2, -2, -2, -2, -2, -2, -2, 1, -2, -2, -2};
  const std::vector<std::int8_t> wrapped{-2, -2, 1, 1, -2, -2, -2, -2, -2, -2, -2, 1, -2, -2, -2};
  for_each_arch([&](Arch arch) {
    std::vector<std::int8_t> out(15, 0x55);
    desc.negative_indices = NegativeIndices::ignore;
    execute(desc, std::as_bytes(std::span(indices)), std::as_writable_bytes(std::span(out)), on(arch));
    CHECK(out == ignored);
    desc.negative_indices = NegativeIndices::normalize;
    execute(desc, std::as_bytes(std::span(indices)), std::as_writable_bytes(std::span(out)), on(arch));
    CHECK(out == wrapped);
  });
}

TEST_CASE("OneHot-1 matches the oracle for on/off values of all 11 types", "[one_hot][one_hot_v1][generated]") {
  REFOPS_TEST_RNG(rng);
  for (DataType value_type : all_data_types) {
    check_generated(rng, 6, DataType::int32, value_type);
    check_generated(rng, 6, DataType::int64, value_type);
    check_generated(rng, 2, DataType::uint32, value_type);
    check_generated(rng, 2, DataType::uint64, value_type);
  }
}

TEST_CASE("OneHot-1: each rule broken once, in OpenVINO's names", "[one_hot][one_hot_v1][validation]") {
  CHECK(validate(valid_v1()).empty());
  CHECK(output_desc(valid_v1()).sizes == Dims{2, 3, 5});

  auto d = valid_v1();
  d.depth = 0;
  require_rejected(d, "depth", "expected 1 to 4294967295 (a positive size), found 0");
  d.depth = std::int64_t{1} << 32;
  require_rejected(d, "depth", "found 4294967296");

  d = valid_v1();
  d.axis = 3;
  require_rejected(d, "axis", "expected -3 to 2 (the output has rank 3), found 3");
  d.axis = -4;
  require_rejected(d, "axis", "found -4");

  d = valid_v1();
  d.off_value = Scalar::of(std::int32_t{0});
  require_rejected(d, "off_value", "expected the on_value's type FLOAT32, found INT32");

  d = valid_v1();
  d.on_value = Scalar::from_union_bytes(DataType{12}, {});
  require_rejected(d, "on_value", "found type 12");

  d = valid_v1();
  d.indices.data_type = DataType::float32;
  require_rejected(d, "indices.DataType", "expected one of INT64, INT32, UINT64, UINT32, found FLOAT32");

  d = valid_v1();
  d.indices.sizes = {1, 1, 1, 1, 1, 1, 1, 2};
  require_rejected(d, "indices.DimensionCount", "expected a rank of 0 to 7");

  d = valid_v1();
  d.indices.sizes = {};
  d.indices.strides = {1};
  require_rejected(d, "indices.Strides", "expected no strides for a rank-0 (scalar) index");

  d = valid_v1();
  d.indices.sizes = {2, 0};
  require_rejected(d, "indices.Sizes[1]", "found 0");

  d = valid_v1();
  d.indices.sizes = {65536, 65536};
  d.depth = 2;
  require_rejected(d, "indices.Sizes", "4294967295");
  d.indices.sizes = {65536, 32768};  // with depth 2 the output holds 2^32 elements
  require_rejected(d, "depth",
                   "expected a depth that keeps the output within 4294967295 (2^32-1) elements, found 2: the "
                   "output's sizes {65536,32768,2} (the indices' sizes with depth inserted at axis 2) make "
                   "4294967296 elements");
}

TEST_CASE("OneHot-1: bindings that do not fit are rejected before anything is written", "[one_hot][one_hot_v1][validation]") {
  const auto d = valid_v1();  // indices 24 bytes, output 120 bytes
  Buffer indices(24), output(120), small(119), shared(160);
  auto rejects = [&](In in, Buffer& out, Out span, const std::string& field, const std::string& says) {
    try {
      execute(d, in, span);
      FAIL("accepted a bad binding at " << field);
    } catch (const Error& e) {
      INFO(to_string(e.diagnostics()));
      CHECK(has(e.diagnostics(), field, says));
    }
    CHECK(out.all_sentinel());
  };
  rejects(indices.in().first(20), output, output.out(), "indices.Binding.SizeInBytes", "at least 24");
  rejects(indices.in(), small, small.out(), "output.Binding.SizeInBytes", "at least 120");
  rejects(In(shared.data() + 100, 24), shared, shared.out().first(120), "output.Binding", "indices");
  Buffer misaligned(24, 2);
  rejects(misaligned.in(), output, output.out(), "indices.Binding.Offset", "aligned to 4 bytes");
}
