// The tensor rules of SPEC section 1, each broken once: the diagnostic names the field in
// DirectML's words and says what was expected and what was found. Every operator's tests
// break them again through its own validate() and execute() with a sentinel-filled output.
#include <refops/refops.hpp>

#include "support/buffers.hpp"
#include "support/catch.hpp"
#include "validation/tensor_rules.hpp"

using namespace refops;
using detail::TensorRole;

namespace {
std::vector<Diagnostic> check(const TensorDesc& desc, TensorRole role = TensorRole::output) {
  std::vector<Diagnostic> out;
  detail::check_tensor(desc, "OutputTensor", role, out);
  return out;
}
void require_one(const std::vector<Diagnostic>& d, const std::string& field, const std::string& says) {
  INFO(to_string(d));
  REQUIRE(d.size() == 1);
  CHECK(d[0].field == field);
  CHECK_THAT(d[0].message, Catch::Matchers::Contains(says));
}
}  // namespace

TEST_CASE("a valid tensor passes every rule", "[tensor_rules]") {
  CHECK(check({DataType::float32, {2, 3, 4}, {}, 0}).empty());
  CHECK(check({DataType::uint8, {2, 3}, {8, 2}, 0}).empty());
  CHECK(check({DataType::float16, {2, 3}, {1, 2}, 64}).empty());
  CHECK(check({DataType::int64, {4, 1}, {1, 0}, 0}).empty());  // stride 0 on a size-1 dimension
  CHECK(check({DataType::float32, {2, 3}, {0, 1}, 0}, TensorRole::input).empty());  // input broadcast
  // Every other column of a {4,5} matrix (NumPy's a[:, ::2]): unique, though 5 < 2 x 3.
  CHECK(check({DataType::float32, {4, 3}, {5, 2}, 0}).empty());
}

TEST_CASE("each tensor rule broken once", "[tensor_rules]") {
  require_one(check({DataType{0}, {2}, {}, 0}), "OutputTensor.DataType", "found 0");
  require_one(check({DataType::float32, {}, {}, 0}), "OutputTensor.DimensionCount", "found 0");
  require_one(check({DataType::float32, {2, 0, 3}, {}, 0}), "OutputTensor.Sizes[1]", "found 0");
  require_one(check({DataType::float32, {2, 3}, {1}, 0}), "OutputTensor.Strides", "expected 2 strides");
  require_one(check({DataType::uint8, {65536, 65536}, {}, 0}), "OutputTensor.Sizes", "4294967295");
  require_one(check({DataType::int64, {0xFFFFFFFFu}, {0xFFFFFFFFu}, 0}, TensorRole::input),
              "OutputTensor.Strides", "past byte 2^64 - 1, so the buffer size has no 64-bit value");
  require_one(check({DataType::float32, {2, 3}, {}, 20}), "OutputTensor.TotalTensorSizeInBytes",
              "expected at least 24");
  require_one(check({DataType::float32, {2, 3}, {0, 1}, 0}), "OutputTensor.Strides[0]", "stride 0");
  require_one(check({DataType::float32, {2, 3}, {2, 1}, 0}), "OutputTensor.Strides[0]",
              "expected a stride of at least 3");
  require_one(check({DataType::float32, {3, 2}, {1, 1}, 0}), "OutputTensor.Strides[1]",
              "has stride 1, so a step along it lands inside the elements the dimensions with smaller strides "
              "already reach; expected a stride of at least 3, so that each step passes all of them");
}

TEST_CASE("bindings: size, alignment and overlap", "[tensor_rules]") {
  const TensorDesc desc{DataType::float32, {2, 3}, {}, 0};
  test::Buffer ok(24), small(20), misaligned(24, 2);
  std::vector<Diagnostic> d;
  detail::check_binding(desc, "OutputTensor", ok.in(), d);
  CHECK(d.empty());

  detail::check_binding(desc, "OutputTensor", small.in(), d);
  require_one(d, "OutputTensor.Binding.SizeInBytes", "at least 24 bytes");
  d.clear();
  TensorDesc declared = desc;
  declared.total_bytes = 32;  // a declared TotalTensorSizeInBytes must fit in the buffer too
  detail::check_binding(declared, "OutputTensor", ok.in(), d);
  require_one(d, "OutputTensor.Binding.SizeInBytes", "TotalTensorSizeInBytes");
  d.clear();
  detail::check_binding(desc, "OutputTensor", misaligned.in(), d);
  require_one(d, "OutputTensor.Binding.Offset", "aligned to 4 bytes");
  d.clear();

  test::Buffer shared(64);
  In first{shared.data(), 24}, inside{shared.data() + 20, 24}, after{shared.data() + 24, 24};
  detail::check_no_overlap({desc, "OutputTensor", first}, {desc, "InputTensor", after}, d);
  CHECK(d.empty());
  detail::check_no_overlap({desc, "OutputTensor", first}, {desc, "InputTensor", inside}, d);
  require_one(d, "OutputTensor.Binding", "InputTensor");
}

TEST_CASE("an input inside the output's padding overlaps: the message says byte ranges are compared", "[tensor_rules]") {
  // Output rows of 2 FLOAT32 elements, 4 apart: bytes 8-15 are padding no element uses.
  const TensorDesc output{DataType::float32, {2, 2}, {4, 1}, 0}, input{DataType::float32, {2}, {}, 0};
  test::Buffer shared(64);
  std::vector<Diagnostic> d;
  detail::check_no_overlap({output, "OutputTensor", {shared.data(), 24}}, {input, "InputTensor", {shared.data() + 8, 8}}, d);
  require_one(d, "OutputTensor.Binding",
              "expected no byte shared with InputTensor (these operators do not run in place), found the byte "
              "ranges from first to last addressed element overlapping: OutputTensor spans bytes 0 to 24 and "
              "InputTensor bytes 8 to 16, counted from OutputTensor's first byte (whole ranges are compared, so "
              "an input lying in the output's padding between elements counts as overlapping)");
}

TEST_CASE("shape helpers name the tensor they compare with", "[tensor_rules]") {
  std::vector<Diagnostic> d;
  detail::check_same_sizes({DataType::float32, {2, 3}, {}, 0}, "InputTensor",
                           {DataType::float32, {2, 4}, {}, 0}, "OutputTensor", d);
  require_one(d, "InputTensor.Sizes[1]", "expected 4 (OutputTensor.Sizes[1]), found 3");
  d.clear();
  detail::check_same_sizes({DataType::float32, {2}, {}, 0}, "InputTensor",
                           {DataType::float32, {2, 4}, {}, 0}, "OutputTensor", d);
  require_one(d, "InputTensor.DimensionCount", "expected 2");
  d.clear();
  detail::check_same_type({DataType::int8, {2}, {}, 0}, "ValuesTensor",
                          {DataType::float32, {2}, {}, 0}, "OutputTensor", d);
  require_one(d, "ValuesTensor.DataType", "expected FLOAT32 (the DataType of OutputTensor), found INT8");
}

TEST_CASE("Error carries its diagnostics and says them in what()", "[tensor_rules]") {
  Error e({{"Axis", "expected less than 4, found 4"}, {"OutputTensor.Sizes[0]", "expected 1, found 2"}});
  CHECK(e.diagnostics().size() == 2);
  CHECK(std::string(e.what()) == "Axis: expected less than 4, found 4\nOutputTensor.Sizes[0]: expected 1, found 2");
}
