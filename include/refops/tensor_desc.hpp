// TensorDesc: DirectML's DML_BUFFER_TENSOR_DESC, and the buffer size it implies.
#pragma once

#include <cstdint>

#include <refops/data_type.hpp>
#include <refops/dims.hpp>

namespace refops {

struct TensorDesc {                 // DML_BUFFER_TENSOR_DESC
  DataType data_type = DataType::float32;
  Dims sizes;                       // DimensionCount = sizes.size()
  Dims strides;                     // empty: packed row-major; otherwise one per dimension, in elements
  std::uint64_t total_bytes = 0;    // 0: calc_buffer_tensor_size(*this)
  friend bool operator==(const TensorDesc&, const TensorDesc&) = default;
};

// DMLCalcBufferTensorSize in 64-bit arithmetic: the bytes from the first element to the end of
// the last one, rounded up to a multiple of 4. Throws refops::Error (one Diagnostic naming the
// field) when the description has no defined size (invalid type, no dimension, a size of 0,
// strides of the wrong count) or the size does not fit in 64 bits, where DirectML's helper
// silently wraps.
std::uint64_t calc_buffer_tensor_size(const TensorDesc&);

// The strides the description means: its own, or packed row-major (packed_strides, dims.hpp)
// when it has none.
inline Dims effective_strides(const TensorDesc& desc) {
  return desc.strides.empty() ? packed_strides(desc.sizes) : desc.strides;
}

}  // namespace refops
