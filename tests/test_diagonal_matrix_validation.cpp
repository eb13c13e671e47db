// Every rule a DIAGONAL_MATRIX(1) description can break, through validate() and execute():
// the diagnostic's field and message, and an output buffer left untouched. Also the feature
// level tables, minimum_feature_level, and the docs rendered from the tables.
#include <refops/refops.hpp>

#include <algorithm>
#include <climits>
#include <string>

#include "ops/diagonal_matrix_table.hpp"
#include "support/archs.hpp"
#include "support/buffers.hpp"
#include "support/catch.hpp"
#include "support/docs.hpp"
#include "validation/level_table.hpp"

using namespace refops;
using namespace refops::test;
using FL = FeatureLevel;

namespace {

struct Expected {
  std::string field, message;  // message: a part the diagnostic must contain
};

bool has(const std::vector<Diagnostic>& d, const Expected& e) {
  return std::any_of(d.begin(), d.end(), [&](const Diagnostic& x) {
    return x.field == e.field && x.message.find(e.message) != std::string::npos;
  });
}

// execute() must throw an Error carrying the diagnostic and leave the output untouched.
template <class Run>
void check_execute_rejects(Buffer& output, const Expected& e, Run run) {
  output.fill(sentinel);
  try {
    run();
    FAIL("execute() accepted the description");
  } catch (const Error& error) {
    INFO(to_string(error.diagnostics()));
    CHECK(has(error.diagnostics(), e));
  }
  CHECK(output.all_sentinel());
}

void check_rejects(const DiagonalMatrixDesc& desc, FeatureLevel level, const Expected& e) {
  INFO("expected " << e.field << ": " << e.message);
  const auto d = validate(desc, level);
  INFO("validate: " << to_string(d));
  CHECK(has(d, e));
  Buffer output(4096);
  check_execute_rejects(output, e, [&] {
    ExecuteOptions o;
    o.feature_level = level;
    execute(desc, output.out(), o);
  });
}

void check_rejects(const DiagonalMatrix1Desc& desc, FeatureLevel level, const Expected& e) {
  INFO("expected " << e.field << ": " << e.message);
  const auto d = validate(desc, level);
  INFO("validate: " << to_string(d));
  CHECK(has(d, e));
  Buffer input(4096), output(4096);
  check_execute_rejects(output, e, [&] {
    ExecuteOptions o;
    o.feature_level = level;
    execute(desc, input.in(), output.out(), o);
  });
}

TensorDesc f32(Dims sizes, Dims strides = {}) { return {DataType::float32, sizes, strides, 0}; }

}  // namespace

TEST_CASE("DIAGONAL_MATRIX rejects what its tables and the tensor rules forbid", "[diagonal_matrix][validation]") {
  auto desc = [](TensorDesc out) { return DiagonalMatrixDesc{out, 0, 1.0f}; };
  check_rejects(desc(f32({1, 1, 2, 2})), FL::level_1_0,
                {"FeatureLevel", "DML_OPERATOR_DIAGONAL_MATRIX needs DML_FEATURE_LEVEL_2_0; validating at DML_FEATURE_LEVEL_1_0"});
  check_rejects(desc(f32({1, 1, 2, 2})), FeatureLevel{0x2200}, {"FeatureLevel", "found 0x2200"});
  check_rejects(desc({DataType::int32, {1, 1, 2, 2}, {}, 0}), FL::level_2_0,
                {"OutputTensor.DataType", "expected one of FLOAT32, FLOAT16 at DML_FEATURE_LEVEL_2_0, found INT32; it needs DML_FEATURE_LEVEL_2_1"});
  check_rejects(desc(f32({2, 2})), FL::level_2_1,
                {"OutputTensor.DimensionCount", "expected 4 at DML_FEATURE_LEVEL_2_1, found 2; it needs DML_FEATURE_LEVEL_4_0"});
  check_rejects(desc({DataType::uint64, {2, 2}, {}, 0}), FL::level_4_0,
                {"OutputTensor.DataType", "found UINT64; it needs DML_FEATURE_LEVEL_5_1"});
  check_rejects(desc(f32({1, 1, 1, 2, 2})), FL::latest, {"OutputTensor.DimensionCount", "found 5"});
  check_rejects(desc(f32({4})), FL::latest, {"OutputTensor.DimensionCount", "found 1"});
  check_rejects(desc({DataType{12}, {2, 2}, {}, 0}), FL::latest, {"OutputTensor.DataType", "found 12"});
  check_rejects(desc(f32({2, 0})), FL::latest, {"OutputTensor.Sizes[1]", "expected a size of at least 1, found 0"});
  check_rejects(desc(f32({2, 2}, {2})), FL::latest, {"OutputTensor.Strides", "expected 2 strides"});
  check_rejects(desc(f32({2, 2}, {0, 1})), FL::latest, {"OutputTensor.Strides[0]", "stride 0"});
  check_rejects(desc(f32({65536, 65536})), FL::latest, {"OutputTensor.Sizes", "at most 4294967295"});
  check_rejects(desc({DataType::float32, {2, 2}, {}, 8}), FL::latest, {"OutputTensor.TotalTensorSizeInBytes", "expected at least 16"});
}

TEST_CASE("DIAGONAL_MATRIX1 rejects what its table and rules forbid", "[diagonal_matrix][validation]") {
  auto desc = [](std::optional<TensorDesc> in, TensorDesc out, Scalar v = Scalar::of(1.0f)) {
    return DiagonalMatrix1Desc{in, out, v, 0, 1};
  };
  check_rejects(desc(std::nullopt, f32({2, 2})), FL::level_5_0,
                {"FeatureLevel", "DML_OPERATOR_DIAGONAL_MATRIX1 needs DML_FEATURE_LEVEL_5_1; validating at DML_FEATURE_LEVEL_5_0"});
  check_rejects(desc(std::nullopt, f32({2, 2}), Scalar::of(1)), FL::latest,
                {"ValueDataType", "expected FLOAT32 (the DataType of OutputTensor), found INT32"});
  check_rejects(desc(std::nullopt, {DataType::float16, {2, 2}, {}, 0}), FL::latest,
                {"ValueDataType", "expected FLOAT16 (the DataType of OutputTensor), found FLOAT32"});
  check_rejects(desc(std::nullopt, f32({1, 1, 1, 2, 2})), FL::latest, {"OutputTensor.DimensionCount", "found 5"});
  check_rejects(desc(std::nullopt, f32({2, 2}, {1, 0})), FL::latest, {"OutputTensor.Strides[1]", "stride 0"});
  check_rejects(desc(TensorDesc{DataType::int32, {2, 2}, {}, 0}, f32({2, 2})), FL::latest,
                {"InputTensor.DataType", "expected FLOAT32 (the DataType of OutputTensor), found INT32"});
  check_rejects(desc(f32({1, 2, 2}), f32({2, 2})), FL::latest,
                {"InputTensor.DimensionCount", "expected 2 (the DimensionCount of OutputTensor), found 3"});
  check_rejects(desc(f32({2, 3}), f32({2, 2})), FL::latest,
                {"InputTensor.Sizes[1]", "expected 2 (OutputTensor.Sizes[1]), found 3"});
  check_rejects(desc(f32({2, 0}), f32({2, 2})), FL::latest, {"InputTensor.Sizes[1]", "found 0"});
  check_rejects(desc(f32({2, 2}, {1}), f32({2, 2})), FL::latest, {"InputTensor.Strides", "expected 2 strides"});
  check_rejects(desc(f32({1, 1, 1, 1, 1}), f32({1, 1, 1, 1, 1})), FL::latest, {"InputTensor.DimensionCount", "found 5"});
  check_rejects(desc(TensorDesc{DataType::float32, {2, 2}, {}, 4}, f32({2, 2})), FL::latest,
                {"InputTensor.TotalTensorSizeInBytes", "expected at least 16"});
}

TEST_CASE("DIAGONAL_MATRIX(1) execute() checks the buffers and the forced arch", "[diagonal_matrix][validation]") {
  const TensorDesc out{DataType::float32, {3, 4}, {}, 0};
  const DiagonalMatrixDesc dm{out, 0, 1.0f};
  Buffer small(47), misaligned(48, 2), output(48);
  check_execute_rejects(small, {"OutputTensor.Binding.SizeInBytes", "expected a buffer of at least 48 bytes"},
                        [&] { execute(dm, small.out()); });
  check_execute_rejects(misaligned, {"OutputTensor.Binding.Offset", "aligned to 4 bytes"},
                        [&] { execute(dm, misaligned.out()); });

  const DiagonalMatrix1Desc dm1{out, out, Scalar::of(2.0f), 0, 1};
  Buffer input(48), small_input(40), misaligned_input(48, 2);
  check_execute_rejects(output, {"InputTensor.Binding.SizeInBytes", "found 40"},
                        [&] { execute(dm1, small_input.in(), output.out()); });
  check_execute_rejects(output, {"InputTensor.Binding.Offset", "aligned to 4 bytes"},
                        [&] { execute(dm1, misaligned_input.in(), output.out()); });
  check_execute_rejects(small, {"OutputTensor.Binding.SizeInBytes", "found 47"},
                        [&] { execute(dm1, input.in(), small.out()); });
  // The output overlapping the input (in place) is refused.
  Buffer shared(96);
  shared.fill(sentinel);
  try {
    execute(dm1, In(shared.data() + 16, 48), Out(shared.data(), 48));
    FAIL("execute() accepted overlapping buffers");
  } catch (const Error& e) {
    CHECK(has(e.diagnostics(), {"OutputTensor.Binding", "expected no byte shared with InputTensor"}));
  }
  CHECK(shared.all_sentinel());

  // A path this CPU or build lacks.
  for (Arch arch : {Arch::scalar, Arch::sse2, Arch::avx2, Arch::avx512, Arch::neon}) {
    const auto archs = available_archs();
    if (std::find(archs.begin(), archs.end(), arch) != archs.end()) continue;
    check_execute_rejects(output, {"ExecuteOptions.arch", ""}, [&] { execute(dm, output.out(), on(arch)); });
    check_execute_rejects(output, {"ExecuteOptions.arch", ""}, [&] { execute(dm1, input.in(), output.out(), on(arch)); });
  }
}

TEST_CASE("DIAGONAL_MATRIX(1) minimum_feature_level follows the tables", "[diagonal_matrix][validation]") {
  CHECK(minimum_feature_level(DiagonalMatrixDesc{f32({1, 1, 3, 3}), 0, 1.0f}) == FL::level_2_0);
  CHECK(minimum_feature_level(DiagonalMatrixDesc{{DataType::int8, {1, 1, 3, 3}, {}, 0}, 0, 1.0f}) == FL::level_2_1);
  CHECK(minimum_feature_level(DiagonalMatrixDesc{{DataType::float16, {3, 3}, {}, 0}, 0, 1.0f}) == FL::level_4_0);
  CHECK(minimum_feature_level(DiagonalMatrixDesc{{DataType::int64, {3, 3}, {}, 0}, 0, 1.0f}) == FL::level_5_1);
  CHECK(minimum_feature_level(DiagonalMatrixDesc{f32({3}), 0, 1.0f}) == std::nullopt);
  CHECK(minimum_feature_level(DiagonalMatrix1Desc{std::nullopt, f32({3, 3}), Scalar::of(1.0f), 0, 1}) == FL::level_5_1);
  CHECK(minimum_feature_level(DiagonalMatrix1Desc{std::nullopt, f32({3, 3}), Scalar::of(1.0), 0, 1}) == std::nullopt);
  // Valid descriptions are valid at every level from there on, with any band.
  CHECK(validate(DiagonalMatrix1Desc{f32({2, 3, 3}, {0, 0, 1}), f32({2, 3, 3}), Scalar::of(1.0f), INT32_MAX, INT32_MIN}).empty());
  CHECK(validate(DiagonalMatrixDesc{{DataType::uint8, {1, 1, 3, 3}, {}, 0}, INT32_MIN, std::nanf("")}, FL::level_6_4).empty());
}

TEST_CASE("docs/diagonal_matrix.md holds the tables rendered from the code", "[diagonal_matrix][docs]") {
  const std::string page = test::read_doc("diagonal_matrix.md");
  REQUIRE(!page.empty());
  CHECK_THAT(page, Catch::Matchers::Contains(detail::render_markdown(detail::diagonal_matrix_table())));
  CHECK_THAT(page, Catch::Matchers::Contains(detail::render_markdown(detail::diagonal_matrix1_table())));
}
