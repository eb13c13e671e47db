#include <bit>
#include <cmath>
#include <cstring>
#include <limits>

#include <refops/refops.hpp>

#include "support/catch.hpp"

using namespace refops;

namespace {
template <class T>
void check_round_trip(T value) {
  Scalar s = Scalar::of(value);
  CHECK(s.type() == data_type_v<T>);
  T back = s.as<T>();
  CHECK(std::memcmp(&back, &value, sizeof(T)) == 0);  // exact to the bit, NaN payloads included
  std::uint64_t low = 0;
  std::memcpy(&low, s.union_bytes().data(), sizeof(T));
  std::uint64_t expected = 0;
  std::memcpy(&expected, &value, sizeof(T));
  CHECK(low == expected);
}
}  // namespace

TEST_CASE("Scalar round-trips every bit pattern of all 11 types", "[scalar]") {
  check_round_trip(1.5f);
  check_round_trip(-0.0f);
  check_round_trip(std::bit_cast<float>(0x7FC01234u));  // NaN with a payload
  check_round_trip(float16(-2.5f));
  check_round_trip(std::bit_cast<float16>(std::uint16_t{0x7C01}));  // signalling NaN half
  check_round_trip(std::numeric_limits<std::uint32_t>::max());
  check_round_trip(std::uint16_t{65535});
  check_round_trip(std::uint8_t{200});
  check_round_trip(std::numeric_limits<std::int32_t>::min());
  check_round_trip(std::int16_t{-32768});
  check_round_trip(std::int8_t{-128});
  check_round_trip(-1e300);
  check_round_trip(std::numeric_limits<std::uint64_t>::max());
  check_round_trip(std::numeric_limits<std::int64_t>::min());
}

TEST_CASE("a FLOAT16 Scalar keeps the half's bits in the union's low 16 bits", "[scalar]") {
  Scalar s = Scalar::of(float16(1.0f));
  CHECK(std::to_integer<int>(s.union_bytes()[0]) == 0x00);
  CHECK(std::to_integer<int>(s.union_bytes()[1]) == 0x3C);
  std::array<std::byte, 8> bytes{};
  bytes[1] = std::byte{0xC0};  // -2.0 as a half
  CHECK(static_cast<float>(Scalar::from_union_bytes(DataType::float16, bytes).as<float16>()) == -2.0f);
}

TEST_CASE("value_cast truncates toward zero and saturates into integers, NaN gives 0", "[scalar]") {
  CHECK(value_cast<std::int32_t>(10.6f) == 10);
  CHECK(value_cast<std::int32_t>(-10.6f) == -10);
  CHECK(value_cast<std::uint8_t>(-1.0f) == 0);
  CHECK(value_cast<std::uint8_t>(255.9f) == 255);
  CHECK(value_cast<std::uint8_t>(256.0f) == 255);
  CHECK(value_cast<std::int8_t>(-128.9f) == -128);
  CHECK(value_cast<std::int8_t>(-1000.0f) == -128);
  CHECK(value_cast<std::int32_t>(1e20f) == std::numeric_limits<std::int32_t>::max());
  CHECK(value_cast<std::int64_t>(9.3e18f) == std::numeric_limits<std::int64_t>::max());
  CHECK(value_cast<std::int64_t>(-9.3e18f) == std::numeric_limits<std::int64_t>::min());
  CHECK(value_cast<std::uint64_t>(1.8e19f) == static_cast<std::uint64_t>(1.8e19f));  // in range: exact
  CHECK(value_cast<std::uint64_t>(1.9e19f) == std::numeric_limits<std::uint64_t>::max());
  CHECK(value_cast<std::int16_t>(std::numeric_limits<float>::quiet_NaN()) == 0);
  CHECK(value_cast<std::uint32_t>(std::numeric_limits<float>::infinity()) == std::numeric_limits<std::uint32_t>::max());
  CHECK(value_cast<std::int32_t>(-std::numeric_limits<float>::infinity()) == std::numeric_limits<std::int32_t>::min());
  CHECK(value_cast<std::uint8_t>(std::int64_t{-5}) == 0);
  CHECK(value_cast<std::int8_t>(std::uint64_t{1000}) == 127);
  CHECK(value_cast<std::int64_t>(std::numeric_limits<std::uint64_t>::max()) == std::numeric_limits<std::int64_t>::max());
  CHECK(value_cast<std::uint16_t>(std::int32_t{-1}) == 0);
}

TEST_CASE("value_cast rounds to nearest even into FLOAT16 and widens exactly", "[scalar]") {
  // 1 + 2^-11 lies halfway between 1 and the next half (1 + 2^-10): ties go to even (1.0).
  CHECK(std::bit_cast<std::uint16_t>(value_cast<float16>(1.0f + 0x1p-11f)) == 0x3C00);
  // 1 + 3*2^-11 lies halfway between 1+2^-10 and 1+2^-9: even is 1+2^-9.
  CHECK(std::bit_cast<std::uint16_t>(value_cast<float16>(1.0f + 3 * 0x1p-11f)) == 0x3C02);
  CHECK(std::isinf(static_cast<float>(value_cast<float16>(70000.0f))));
  CHECK(value_cast<double>(0.1f) == static_cast<double>(0.1f));
  CHECK(Scalar::of(7.9).as<std::int32_t>() == 7);
  CHECK(Scalar::of(std::int8_t{-3}).as<float>() == -3.0f);
}
