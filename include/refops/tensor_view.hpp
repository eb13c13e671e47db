// TensorView<T>: a pointer, up to 8 sizes and one stride per size, in elements. The typed
// kernels take these; they do not own memory and do not check it (the compiled layer does).
#pragma once

#include <cassert>
#include <cstddef>
#include <cstdint>
#include <type_traits>

#include <refops/dims.hpp>

namespace refops {

template <class T>
class TensorView {
 public:
  using element_type = T;

  TensorView() = default;
  // Empty `strides` means packed row-major.
  TensorView(T* data, Dims sizes, Dims strides = {})
      : data_(data), sizes_(sizes), strides_(strides.empty() ? packed_strides(sizes) : strides) {
    assert(strides_.size() == sizes_.size());
  }

  // A view of const elements converts from a view of mutable ones.
  template <class U, class = std::enable_if_t<std::is_same_v<const U, T> && !std::is_same_v<U, T>>>
  TensorView(const TensorView<U>& other)  // NOLINT(google-explicit-constructor)
      : data_(other.data()), sizes_(other.sizes()), strides_(other.strides()) {}

  T* data() const { return data_; }
  const Dims& sizes() const { return sizes_; }
  const Dims& strides() const { return strides_; }  // always one per dimension
  std::size_t rank() const { return sizes_.size(); }

  std::uint64_t element_count() const {
    std::uint64_t n = 1;
    for (std::uint32_t s : sizes_) n *= s;
    return n;
  }
  // Offset in elements of a coordinate (one value per dimension).
  std::size_t offset_of(const Dims& coordinate) const {
    std::size_t offset = 0;
    for (std::size_t i = 0; i < sizes_.size(); ++i)
      offset += std::size_t{coordinate[i]} * strides_[i];
    return offset;
  }
  T& operator[](const Dims& coordinate) const { return data_[offset_of(coordinate)]; }

 private:
  T* data_ = nullptr;
  Dims sizes_;
  Dims strides_;
};

template <class T>
TensorView<T> make_view(T* data, Dims sizes, Dims strides = {}) {
  return TensorView<T>(data, sizes, strides);
}

}  // namespace refops
