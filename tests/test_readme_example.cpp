// The usage example of README.md, as it stands there, so the README cannot drift from the API.
#include <cstdint>
#include <span>
#include <vector>

#include <refops/refops.hpp>

#include "support/catch.hpp"

TEST_CASE("the README's usage example compiles and gives the output it shows", "[readme]") {
  // --- README.md "Use" block, verbatim ---
  // ONE_HOT as DirectML describes it: indices {3,1} -> output {3,4}, one-hot along axis 1.
  refops::OneHotDesc desc;
  desc.indices.data_type = refops::DataType::int32;   desc.indices.sizes = {3, 1};
  desc.values.data_type  = refops::DataType::float32; desc.values.sizes  = {1, 2};  // {off, on}
  desc.output.data_type  = refops::DataType::float32; desc.output.sizes  = {3, 4};
  desc.axis = 1;

  std::vector<std::int32_t> indices{0, -1, 9};           // -1 counts from the end; 9 is all off
  std::vector<float> values{0.0f, 1.0f}, output(12);

  auto problems = refops::validate(desc, refops::FeatureLevel::level_3_0);  // empty: valid there
  auto level = refops::minimum_feature_level(desc);                         // level_3_0
  refops::execute(desc, std::as_bytes(std::span(indices)), std::as_bytes(std::span(values)),
                  std::as_writable_bytes(std::span(output)));               // throws refops::Error if invalid
  // output: 1 0 0 0 | 0 0 0 1 | 0 0 0 0
  // --- end of the README block ---

  CHECK(problems.empty());
  CHECK(level == refops::FeatureLevel::level_3_0);
  CHECK(output == std::vector<float>{1, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0});
  CHECK_FALSE(refops::validate(desc, refops::FeatureLevel::level_2_1).empty());  // INT32 indices need 3_0
}
