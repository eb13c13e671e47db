#include <refops/refops.hpp>

#include "support/catch.hpp"

using namespace refops;

TEST_CASE("Dims holds up to 8 values inline", "[dims]") {
  Dims d{1, 1, 3, 4};
  REQUIRE(d.size() == 4);
  CHECK(d[2] == 3);
  CHECK(std::vector<std::uint32_t>(d.begin(), d.end()) == std::vector<std::uint32_t>{1, 1, 3, 4});
  CHECK(Dims{}.empty());
  CHECK(Dims{1, 2} == Dims{1, 2});
  CHECK_FALSE(Dims{1, 2} == Dims{1, 2, 3});
  d.insert(1, 9);
  CHECK(d == Dims{1, 9, 1, 3, 4});
  CHECK_NOTHROW(Dims{1, 2, 3, 4, 5, 6, 7, 8});
  // More than 8 values: an Error naming DimensionCount, like every other bad description.
  try {
    (void)Dims{1, 2, 3, 4, 5, 6, 7, 8, 9};
    FAIL("a Dims took 9 values");
  } catch (const Error& e) {
    REQUIRE(e.diagnostics().size() == 1);
    CHECK(e.diagnostics()[0].field == "DimensionCount");
    CHECK(e.diagnostics()[0].message ==
          "expected at most 8 values (sizes, strides or axes: DirectML's largest DimensionCount), found 9");
  }
  Dims full{1, 2, 3, 4, 5, 6, 7, 8};
  CHECK_THROWS_AS(full.push_back(1), Error);
}

TEST_CASE("every DataType has DirectML's value, size and name", "[types]") {
  struct Row { DataType type; std::uint32_t value; std::size_t size; std::string_view name; };
  const Row rows[] = {{DataType::float32, 1, 4, "FLOAT32"}, {DataType::float16, 2, 2, "FLOAT16"},
                      {DataType::uint32, 3, 4, "UINT32"},   {DataType::uint16, 4, 2, "UINT16"},
                      {DataType::uint8, 5, 1, "UINT8"},     {DataType::int32, 6, 4, "INT32"},
                      {DataType::int16, 7, 2, "INT16"},     {DataType::int8, 8, 1, "INT8"},
                      {DataType::float64, 9, 8, "FLOAT64"}, {DataType::uint64, 10, 8, "UINT64"},
                      {DataType::int64, 11, 8, "INT64"}};
  for (const Row& r : rows) {
    INFO(r.name);
    CHECK(static_cast<std::uint32_t>(r.type) == r.value);
    CHECK(size_of(r.type) == r.size);
    CHECK(name_of(r.type) == r.name);
    CHECK(is_valid(r.type));
    visit_data_type(r.type, [&](auto tag) {
      CHECK(data_type_v<decltype(tag)> == r.type);
      CHECK(sizeof(tag) == r.size);
    });
  }
  CHECK_FALSE(is_valid(DataType{0}));
  CHECK_FALSE(is_valid(DataType{12}));
  CHECK(size_of(DataType{12}) == 0);
  CHECK(sizeof(float16) == 2);
}

TEST_CASE("feature levels have DirectML's values and names", "[types]") {
  CHECK(static_cast<std::uint32_t>(FeatureLevel::level_5_1) == 0x5100);
  CHECK(FeatureLevel::latest == FeatureLevel::level_6_4);
  CHECK(name_of(FeatureLevel::level_2_1) == "DML_FEATURE_LEVEL_2_1");
  CHECK(std::size(all_feature_levels) == 15);
  for (std::size_t i = 1; i < std::size(all_feature_levels); ++i)
    CHECK(all_feature_levels[i - 1] < all_feature_levels[i]);
  CHECK(is_valid(FeatureLevel::level_6_3));
  CHECK_FALSE(is_valid(FeatureLevel{0x2200}));
}

TEST_CASE("TensorView computes packed strides and offsets", "[types]") {
  float data[24] = {};
  auto v = make_view(data, Dims{2, 3, 4});
  CHECK(v.strides() == Dims{12, 4, 1});
  CHECK(v.element_count() == 24);
  CHECK(v.offset_of(Dims{1, 2, 3}) == 23);
  auto t = make_view(data, Dims{2, 3}, Dims{1, 2});
  CHECK(t.offset_of(Dims{1, 2}) == 5);
  TensorView<const float> c = v;
  CHECK(c.data() == data);
}
