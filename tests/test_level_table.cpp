// The feature-level machinery with ONE_HOT's own table (SPEC section 2) as the example.
#include <refops/refops.hpp>

#include "support/catch.hpp"
#include "validation/level_table.hpp"

using namespace refops;
using detail::TensorSupport;
using FL = FeatureLevel;

namespace {
constexpr detail::TypeSet f32_f16{DataType::float32, DataType::float16};
constexpr TensorSupport output_rows[] = {
    {FL::level_2_0, 4, 4, f32_f16},
    {FL::level_3_0, 1, 8, f32_f16},
    {FL::level_4_1, 1, 8, detail::all_eleven_types}};
constexpr detail::TensorTable tensors[] = {{"OutputTensor", output_rows}};
constexpr detail::OperatorTable table{"DML_OPERATOR_EXAMPLE", FL::level_2_0, tensors};

std::vector<Diagnostic> check(const TensorDesc& desc, FeatureLevel level) {
  std::vector<Diagnostic> out;
  if (detail::check_level(table, level, out)) detail::check_support(table, "OutputTensor", desc, level, out);
  return out;
}
}  // namespace

TEST_CASE("a level table accepts what its row allows", "[level_table]") {
  CHECK(check({DataType::float16, {1, 1, 2, 3}, {}, 0}, FL::level_2_0).empty());
  CHECK(check({DataType::float32, {3}, {}, 0}, FL::level_3_0).empty());
  CHECK(check({DataType::int64, {3}, {}, 0}, FL::level_5_1).empty());  // rows apply upward
}

TEST_CASE("a miss names what the level supports and the first level that has it", "[level_table]") {
  auto d = check({DataType::float32, {2, 3}, {}, 0}, FL::level_2_1);
  REQUIRE(d.size() == 1);
  CHECK(d[0].field == "OutputTensor.DimensionCount");
  CHECK(d[0].message == "expected 4 at DML_FEATURE_LEVEL_2_1, found 2; it needs DML_FEATURE_LEVEL_3_0");

  d = check({DataType::uint64, {2, 3}, {}, 0}, FL::level_3_0);
  REQUIRE(d.size() == 1);
  CHECK(d[0].field == "OutputTensor.DataType");
  CHECK(d[0].message ==
        "expected one of FLOAT32, FLOAT16 at DML_FEATURE_LEVEL_3_0, found UINT64; it needs DML_FEATURE_LEVEL_4_1");
}

TEST_CASE("a level that allows one type names it without a list", "[level_table]") {
  static constexpr detail::TypeSet u32{DataType::uint32};
  static constexpr TensorSupport rows[] = {{FL::level_2_0, 4, 4, u32}};
  static constexpr detail::TensorTable one[] = {{"IndicesTensor", rows}};
  static constexpr detail::OperatorTable op{"DML_OPERATOR_EXAMPLE", FL::level_2_0, one};
  std::vector<Diagnostic> d;
  detail::check_support(op, "IndicesTensor", {DataType::int64, {1, 1, 1, 1}, {}, 0}, FL::level_2_1, d);
  REQUIRE(d.size() == 1);
  CHECK(d[0].message == "expected UINT32 at DML_FEATURE_LEVEL_2_1, found INT64; no feature level supports it");
}

TEST_CASE("an operator is unknown below the level that introduced it", "[level_table]") {
  auto d = check({DataType::float32, {1, 1, 1, 2}, {}, 0}, FL::level_1_0);
  REQUIRE(d.size() == 1);
  CHECK(d[0].field == "FeatureLevel");
  CHECK(d[0].message == "DML_OPERATOR_EXAMPLE needs DML_FEATURE_LEVEL_2_0; validating at DML_FEATURE_LEVEL_1_0");
  d = check({DataType::float32, {1, 1, 1, 2}, {}, 0}, FeatureLevel{0x2200});
  REQUIRE(d.size() == 1);
  CHECK(d[0].message == "expected one of the DML_FEATURE_LEVEL values 0x1000, 0x2000, 0x2100, 0x3000, 0x3100, 0x4000, 0x4100, 0x5000, 0x5100, 0x5200, 0x6000, 0x6100, 0x6200, 0x6300, 0x6400 (DML_FEATURE_LEVEL_1_0 to DML_FEATURE_LEVEL_6_4), found 0x2200");
}

TEST_CASE("the lowest valid level follows from the table", "[level_table]") {
  auto lowest = [](const TensorDesc& desc) {
    return detail::lowest_valid_level(desc, [](const TensorDesc& d, FeatureLevel l) { return check(d, l); });
  };
  CHECK(lowest({DataType::float16, {1, 1, 2, 3}, {}, 0}) == FL::level_2_0);
  CHECK(lowest({DataType::float16, {2, 3}, {}, 0}) == FL::level_3_0);
  CHECK(lowest({DataType::int8, {2, 3}, {}, 0}) == FL::level_4_1);
}

TEST_CASE("the table renders as the Markdown the docs hold", "[level_table]") {
  const std::string md = detail::render_markdown(table);
  CHECK_THAT(md, Catch::Matchers::Contains("### DML_FEATURE_LEVEL_4_1 and above"));
  CHECK_THAT(md, Catch::Matchers::Contains(
                     "| OutputTensor | 1 to 8 | FLOAT64, FLOAT32, FLOAT16, INT64, INT32, INT16, INT8, UINT64, UINT32, UINT16, UINT8 |"));
  CHECK(md.find("4_1 and above") < md.find("2_0 and above"));
}
