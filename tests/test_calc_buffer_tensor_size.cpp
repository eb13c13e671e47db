// calc_buffer_tensor_size against sizes computed by hand from DMLCalcBufferTensorSize's formula.
#include <refops/refops.hpp>

#include "support/catch.hpp"

using namespace refops;

namespace {
std::uint64_t calc(DataType t, Dims sizes, Dims strides = {}) {
  return calc_buffer_tensor_size(TensorDesc{t, sizes, strides, 0});
}
std::string calc_error_field(DataType t, Dims sizes, Dims strides = {}) {
  try {
    calc(t, sizes, strides);
  } catch (const Error& e) {
    REQUIRE(e.diagnostics().size() == 1);
    return e.diagnostics()[0].field;
  }
  return "no error";
}
}  // namespace

TEST_CASE("packed sizes: product of sizes times element size, rounded up to 4", "[calc_buffer_tensor_size]") {
  CHECK(calc(DataType::float32, {1, 1, 3, 4}) == 48);
  CHECK(calc(DataType::float64, {2, 3}) == 48);
  CHECK(calc(DataType::uint8, {3}) == 4);       // 3 bytes round up to 4
  CHECK(calc(DataType::int8, {5}) == 8);        // 5 -> 8
  CHECK(calc(DataType::float16, {3}) == 8);     // 6 -> 8
  CHECK(calc(DataType::int16, {1, 1, 1, 2}) == 4);
  CHECK(calc(DataType::uint8, {1}) == 4);
}

TEST_CASE("strided sizes: (sum((size-1)*stride) + 1) * element size, rounded up", "[calc_buffer_tensor_size]") {
  // Padded rows: {1,1,3,4} with rows 5 apart: last index 2*5 + 3 = 13, 14 elements.
  CHECK(calc(DataType::float32, {1, 1, 3, 4}, {15, 15, 5, 1}) == 56);
  // Transposed {3,4} stored column-major: last index 2*1 + 3*3 = 11.
  CHECK(calc(DataType::int32, {3, 4}, {1, 3}) == 48);
  // Broadcast: only the last dimension moves: last index 3.
  CHECK(calc(DataType::float32, {2, 3, 4}, {0, 0, 1}) == 16);
  CHECK(calc(DataType::uint8, {5}, {2}) == 12);       // last index 8: 9 bytes -> 12
  CHECK(calc(DataType::uint8, {7, 1}, {0, 0}) == 4);  // all broadcast: one element
  // Packed strides given explicitly equal the packed size.
  CHECK(calc(DataType::float16, {2, 3}, {3, 1}) == calc(DataType::float16, {2, 3}));
}

TEST_CASE("sizes past 32 bits are computed in 64 bits, where DirectML's helper wraps", "[calc_buffer_tensor_size]") {
  // DirectML sums the last index in a 32-bit UINT: 2*2^31 wraps to 0 there.
  CHECK(calc(DataType::uint8, {3}, {0x80000000u}) == ((std::uint64_t{2} << 31) + 1 + 3) / 4 * 4);
  CHECK(calc(DataType::float64, {65536, 65536}) == std::uint64_t{65536} * 65536 * 8);
}

TEST_CASE("a size that does not fit in 64 bits is an Error, not a wrapped number", "[calc_buffer_tensor_size]") {
  const std::uint32_t big = 0xFFFFFFFFu;
  CHECK(calc_error_field(DataType::int64, {big, big, big}) == "Sizes");
  CHECK(calc_error_field(DataType::int64, {big, big, big, big, big, big, big, big}) == "Sizes");
  CHECK(calc_error_field(DataType::int64, {big, big, big}, {big, big, big}) == "Strides");
  CHECK(calc_error_field(DataType::float32, {2, 0, 3}) == "Sizes[1]");
  CHECK(calc_error_field(DataType::float32, {}) == "DimensionCount");
  CHECK(calc_error_field(DataType::float32, {2, 3}, {1}) == "Strides");
  CHECK(calc_error_field(DataType{42}, {2, 3}) == "DataType");
}
