// OpenVINO OneHot-1 (with OneHot-16's negative_indices_mode) on top of the ONE_HOT kernel:
// insert a size-1 dimension into the indices at the axis and use {off_value, on_value} as the
// values (SPEC section 2, "OneHot-1"). It is not a DirectML operator, so its diagnostics name
// OpenVINO's inputs and attributes ("indices", "depth", "axis", "on_value", "off_value").
#include <refops/one_hot.hpp>

#include <string>

#include "ops/one_hot_call.hpp"
#include "validation/tensor_rules.hpp"

namespace refops {
namespace {

constexpr std::size_t max_indices_rank = Dims::capacity - 1;  // the output adds one dimension

// The indices as the tensor rules see them: a rank-0 (scalar) index is a 1-D tensor of size 1.
TensorDesc indices_as_tensor(const TensorDesc& indices) {
  if (!indices.sizes.empty()) return indices;
  return {indices.data_type, Dims{1}, {}, indices.total_bytes};
}

std::size_t normalized_axis(const OneHotV1Desc& desc) {
  const auto rank = static_cast<std::int64_t>(desc.indices.sizes.size());
  return static_cast<std::size_t>(desc.axis < 0 ? desc.axis + rank + 1 : desc.axis);
}

// The packed output for a description whose attributes are valid.
TensorDesc packed_output(const OneHotV1Desc& desc) {
  TensorDesc out{desc.on_value.type(), desc.indices.sizes, {}, 0};
  out.sizes.insert(normalized_axis(desc), static_cast<std::uint32_t>(desc.depth));
  return out;
}

bool is_index_type(DataType t) {
  return t == DataType::int32 || t == DataType::int64 || t == DataType::uint32 || t == DataType::uint64;
}

}  // namespace

std::vector<Diagnostic> validate(const OneHotV1Desc& desc) {
  using namespace detail;
  std::vector<Diagnostic> out;
  const std::size_t rank = desc.indices.sizes.size();
  bool attributes_ok = true;
  if (rank > max_indices_rank) {
    out.push_back({"indices.DimensionCount",
                   "expected a rank of 0 to 7 (the output has one dimension more, at most 8), found " +
                       std::to_string(rank)});
    attributes_ok = false;
  } else if (rank == 0 && !desc.indices.strides.empty()) {
    out.push_back({"indices.Strides", "expected no strides for a rank-0 (scalar) index, found " +
                                          std::to_string(desc.indices.strides.size())});
    attributes_ok = false;
  } else if (!check_tensor(indices_as_tensor(desc.indices), "indices", TensorRole::input, out)) {
    attributes_ok = false;
  } else if (!is_index_type(desc.indices.data_type)) {
    out.push_back({"indices.DataType", "expected one of INT32, INT64, UINT32, UINT64, found " +
                                           std::string(name_of(desc.indices.data_type))});
  }
  if (desc.depth < 1 || desc.depth > 0xFFFFFFFF) {
    out.push_back({"depth", "expected 1 to 4294967295 (a positive size), found " + std::to_string(desc.depth)});
    attributes_ok = false;
  }
  const auto r = static_cast<std::int64_t>(rank);
  if (desc.axis < -(r + 1) || desc.axis > r) {
    out.push_back({"axis", "expected " + std::to_string(-(r + 1)) + " to " + std::to_string(r) +
                               " (the output has rank " + std::to_string(r + 1) + "), found " +
                               std::to_string(desc.axis)});
    attributes_ok = false;
  }
  if (!is_valid(desc.on_value.type())) {
    out.push_back({"on_value", "expected a value of one of the 11 data types, found type " +
                                   std::to_string(static_cast<std::uint32_t>(desc.on_value.type()))});
    attributes_ok = false;
  } else if (desc.off_value.type() != desc.on_value.type()) {
    out.push_back({"off_value", "expected the on_value's type " + std::string(name_of(desc.on_value.type())) +
                                    ", found " +
                                    (is_valid(desc.off_value.type())
                                         ? std::string(name_of(desc.off_value.type()))
                                         : "type " + std::to_string(static_cast<std::uint32_t>(desc.off_value.type())))});
  }
  if (attributes_ok) check_tensor(packed_output(desc), "output", TensorRole::output, out);
  return out;
}

TensorDesc output_desc(const OneHotV1Desc& desc) {
  detail::throw_if_any(validate(desc));
  return packed_output(desc);
}

void execute(const OneHotV1Desc& desc, In indices, Out output, const ExecuteOptions& options) {
  using namespace detail;
  std::vector<Diagnostic> out = validate(desc);
  throw_if_any(out);
  const TensorDesc index_tensor = indices_as_tensor(desc.indices);
  const TensorDesc output_tensor = packed_output(desc);
  check_binding(index_tensor, "indices", indices, out);
  check_binding(output_tensor, "output", output, out);
  if (out.empty()) check_no_overlap(output_tensor, "output", output, index_tensor, "indices", indices, out);
  throw_if_any(std::move(out));

  const std::size_t axis = normalized_axis(desc);
  Dims index_strides = effective_strides(desc.indices);  // empty for rank 0
  index_strides.insert(axis, 0);                         // the size-1 dimension ONE_HOT wants
  const std::size_t bytes = size_of(output_tensor.data_type);
  OneHotCall call{desc.indices.data_type,
                  indices.data(),
                  index_strides,
                  bytes,
                  bits_at(desc.off_value.union_bytes().data(), bytes),
                  bits_at(desc.on_value.union_bytes().data(), bytes),
                  output.data(),
                  output_tensor.sizes,
                  effective_strides(output_tensor),
                  static_cast<std::uint32_t>(axis),
                  desc.negative_indices == NegativeIndices::normalize,
                  options.stores};
  dispatch_one_hot(call, options);
}

}  // namespace refops
