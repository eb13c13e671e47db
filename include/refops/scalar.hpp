// Scalar: a typed value, like DML_SCALAR_UNION together with its DML_TENSOR_DATA_TYPE.
#pragma once

#include <array>
#include <bit>
#include <cstddef>
#include <cstdint>
#include <cstring>

#include <refops/data_type.hpp>
#include <refops/value_cast.hpp>

namespace refops {

class Scalar {
 public:
  Scalar() = default;  // FLOAT32 0.0

  template <class T>
  static Scalar of(T value) {
    static_assert(is_element_type_v<T>, "Scalar::of takes one of the 11 element types");
    Scalar s;
    s.type_ = data_type_v<T>;
    std::memcpy(s.bytes_.data(), &value, sizeof(T));
    return s;
  }

  // The value from DML_SCALAR_UNION bytes read as `type` (a FLOAT16 is the half's bit pattern
  // in bytes 0-1, as Microsoft's DxDispatch writes it).
  static Scalar from_union_bytes(DataType type, const std::array<std::byte, 8>& bytes) {
    Scalar s;
    s.type_ = type;
    s.bytes_ = bytes;
    return s;
  }

  DataType type() const { return type_; }

  // Exact when T is type(); otherwise converted with value_cast. type() must be valid.
  template <class T>
  T as() const {
    static_assert(is_element_type_v<T>, "Scalar::as takes one of the 11 element types");
    return visit_data_type(type_, [&](auto tag) {
      using Stored = decltype(tag);
      Stored v;
      std::memcpy(&v, bytes_.data(), sizeof(Stored));
      if constexpr (std::is_same_v<Stored, T>) return v;
      else return value_cast<T>(v);
    });
  }

  // The 8 bytes of the equivalent DML_SCALAR_UNION (unused high bytes are zero).
  const std::array<std::byte, 8>& union_bytes() const { return bytes_; }

  // Same type and same bytes (a NaN equals itself, -0.0 differs from 0.0).
  friend bool operator==(const Scalar&, const Scalar&) = default;

 private:
  DataType type_ = DataType::float32;
  std::array<std::byte, 8> bytes_{};
};

}  // namespace refops
