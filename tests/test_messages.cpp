// The messages issue 11 found unclear, each seen through the call a user makes: the field and
// the whole message are checked, and a rejected execute() leaves its output untouched.
#include <refops/refops.hpp>

#include <cstdint>
#include <cstring>
#include <functional>
#include <string>

#include "support/archs.hpp"
#include "support/buffers.hpp"
#include "support/catch.hpp"

using namespace refops;
using test::Buffer;

namespace {

// `run` throws Error with exactly one Diagnostic: this field and this message.
void require_error(const std::function<void()>& run, const std::string& field, const std::string& message) {
  try {
    run();
    FAIL("expected an Error at " << field);
  } catch (const Error& e) {
    INFO(e.what());
    REQUIRE(e.diagnostics().size() == 1);
    CHECK(e.diagnostics()[0].field == field);
    CHECK(e.diagnostics()[0].message == message);
  }
}

// ONE_HOT example 1's description (SPEC section 2) and buffers with the sentinel in the output.
struct OneHotExample {
  OneHotDesc desc{{DataType::uint32, {1, 1, 3, 1}, {}, 0},
                  {DataType::float32, {1, 1, 1, 2}, {}, 0},
                  {DataType::float32, {1, 1, 3, 4}, {}, 0},
                  3};
  Buffer indices{12}, values{8}, output{48};
  OneHotExample() {
    const std::uint32_t i[] = {0, 3, 2};
    const float v[] = {0, 1};
    std::memcpy(indices.data(), i, sizeof i);
    std::memcpy(values.data(), v, sizeof v);
  }
  void run(Out out, const ExecuteOptions& options = {}) { execute(desc, indices.in(), values.in(), out, options); }
};

}  // namespace

TEST_CASE("messages: a FeatureLevel inside 0x1000-0x6400 that is no level lists the levels", "[messages]") {
  OneHotExample x;
  require_error([&] { x.run(x.output.out(), test::on(available_archs().front(), FeatureLevel{0x1001})); },
                "FeatureLevel",
                "expected one of the DML_FEATURE_LEVEL values 0x1000, 0x2000, 0x2100, 0x3000, 0x3100, 0x4000, "
                "0x4100, 0x5000, 0x5100, 0x5200, 0x6000, 0x6100, 0x6200, 0x6300, 0x6400 "
                "(DML_FEATURE_LEVEL_1_0 to DML_FEATURE_LEVEL_6_4), found 0x1001");
  CHECK(x.output.all_sentinel());
}

TEST_CASE("messages: an input in the output's padding overlaps by byte range, and says so", "[messages]") {
  // DIAGONAL_MATRIX1 output {2,2} FLOAT32 with rows 8 elements apart: its elements are bytes
  // 0-7 and 32-39; the input {2,2} sits at bytes 12-27, in the padding, sharing no byte.
  DiagonalMatrix1Desc desc{TensorDesc{DataType::float32, {2, 2}, {}, 0},
                           {DataType::float32, {2, 2}, {8, 1}, 0}, Scalar::of(1.0f), 0, 1};
  Buffer shared(64);
  require_error([&] { execute(desc, In(shared.data() + 12, 16), Out(shared.data(), 40)); }, "OutputTensor.Binding",
                "expected no byte shared with InputTensor (these operators do not run in place), found the byte "
                "ranges from first to last addressed element overlapping: OutputTensor spans bytes 0 to 40 and "
                "InputTensor bytes 12 to 28, counted from OutputTensor's first byte (whole ranges are compared, "
                "so an input lying in the output's padding between elements counts as overlapping)");
  CHECK(shared.all_sentinel());
}

TEST_CASE("messages: a forced Arch that is no Arch shows its number", "[messages]") {
  OneHotExample x;
  std::string have;
  for (Arch a : available_archs()) have += (have.empty() ? "" : ", ") + std::string(name_of(a));
  require_error([&] { x.run(x.output.out(), test::on(Arch{7})); }, "ExecuteOptions.arch",
                "expected one of the available paths (" + have + "), found 7, which is no Arch (its values are 0 to 4)");
  CHECK(x.output.all_sentinel());
}

TEST_CASE("messages: calc_buffer_tensor_size's overflow shows the sizes and strides", "[messages][calc_buffer_tensor_size]") {
  // The last element's index is exactly 2^64 - 1: its end is byte 2^64, which used to wrap to 0.
  require_error([] { calc_buffer_tensor_size({DataType::uint8, {0xFFFFFFFF, 4, 7}, {0xFFFFFFFF, 0xFFFFFFFD, 1}, 0}); },
                "Strides",
                "the strides {4294967295,4294967293,1} with the sizes {4294967295,4,7} (UINT8) put the end of the "
                "last element past byte 2^64 - 1, so the buffer size has no 64-bit value (DirectML's helper would "
                "wrap)");
  require_error([] { calc_buffer_tensor_size({DataType::int64, {0xFFFFFFFF, 0xFFFFFFFF, 0xFFFFFFFF}, {}, 0}); }, "Sizes",
                "the sizes {4294967295,4294967295,4294967295} of INT64 elements make more than 2^64 bytes, so the "
                "buffer size has no 64-bit value (DirectML's helper would wrap)");
}

TEST_CASE("messages: an output stride that revisits elements is explained without jargon", "[messages]") {
  const DiagonalMatrixDesc desc{{DataType::float32, {2, 3}, {1, 1}, 0}, 0, 1.0f};
  Buffer output(16);
  require_error([&] { execute(desc, output.out()); }, "OutputTensor.Strides[1]",
                "an output must not address one element twice: dimension 1 (size 3) has stride 1, so a step along "
                "it lands inside the elements the dimensions with smaller strides already reach; expected a stride "
                "of at least 2, so that each step passes all of them");
  CHECK(output.all_sentinel());
}

TEST_CASE("messages: a misaligned binding says 1 byte", "[messages]") {
  OneHotExample x;
  Buffer misaligned(48, 1);
  require_error([&] { x.run(misaligned.out()); }, "OutputTensor.Binding.Offset",
                "expected the data pointer aligned to 4 bytes (the FLOAT32 element size), found an address 1 byte "
                "past a multiple of 4");
  CHECK(misaligned.all_sentinel());
}

TEST_CASE("messages: out-of-range NanMode and NegativeIndices are rejected", "[messages]") {
  HardmaxDesc hardmax{{DataType::float32, {1, 4}, {}, 0}, {DataType::float32, {1, 4}, {}, 0}, NanMode{2}};
  Buffer input(16), output(16);
  require_error([&] { execute(hardmax, input.in(), output.out()); }, "NanMode",
                "expected NanMode::propagate (0) or NanMode::ignore (1), found 2");
  Hardmax1Desc hardmax1{hardmax.input, hardmax.output, {1}, NanMode{-1}};
  require_error([&] { execute(hardmax1, input.in(), output.out()); }, "NanMode",
                "expected NanMode::propagate (0) or NanMode::ignore (1), found -1");
  CHECK(output.all_sentinel());

  OneHotV1Desc one_hot{{DataType::int32, {4}, {}, 0}, 3, Scalar::of(1.0f), Scalar::of(0.0f), -1, NegativeIndices{5}};
  Buffer indices(16), out(48);
  require_error([&] { execute(one_hot, indices.in(), out.out()); }, "negative_indices_mode",
                "expected NegativeIndices::ignore (0) or NegativeIndices::normalize (1), found 5");
  CHECK(out.all_sentinel());
}

TEST_CASE("messages: DIAGONAL_MATRIX(1) at a bad level still report every other broken rule", "[messages]") {
  const DiagonalMatrixDesc dm{{DataType::float32, {2, 0}, {}, 0}, 0, 1.0f};
  const auto d = validate(dm, FeatureLevel::level_1_0);
  REQUIRE(d.size() == 2);
  CHECK(d[0].field == "FeatureLevel");
  CHECK(d[1].field == "OutputTensor.Sizes[1]");
  DiagonalMatrix1Desc dm1{std::nullopt, {DataType::float32, {2, 0}, {}, 0}, Scalar::of(std::int32_t{1}), 0, 1};
  const auto d1 = validate(dm1, FeatureLevel::level_5_0);
  REQUIRE(d1.size() == 3);
  CHECK(d1[0].field == "FeatureLevel");
  CHECK(d1[1].field == "OutputTensor.Sizes[1]");
  CHECK(d1[2].field == "ValueDataType");
}
