// Dims: up to 8 unsigned 32-bit values (sizes, strides or axes), stored inline, no heap.
#pragma once

#include <algorithm>
#include <array>
#include <cstddef>
#include <cstdint>
#include <initializer_list>
#include <string>

#include <refops/diagnostics.hpp>

namespace refops {

class Dims {
 public:
  using value_type = std::uint32_t;
  static constexpr std::size_t capacity = 8;  // DML_TENSOR_DIMENSION_COUNT_MAX1

  constexpr Dims() = default;
  // Throws Error (field "DimensionCount") for more than 8 values: a Dims cannot hold them.
  constexpr Dims(std::initializer_list<std::uint32_t> values) {
    if (values.size() > capacity) too_many(values.size());
    for (std::uint32_t v : values) data_[size_++] = v;
  }
  template <class It>
  constexpr Dims(It first, It last) {
    for (; first != last; ++first) push_back(static_cast<std::uint32_t>(*first));
  }

  constexpr std::size_t size() const { return size_; }
  constexpr bool empty() const { return size_ == 0; }
  constexpr std::uint32_t& operator[](std::size_t i) { return data_[i]; }
  constexpr const std::uint32_t& operator[](std::size_t i) const { return data_[i]; }
  constexpr std::uint32_t* begin() { return data_.data(); }
  constexpr std::uint32_t* end() { return data_.data() + size_; }
  constexpr const std::uint32_t* begin() const { return data_.data(); }
  constexpr const std::uint32_t* end() const { return data_.data() + size_; }
  constexpr const std::uint32_t* data() const { return data_.data(); }

  constexpr void push_back(std::uint32_t v) {
    if (size_ == capacity) too_many(capacity + 1);
    data_[size_++] = v;
  }
  constexpr void insert(std::size_t pos, std::uint32_t v) {
    push_back(v);
    std::rotate(data_.begin() + static_cast<std::ptrdiff_t>(pos),
                data_.begin() + static_cast<std::ptrdiff_t>(size_ - 1),
                data_.begin() + static_cast<std::ptrdiff_t>(size_));
  }

  // A plain loop: std::equal became a call to memcmp, and execute() compares every Dims of a
  // description with the last one's on each call (a tenth of a small ONE_HOT call).
  friend constexpr bool operator==(const Dims& a, const Dims& b) {
    if (a.size_ != b.size_) return false;
    for (std::size_t i = 0; i < a.size_; ++i)
      if (a.data_[i] != b.data_[i]) return false;
    return true;
  }

 private:
  [[noreturn]] static void too_many(std::size_t count) {
    throw Error({{"DimensionCount",
                  "expected at most 8 values (sizes, strides or axes: DirectML's largest DimensionCount), "
                  "found " + std::to_string(count)}});
  }

  std::array<std::uint32_t, capacity> data_{};
  std::size_t size_ = 0;
};

// Packed row-major strides for these sizes (last dimension fastest), in elements. The strides
// of a valid tensor (at most 2^32-1 elements) fit in 32 bits.
constexpr Dims packed_strides(const Dims& sizes) {
  Dims strides = sizes;
  std::uint64_t step = 1;
  for (std::size_t i = sizes.size(); i-- > 0;) {
    strides[i] = static_cast<std::uint32_t>(step);
    step *= sizes[i];
  }
  return strides;
}

}  // namespace refops
