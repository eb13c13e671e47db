// Buffers for tests: sized for a tensor description, filled with a sentinel byte so a test can
// prove that an output's padding (or a rejected call's whole output) is never written, and
// element access by coordinate through the description's strides.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <new>
#include <span>
#include <utility>
#include <vector>

#include <refops/arch.hpp>
#include <refops/scalar.hpp>
#include <refops/tensor_desc.hpp>

namespace refops::test {

inline constexpr std::byte sentinel{0xA5};

// Bytes from the first element to the end of the last one that `desc` addresses.
inline std::size_t addressed_bytes(const TensorDesc& desc) {
  const Dims strides = effective_strides(desc);
  std::size_t last = 0;
  for (std::size_t i = 0; i < desc.sizes.size(); ++i) last += std::size_t{desc.sizes[i] - 1} * strides[i];
  return (last + 1) * size_of(desc.data_type);
}

class Buffer {
 public:
  // `bytes` usable bytes starting `misalign` bytes past a 64-byte boundary. The allocation ends
  // where the usable bytes end, so AddressSanitizer reports a kernel that writes or reads even
  // one byte past a tensor's buffer (a padded allocation hid such writes from every test).
  explicit Buffer(std::size_t bytes, std::size_t misalign = 0)
      : storage_(static_cast<std::byte*>(::operator new(misalign + bytes, alignment))),
        misalign_(misalign),
        size_(bytes) {
    std::memset(storage_, static_cast<int>(sentinel), misalign + bytes);
  }
  Buffer(const Buffer& other) : Buffer(other.size_, other.misalign_) {
    std::memcpy(data(), other.data(), size_);
  }
  Buffer& operator=(Buffer other) {
    std::swap(storage_, other.storage_);
    std::swap(misalign_, other.misalign_);
    std::swap(size_, other.size_);
    return *this;
  }
  Buffer(Buffer&& other) noexcept
      : storage_(std::exchange(other.storage_, nullptr)), misalign_(other.misalign_), size_(other.size_) {}
  ~Buffer() { ::operator delete(storage_, alignment); }
  static Buffer for_tensor(const TensorDesc& desc, std::size_t misalign = 0) {
    return Buffer(std::max<std::size_t>(addressed_bytes(desc), desc.total_bytes), misalign);
  }

  std::byte* data() { return storage_ + misalign_; }
  const std::byte* data() const { return storage_ + misalign_; }
  std::size_t size() const { return size_; }
  Out out() { return {data(), size_}; }
  In in() const { return {data(), size_}; }
  std::vector<std::byte> bytes() const { return {data(), data() + size_}; }

  void fill(std::byte b) { std::memset(data(), static_cast<int>(b), size_); }
  bool all_sentinel() const {
    return std::all_of(data(), data() + size_, [](std::byte b) { return b == sentinel; });
  }
  // The `misalign` bytes before data() still hold the sentinel: nothing wrote before the
  // tensor (a kernel that writes whole lines must leave the first line's head alone).
  bool head_untouched() const {
    return std::all_of(storage_, storage_ + misalign_, [](std::byte b) { return b == sentinel; });
  }

 private:
  static constexpr std::align_val_t alignment{64};
  std::byte* storage_;
  std::size_t misalign_;
  std::size_t size_;
};

// Byte offset of a coordinate in a tensor described by `desc`.
inline std::size_t byte_offset(const TensorDesc& desc, const Dims& coordinate) {
  const Dims strides = effective_strides(desc);
  std::size_t offset = 0;
  for (std::size_t i = 0; i < desc.sizes.size(); ++i) offset += std::size_t{coordinate[i]} * strides[i];
  return offset * size_of(desc.data_type);
}

template <class T>
T get(const Buffer& buffer, const TensorDesc& desc, const Dims& coordinate) {
  T v;
  std::memcpy(&v, buffer.data() + byte_offset(desc, coordinate), sizeof(T));
  return v;
}
template <class T>
void set(Buffer& buffer, const TensorDesc& desc, const Dims& coordinate, T value) {
  std::memcpy(buffer.data() + byte_offset(desc, coordinate), &value, sizeof(T));
}
// set<T> for a value of the tensor's type held in a Scalar (its first size_of(type) bytes).
inline void set_scalar(Buffer& buffer, const TensorDesc& desc, const Dims& coordinate, const Scalar& value) {
  std::memcpy(buffer.data() + byte_offset(desc, coordinate), value.union_bytes().data(), size_of(desc.data_type));
}

// Calls f(coordinate) for every coordinate of `sizes`, row-major (the oracle's loop).
template <class F>
void for_each_coordinate(const Dims& sizes, F&& f) {
  Dims c = sizes;
  for (auto& v : c) v = 0;
  for (std::uint32_t s : sizes)
    if (s == 0) return;
  while (true) {
    f(static_cast<const Dims&>(c));
    std::size_t d = sizes.size();
    while (true) {
      if (d == 0) return;
      --d;
      if (++c[d] < sizes[d]) break;
      c[d] = 0;
    }
  }
}

}  // namespace refops::test
