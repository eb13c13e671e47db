// Every rule of SPEC sections 1 and 2 that a ONE_HOT description can break, broken once through
// validate() and through execute(): the diagnostic's field (DirectML's words) and message, and
// an output buffer that still holds only the sentinel. Also the feature-level table: the
// lowest valid level, and the table as docs/one_hot.md renders it.
#include <refops/refops.hpp>


#include "ops/one_hot_table.hpp"
#include "support/archs.hpp"
#include "support/buffers.hpp"
#include "support/catch.hpp"
#include "support/docs.hpp"

using namespace refops;
using namespace refops::test;
using FL = FeatureLevel;

namespace {

// Valid: output {2,3,4} FLOAT32 with the axis in the middle.
OneHotDesc valid_desc() {
  return {{DataType::uint32, {2, 1, 4}, {}, 0},
          {DataType::float32, {1, 1, 2}, {}, 0},
          {DataType::float32, {2, 3, 4}, {}, 0},
          1};
}

bool has(const std::vector<Diagnostic>& d, const std::string& field, const std::string& says) {
  for (const auto& x : d)
    if (x.field == field && x.message.find(says) != std::string::npos) return true;
  return false;
}

// A buffer for what `desc` addresses; a small one when its size is undefined or huge (those
// descriptions fail validation before any binding is looked at).
Buffer buffer_for(const TensorDesc& desc) {
  std::uint64_t bytes = 64;
  try {
    bytes = calc_buffer_tensor_size(desc);
  } catch (const Error&) {
  }
  return Buffer(bytes <= (1u << 20) ? static_cast<std::size_t>(bytes) : 64);
}

// Buffers that hold what `desc` addresses (with in-range indices when the type allows).
struct Bound {
  Buffer indices, values, output;
  explicit Bound(const OneHotDesc& desc)
      : indices(buffer_for(desc.indices)),
        values(buffer_for(desc.values)),
        output(buffer_for(desc.output)) {
    indices.fill(std::byte{0});
    values.fill(std::byte{0x3F});
  }
};

// Broken once: validate() names it alone (when `alone`), execute() throws it and writes nothing.
void require_rejected(const OneHotDesc& desc, const std::string& field, const std::string& says,
                      FL level = FL::latest, bool alone = true) {
  const auto d = validate(desc, level);
  INFO(to_string(d));
  if (alone) CHECK(d.size() == 1);
  CHECK(has(d, field, says));
  Bound b(desc);
  try {
    execute(desc, b.indices.in(), b.values.in(), b.output.out(), on(available_archs().front(), level));
    FAIL("execute() accepted a description broken at " << field);
  } catch (const Error& e) {
    CHECK(has(e.diagnostics(), field, says));
  }
  CHECK(b.output.all_sentinel());
}

// execute() with the given spans rejects the binding at `field` and writes nothing.
void require_binding_rejected(const OneHotDesc& desc, In indices, In values, Buffer& output, Out out,
                              const std::string& field, const std::string& says,
                              const ExecuteOptions& options = {}) {
  CHECK(validate(desc).empty());
  try {
    execute(desc, indices, values, out, options);
    FAIL("execute() accepted a bad binding at " << field);
  } catch (const Error& e) {
    INFO(to_string(e.diagnostics()));
    CHECK(has(e.diagnostics(), field, says));
  }
  CHECK(output.all_sentinel());
}

}  // namespace

TEST_CASE("a valid ONE_HOT description passes", "[one_hot][validation]") {
  CHECK(validate(valid_desc()).empty());
  CHECK(validate(valid_desc(), FL::level_3_0).empty());
}

TEST_CASE("ONE_HOT: each tensor rule of SPEC section 1 broken once", "[one_hot][validation]") {
  auto d = valid_desc();
  d.indices.data_type = DataType{0};
  require_rejected(d, "IndicesTensor.DataType", "found 0");

  d = valid_desc();
  d.output.sizes = {};
  require_rejected(d, "OutputTensor.DimensionCount", "found 0");

  d = valid_desc();
  d.output.sizes[2] = 0;
  d.indices.sizes[2] = 0;
  require_rejected(d, "OutputTensor.Sizes[2]", "found 0", FL::latest, false);

  d = valid_desc();
  d.values.strides = {1, 1};
  require_rejected(d, "ValuesTensor.Strides", "expected 3 strides");

  d = valid_desc();
  d.output.sizes = {65536, 65536, 4};
  d.indices.sizes = {65536, 1, 4};
  require_rejected(d, "OutputTensor.Sizes", "4294967295");

  d = valid_desc();
  d.values.total_bytes = 4;
  require_rejected(d, "ValuesTensor.TotalTensorSizeInBytes", "expected at least 8");

  d = valid_desc();
  d.output.strides = {12, 0, 1};  // two sequence positions on one element
  require_rejected(d, "OutputTensor.Strides[1]", "stride 0");

  d = valid_desc();
  d.output.strides = {4, 4, 1};  // rows of the axis overlap the inner dimension: not unique
  require_rejected(d, "OutputTensor.Strides[1]", "expected a stride of at least 8, so that each step passes all of them");
}

TEST_CASE("ONE_HOT: each shape rule of SPEC section 2 broken once", "[one_hot][validation]") {
  auto d = valid_desc();
  d.axis = 3;
  require_rejected(d, "Axis", "expected less than 3 (the DimensionCount of OutputTensor), found 3");

  d = valid_desc();
  d.indices.sizes = {2, 4};
  require_rejected(d, "IndicesTensor.DimensionCount", "expected 3");

  d = valid_desc();
  d.values.sizes = {1, 2};
  require_rejected(d, "ValuesTensor.DimensionCount", "expected 3");

  d = valid_desc();
  d.indices.sizes = {2, 3, 4};
  require_rejected(d, "IndicesTensor.Sizes[1]", "expected 1 (the size at Axis), found 3");

  d = valid_desc();
  d.indices.sizes = {2, 1, 5};
  require_rejected(d, "IndicesTensor.Sizes[2]", "expected 4 (OutputTensor.Sizes[2]), found 5");

  d = valid_desc();
  d.values.sizes = {1, 1, 1};
  require_rejected(d, "ValuesTensor.Sizes", "expected at least 2 elements (OffValue and OnValue), found 1");

  d = valid_desc();
  d.values.data_type = DataType::float16;
  require_rejected(d, "ValuesTensor.DataType", "expected FLOAT32 (the DataType of OutputTensor), found FLOAT16");

  d = valid_desc();
  d.indices.data_type = DataType::float32;
  require_rejected(d, "IndicesTensor.DataType", "expected one of INT64, INT32, UINT64, UINT32");
}

TEST_CASE("ONE_HOT: feature-level misses name the first level that has the value", "[one_hot][validation]") {
  auto d = valid_desc();
  d.indices.data_type = DataType::int64;
  require_rejected(d, "IndicesTensor.DataType", "it needs DML_FEATURE_LEVEL_3_0", FL::level_2_1, false);

  d = valid_desc();  // rank 3 needs 3_0: all three tensors say so
  require_rejected(d, "OutputTensor.DimensionCount", "expected 4 at DML_FEATURE_LEVEL_2_1, found 3; it needs DML_FEATURE_LEVEL_3_0",
                   FL::level_2_1, false);

  d = {{DataType::uint32, {1, 1, 3, 1}, {}, 0},
       {DataType::int8, {1, 1, 1, 2}, {}, 0},
       {DataType::int8, {1, 1, 3, 4}, {}, 0},
       3};
  require_rejected(d, "OutputTensor.DataType", "it needs DML_FEATURE_LEVEL_2_1", FL::level_2_0, false);
  d.values.data_type = d.output.data_type = DataType::float64;
  require_rejected(d, "ValuesTensor.DataType", "it needs DML_FEATURE_LEVEL_4_1", FL::level_3_0, false);

  require_rejected(valid_desc(), "FeatureLevel", "needs DML_FEATURE_LEVEL_2_0", FL::level_1_0);
}

TEST_CASE("ONE_HOT: bindings that do not fit are rejected before anything is written", "[one_hot][validation]") {
  const auto d = valid_desc();
  Bound b(d);
  require_binding_rejected(d, b.indices.in().first(8), b.values.in(), b.output, b.output.out(),
                           "IndicesTensor.Binding.SizeInBytes", "expected a buffer of at least 32 bytes");
  Buffer misaligned(96 + 2, 2);
  require_binding_rejected(d, b.indices.in(), b.values.in(), misaligned, misaligned.out(),
                           "OutputTensor.Binding.Offset", "aligned to 4 bytes");

  // The output shares bytes with the indices, then with the values.
  Buffer shared(96 + 32 + 8);
  require_binding_rejected(d, In(shared.data() + 64, 32), b.values.in(), shared, shared.out(),
                           "OutputTensor.Binding", "IndicesTensor");
  require_binding_rejected(d, b.indices.in(), In(shared.data() + 8, 8), shared, shared.out(),
                           "OutputTensor.Binding", "ValuesTensor");

  for (Arch arch : {Arch::scalar, Arch::sse2, Arch::avx2, Arch::avx512, Arch::neon}) {
    bool available = false;
    for (Arch a : available_archs()) available |= a == arch;
    if (available) continue;
    require_binding_rejected(d, b.indices.in(), b.values.in(), b.output, b.output.out(), "ExecuteOptions.arch",
                             std::string(name_of(arch)), on(arch));
  }
}

// execute() validates a description once per thread and keeps each tensor's addressed bytes
// with it (src/ops/validated_once.hpp): a call with the same description must still check its
// buffers, and a description that differs only in its strides must not use the kept sizes.
TEST_CASE("ONE_HOT: bindings are checked on every call, against the description of that call", "[one_hot][validation]") {
  const auto d = valid_desc();
  Bound b(d);
  execute(d, b.indices.in(), b.values.in(), b.output.out());  // validated and kept
  Buffer small(95);
  require_binding_rejected(d, b.indices.in(), b.values.in(), small, small.out(), "OutputTensor.Binding.SizeInBytes",
                           "expected a buffer of at least 96 bytes");

  auto padded = d;  // output rows 16 elements apart: the last element ends at byte 112
  padded.output.strides = {16, 4, 1};
  Buffer packed_size(96);
  require_binding_rejected(padded, b.indices.in(), b.values.in(), packed_size, packed_size.out(),
                           "OutputTensor.Binding.SizeInBytes", "expected a buffer of at least 112 bytes");
  Buffer padded_size(112);
  execute(padded, b.indices.in(), b.values.in(), padded_size.out());
  CHECK_FALSE(padded_size.all_sentinel());
  require_binding_rejected(d, b.indices.in(), b.values.in(), small, small.out(), "OutputTensor.Binding.SizeInBytes",
                           "expected a buffer of at least 96 bytes");
}

TEST_CASE("ONE_HOT: the lowest valid feature level follows the table", "[one_hot][validation]") {
  OneHotDesc d{{DataType::uint32, {1, 1, 3, 1}, {}, 0},
               {DataType::float16, {1, 1, 1, 2}, {}, 0},
               {DataType::float16, {1, 1, 3, 4}, {}, 0},
               3};
  CHECK(minimum_feature_level(d) == FL::level_2_0);
  d.values.data_type = d.output.data_type = DataType::uint8;
  CHECK(minimum_feature_level(d) == FL::level_2_1);
  d.indices.data_type = DataType::int32;
  CHECK(minimum_feature_level(d) == FL::level_3_0);
  d.values.data_type = d.output.data_type = DataType::uint64;
  CHECK(minimum_feature_level(d) == FL::level_4_1);
  CHECK(minimum_feature_level(valid_desc()) == FL::level_3_0);
  d.axis = 4;
  CHECK(minimum_feature_level(d) == std::nullopt);
}

TEST_CASE("docs/one_hot.md holds the feature-level table as rendered from the validator's", "[one_hot][docs]") {
  const std::string page = test::read_doc("one_hot.md");
  REQUIRE(!page.empty());
  CHECK_THAT(page, Catch::Matchers::Contains(detail::render_markdown(detail::one_hot_table())));
}
