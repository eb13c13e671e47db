// The ONE_HOT oracle of the tests: a dense loop over every output coordinate, deliberately
// simpler than the kernels (no canonicalization, no position normalization: the index is
// widened to 128 bits and the wrap is one addition), writing into a copy of the
// sentinel-filled output so padding keeps its sentinel.
#pragma once

#include <cstdint>

#include <refops/refops.hpp>

#include "support/buffers.hpp"

namespace refops::test {

__extension__ typedef __int128 wide_int;  // every index type and its wrap, exactly

// ONE_HOT's index types, and f(I{}) for the one `type` names (INT64 for any other).
inline constexpr DataType index_types[] = {DataType::uint32, DataType::int32, DataType::uint64, DataType::int64};
template <class F>
decltype(auto) visit_index_type(DataType type, F&& f) {
  switch (type) {
    case DataType::uint32: return f(std::uint32_t{});
    case DataType::int32: return f(std::int32_t{});
    case DataType::uint64: return f(std::uint64_t{});
    default: return f(std::int64_t{});
  }
}

// The value of an integer index element at `coordinate`, widened exactly.
inline wide_int index_at(const Buffer& indices, const TensorDesc& desc, const Dims& coordinate) {
  return visit_index_type(desc.data_type, [&](auto i) { return wide_int{get<decltype(i)>(indices, desc, coordinate)}; });
}

// Copies `bytes` bytes of the element at `coordinate` of `from` to `coordinate` of `to`.
inline void copy_element(const Buffer& from, const TensorDesc& from_desc, const Dims& from_coordinate,
                         Buffer& to, const TensorDesc& to_desc, const Dims& to_coordinate) {
  std::memcpy(to.data() + byte_offset(to_desc, to_coordinate),
              from.data() + byte_offset(from_desc, from_coordinate), size_of(to_desc.data_type));
}

// `output` is the sentinel-filled buffer the kernel will get; returns what it must become.
inline Buffer one_hot_oracle(const TensorDesc& indices_desc, const Buffer& indices,
                             const TensorDesc& values_desc, const Buffer& values,
                             const TensorDesc& output_desc, const Buffer& output, std::uint32_t axis,
                             bool wrap_negative = true) {
  // OffValue and OnValue: the first and second coordinates in row-major order. The second is
  // the first with its innermost dimension of size > 1 at 1; computed, not walked to: a fuzzed
  // ValuesTensor may hold billions of elements (the walk timed a fuzz run out).
  Dims off_at = values_desc.sizes, on_at = values_desc.sizes;
  for (auto& v : off_at) v = 0;
  on_at = off_at;
  for (std::size_t d = on_at.size(); d-- > 0;)
    if (values_desc.sizes[d] > 1) {
      on_at[d] = 1;
      break;
    }
  const bool is_signed = indices_desc.data_type == DataType::int32 || indices_desc.data_type == DataType::int64;
  const wide_int length = output_desc.sizes[axis];
  Buffer expected(output.size());
  std::memcpy(expected.data(), output.data(), output.size());
  for_each_coordinate(output_desc.sizes, [&](const Dims& c) {
    Dims ic = c;
    ic[axis] = 0;
    wide_int i = index_at(indices, indices_desc, ic);
    if (is_signed && wrap_negative && i < 0) i += length;
    copy_element(values, values_desc, i == c[axis] ? on_at : off_at, expected, output_desc, c);
  });
  return expected;
}

// OpenVINO OneHot-1 through the ONE_HOT oracle: indices with a size-1, stride-0 dimension at
// the axis, values {off_value, on_value} along the last dimension. `desc` must be valid;
// `output` is the sentinel-filled buffer for output_desc(desc).
inline Buffer one_hot_v1_oracle(const OneHotV1Desc& desc, const Buffer& indices, const Buffer& output) {
  const TensorDesc out_desc = output_desc(desc);
  const std::size_t rank = out_desc.sizes.size();
  const auto axis = static_cast<std::size_t>(desc.axis < 0 ? desc.axis + static_cast<std::int64_t>(rank) : desc.axis);
  TensorDesc index_desc = desc.indices;
  Dims index_strides = effective_strides(desc.indices);
  index_desc.sizes.insert(axis, 1);
  index_strides.insert(axis, 0);
  index_desc.strides = index_strides;
  Dims value_sizes;
  for (std::size_t d = 0; d + 1 < rank; ++d) value_sizes.push_back(1);
  value_sizes.push_back(2);
  const TensorDesc value_desc{out_desc.data_type, value_sizes, {}, 0};
  const std::size_t bytes = size_of(out_desc.data_type);
  Buffer values = Buffer::for_tensor(value_desc);
  std::memcpy(values.data(), desc.off_value.union_bytes().data(), bytes);
  std::memcpy(values.data() + bytes, desc.on_value.union_bytes().data(), bytes);
  return one_hot_oracle(index_desc, indices, value_desc, values, out_desc, output, static_cast<std::uint32_t>(axis),
                        desc.negative_indices == NegativeIndices::normalize);
}

}  // namespace refops::test
