// Every rule a HARDMAX or HARDMAX1 description can break, through validate() and execute():
// the diagnostic's field and message, and an output buffer that stays untouched. Also the
// feature-level tables, minimum_feature_level, and the committed docs table.
#include <functional>
#include <string>

#include <refops/refops.hpp>

#include "ops/hardmax_table.hpp"
#include "support/archs.hpp"
#include "support/buffers.hpp"
#include "support/catch.hpp"
#include "support/docs.hpp"

using namespace refops;
using namespace refops::test;
using FL = FeatureLevel;

namespace {

Hardmax1Desc good1() {
  return {{DataType::float32, {2, 3, 4}, {}, 0}, {DataType::float32, {2, 3, 4}, {}, 0}, {1}, NanMode::propagate};
}
HardmaxDesc good0() {
  return {{DataType::float16, {1, 1, 3, 4}, {}, 0}, {DataType::float16, {1, 1, 3, 4}, {}, 0}, NanMode::ignore};
}

// The first diagnostic has this field and its message contains `message`; execute() throws
// the same and leaves the output untouched.
template <class Desc>
void expect_rejected(const Desc& desc, FeatureLevel level, const std::string& field, const std::string& message) {
  INFO("expected field " << field << ": " << message);
  const auto d = validate(desc, level);
  REQUIRE_FALSE(d.empty());
  INFO("got " << to_string(d));
  CHECK(d[0].field == field);
  CHECK_THAT(d[0].message, Catch::Matchers::Contains(message));

  Buffer in(4096), out(4096);  // room for every description below that has a size
  in.fill(std::byte{0x3C});
  try {
    ExecuteOptions options;
    options.feature_level = level;
    execute(desc, in.in(), out.out(), options);
    FAIL("execute accepted an invalid description");
  } catch (const Error& e) {
    REQUIRE_FALSE(e.diagnostics().empty());
    CHECK(e.diagnostics()[0].field == field);
    CHECK(e.diagnostics()[0].message == d[0].message);
  }
  CHECK(out.all_sentinel());
}

}  // namespace

TEST_CASE("valid descriptions validate and run", "[hardmax][validate]") {
  CHECK(validate(good1()).empty());
  CHECK(validate(good1(), FL::level_5_1).empty());
  CHECK(validate(good0(), FL::level_1_0).empty());
  Hardmax1Desc all_axes = good1();
  all_axes.axes = {2, 0, 1};
  CHECK(validate(all_axes).empty());
}

TEST_CASE("HARDMAX1: Axes must be a non-empty set of axes below DimensionCount", "[hardmax][validate]") {
  Hardmax1Desc d = good1();
  d.axes = {};
  expect_rejected(d, FL::latest, "Axes", "expected at least one axis (AxisCount >= 1), found AxisCount 0");
  d.axes = {0, 3};
  expect_rejected(d, FL::latest, "Axes[1]", "expected an axis less than 3 (InputTensor.DimensionCount), found 3");
  d.axes = {2, 0, 2};
  expect_rejected(d, FL::latest, "Axes[2]", "expected distinct axes (Axes is a set), found 2 again (also Axes[0])");
}

TEST_CASE("HARDMAX1: feature level, data types and dimension counts", "[hardmax][validate]") {
  expect_rejected(good1(), FL::level_5_0, "FeatureLevel",
                  "DML_OPERATOR_ACTIVATION_HARDMAX1 needs DML_FEATURE_LEVEL_5_1; validating at DML_FEATURE_LEVEL_5_0");
  expect_rejected(good1(), FeatureLevel{0x5300}, "FeatureLevel", "expected one of the DML_FEATURE_LEVEL values 0x1000, 0x2000, 0x2100, 0x3000, 0x3100, 0x4000, 0x4100, 0x5000, 0x5100, 0x5200, 0x6000, 0x6100, 0x6200, 0x6300, 0x6400 (DML_FEATURE_LEVEL_1_0 to DML_FEATURE_LEVEL_6_4), found 0x5300");
  Hardmax1Desc d = good1();
  d.input.data_type = d.output.data_type = DataType::int32;
  expect_rejected(d, FL::latest, "InputTensor.DataType",
                  "expected one of FLOAT32, FLOAT16 at DML_FEATURE_LEVEL_6_4, found INT32; no feature level supports it");
  d.input.data_type = d.output.data_type = DataType::float64;
  expect_rejected(d, FL::latest, "InputTensor.DataType", "found FLOAT64; no feature level supports it");
  d.input.data_type = d.output.data_type = DataType{0};
  expect_rejected(d, FL::latest, "InputTensor.DataType", "expected a DML_TENSOR_DATA_TYPE from 1 (FLOAT32) to 11 (INT64), found 0");
  d = good1();
  d.input.sizes = d.output.sizes = {};
  d.axes = {0};
  expect_rejected(d, FL::latest, "InputTensor.DimensionCount", "expected 1 to 8 dimensions, found 0");
}

TEST_CASE("HARDMAX: levels 1_0 (4 dims), 2_0 (4-5), 3_0 (1-8) and effective rank <= 2", "[hardmax][validate]") {
  HardmaxDesc d = good0();
  expect_rejected(d, FeatureLevel{0x0100}, "FeatureLevel", "expected one of the DML_FEATURE_LEVEL values 0x1000, 0x2000, 0x2100, 0x3000, 0x3100, 0x4000, 0x4100, 0x5000, 0x5100, 0x5200, 0x6000, 0x6100, 0x6200, 0x6300, 0x6400 (DML_FEATURE_LEVEL_1_0 to DML_FEATURE_LEVEL_6_4), found 0x100");
  d.input.sizes = d.output.sizes = {3, 4};
  expect_rejected(d, FL::level_2_1, "InputTensor.DimensionCount",
                  "expected 4 to 5 at DML_FEATURE_LEVEL_2_1, found 2; it needs DML_FEATURE_LEVEL_3_0");
  d.input.sizes = d.output.sizes = {1, 1, 1, 3, 4};
  expect_rejected(d, FL::level_1_0, "InputTensor.DimensionCount",
                  "expected 4 at DML_FEATURE_LEVEL_1_0, found 5; it needs DML_FEATURE_LEVEL_2_0");
  d.input.sizes = d.output.sizes = {1, 2, 3, 4};
  expect_rejected(d, FL::latest, "InputTensor.Sizes",
                  "expected an effective rank of at most 2 (HARDMAX reduces each row of a batch x features matrix; "
                  "leading size-1 dimensions do not count), found 3 in {1,2,3,4}; HARDMAX1 with Axes = {3} takes any rank");
  d.input.sizes = d.output.sizes = {2, 1, 1, 4};  // only leading 1s are dropped
  expect_rejected(d, FL::latest, "InputTensor.Sizes", "found 4 in {2,1,1,4}");
  d.input.data_type = d.output.data_type = DataType::uint8;
  d.input.sizes = d.output.sizes = {1, 1, 2, 4};
  expect_rejected(d, FL::level_3_0, "InputTensor.DataType", "found UINT8; no feature level supports it");
}

TEST_CASE("input and output: same data type, DimensionCount and sizes", "[hardmax][validate]") {
  Hardmax1Desc d = good1();
  d.output.data_type = DataType::float16;
  expect_rejected(d, FL::latest, "OutputTensor.DataType", "expected FLOAT32 (the DataType of InputTensor), found FLOAT16");
  d = good1();
  d.output.sizes = {2, 5, 4};
  expect_rejected(d, FL::latest, "OutputTensor.Sizes[1]", "expected 3 (InputTensor.Sizes[1]), found 5");
  d.output.sizes = {2, 3, 4, 1};
  expect_rejected(d, FL::latest, "OutputTensor.DimensionCount", "expected 3 (the DimensionCount of InputTensor), found 4");
  HardmaxDesc v0 = good0();
  v0.output.sizes = {1, 1, 4, 3};
  expect_rejected(v0, FL::latest, "OutputTensor.Sizes[2]", "expected 3 (InputTensor.Sizes[2]), found 4");
}

TEST_CASE("the tensor rules of SPEC section 1, through HARDMAX1", "[hardmax][validate]") {
  Hardmax1Desc d = good1();
  d.input.sizes = d.output.sizes = {2, 0, 4};
  expect_rejected(d, FL::latest, "InputTensor.Sizes[1]", "expected a size of at least 1, found 0");
  d = good1();
  d.input.strides = {12, 4};
  expect_rejected(d, FL::latest, "InputTensor.Strides", "expected 3 strides (one per dimension; none for packed), found 2");
  d = good1();
  d.output.strides = {12, 0, 1};
  expect_rejected(d, FL::latest, "OutputTensor.Strides[1]", "an output must not address one element twice");
  d = good1();
  d.input.total_bytes = 64;
  expect_rejected(d, FL::latest, "InputTensor.TotalTensorSizeInBytes", "expected at least 96");
  d = good1();
  d.input.sizes = d.output.sizes = {65536, 65536, 1};
  expect_rejected(d, FL::latest, "InputTensor.Sizes", "a tensor may hold at most 4294967295 (2^32-1) elements");
  // A broadcast input is valid.
  d = good1();
  d.input.strides = {0, 4, 1};
  CHECK(validate(d).empty());
}

TEST_CASE("buffers: size, alignment, overlap and the forced path", "[hardmax][validate]") {
  const Hardmax1Desc d = good1();  // 24 FLOAT32: 96 bytes each
  auto rejected = [&](In in, Out out, const ExecuteOptions& options, const std::string& field, const std::string& message) {
    INFO("expected field " << field);
    std::vector<std::byte> before(out.begin(), out.end());
    try {
      execute(d, in, out, options);
      FAIL("execute accepted it");
    } catch (const Error& e) {
      CHECK(e.diagnostics()[0].field == field);
      CHECK_THAT(e.diagnostics()[0].message, Catch::Matchers::Contains(message));
    }
    CHECK(std::equal(before.begin(), before.end(), out.begin()));
  };
  Buffer in(96), out(200);
  rejected(in.in().first(95), out.out(), {}, "InputTensor.Binding.SizeInBytes", "expected a buffer of at least 96 bytes");
  rejected(in.in(), out.out().first(92), {}, "OutputTensor.Binding.SizeInBytes", "found 92");
  Buffer shifted(200, 2);
  rejected(in.in(), shifted.out(), {}, "OutputTensor.Binding.Offset", "expected the data pointer aligned to 4 bytes");
  rejected(Buffer(100, 1).in(), out.out(), {}, "InputTensor.Binding.Offset", "expected the data pointer aligned to 4 bytes (the FLOAT32 element size), found an address 1 byte past a multiple of 4");
  Buffer shared(200);
  rejected(shared.in().subspan(0, 96), shared.out().subspan(48, 96), {}, "OutputTensor.Binding",
           "expected no byte shared with InputTensor (these operators do not run in place), found the byte ranges "
           "from first to last addressed element overlapping");
  for (Arch a : {Arch::scalar, Arch::sse2, Arch::avx2, Arch::avx512, Arch::neon}) {
    const auto have = available_archs();
    if (std::find(have.begin(), have.end(), a) != have.end()) continue;
    rejected(in.in(), out.out(), on(a), "ExecuteOptions.arch", "expected one of the available paths");
  }
}

TEST_CASE("minimum_feature_level follows the tables", "[hardmax][validate]") {
  CHECK(minimum_feature_level(good1()) == FL::level_5_1);
  CHECK(minimum_feature_level(good0()) == FL::level_1_0);
  HardmaxDesc d = good0();
  d.input.sizes = d.output.sizes = {1, 1, 1, 2, 3};
  CHECK(minimum_feature_level(d) == FL::level_2_0);
  d.input.sizes = d.output.sizes = {7};
  CHECK(minimum_feature_level(d) == FL::level_3_0);
  d.input.sizes = d.output.sizes = {2, 2, 7};
  CHECK_FALSE(minimum_feature_level(d).has_value());
  Hardmax1Desc e = good1();
  e.axes = {};
  CHECK_FALSE(minimum_feature_level(e).has_value());
}

TEST_CASE("docs/hardmax.md holds the rendered feature-level tables", "[hardmax][docs]") {
  const std::string page = test::read_doc("hardmax.md");
  REQUIRE(!page.empty());
  CHECK_THAT(page, Catch::Matchers::Contains(detail::render_markdown(detail::hardmax1_table())));
  CHECK_THAT(page, Catch::Matchers::Contains(detail::render_markdown(detail::hardmax_table())));
}
