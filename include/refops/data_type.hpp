// Element types: DirectML's DML_TENSOR_DATA_TYPE values and the C++ type behind each.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string_view>
#include <type_traits>

#include <Eigen/Core>

namespace refops {

enum class DataType : std::uint32_t {  // values are DML_TENSOR_DATA_TYPE's
  float32 = 1, float16 = 2, uint32 = 3, uint16 = 4, uint8 = 5,
  int32 = 6, int16 = 7, int8 = 8, float64 = 9, uint64 = 10, int64 = 11 };

using float16 = Eigen::half;  // IEEE binary16

// All 11 types in DML_TENSOR_DATA_TYPE order.
inline constexpr DataType all_data_types[] = {
    DataType::float32, DataType::float16, DataType::uint32, DataType::uint16,
    DataType::uint8,   DataType::int32,   DataType::int16,  DataType::int8,
    DataType::float64, DataType::uint64,  DataType::int64};

// True for the 11 values above; a DataType cast from any other number is not one.
constexpr bool is_valid(DataType t) {
  auto v = static_cast<std::uint32_t>(t);
  return v >= 1 && v <= 11;
}

// Bytes per element; 0 for an invalid value.
constexpr std::size_t size_of(DataType t) {
  constexpr unsigned char bytes[] = {0, 4, 2, 4, 2, 1, 4, 2, 1, 8, 8, 8};  // by DML value
  return is_valid(t) ? bytes[static_cast<std::uint32_t>(t)] : 0;
}
std::string_view name_of(DataType);  // "FLOAT32", as DirectML spells it

// The DataType of a C++ element type, and back.
template <class T> struct data_type_of;
template <> struct data_type_of<float> { static constexpr DataType value = DataType::float32; };
template <> struct data_type_of<float16> { static constexpr DataType value = DataType::float16; };
template <> struct data_type_of<std::uint32_t> { static constexpr DataType value = DataType::uint32; };
template <> struct data_type_of<std::uint16_t> { static constexpr DataType value = DataType::uint16; };
template <> struct data_type_of<std::uint8_t> { static constexpr DataType value = DataType::uint8; };
template <> struct data_type_of<std::int32_t> { static constexpr DataType value = DataType::int32; };
template <> struct data_type_of<std::int16_t> { static constexpr DataType value = DataType::int16; };
template <> struct data_type_of<std::int8_t> { static constexpr DataType value = DataType::int8; };
template <> struct data_type_of<double> { static constexpr DataType value = DataType::float64; };
template <> struct data_type_of<std::uint64_t> { static constexpr DataType value = DataType::uint64; };
template <> struct data_type_of<std::int64_t> { static constexpr DataType value = DataType::int64; };

template <class T>
inline constexpr DataType data_type_v = data_type_of<std::remove_cv_t<T>>::value;

template <class T, class = void>
inline constexpr bool is_element_type_v = false;
template <class T>
inline constexpr bool is_element_type_v<T, std::void_t<decltype(data_type_of<std::remove_cv_t<T>>::value)>> = true;

// Calls f(T{}) with the C++ type of `t` (a default-constructed value as a type tag).
// `t` must be valid; the caller checks first.
template <class F>
decltype(auto) visit_data_type(DataType t, F&& f) {
  switch (t) {
    case DataType::float32: return f(float{});
    case DataType::float16: return f(float16{});
    case DataType::uint32: return f(std::uint32_t{});
    case DataType::uint16: return f(std::uint16_t{});
    case DataType::uint8: return f(std::uint8_t{});
    case DataType::int32: return f(std::int32_t{});
    case DataType::int16: return f(std::int16_t{});
    case DataType::int8: return f(std::int8_t{});
    case DataType::float64: return f(double{});
    case DataType::uint64: return f(std::uint64_t{});
    case DataType::int64: break;
  }
  return f(std::int64_t{});
}

}  // namespace refops
