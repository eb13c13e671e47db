// OpenVINO OneHot-1 (with OneHot-16's negative_indices_mode) on top of the ONE_HOT kernel:
// insert a size-1 dimension into the indices at the axis and use {off_value, on_value} as the
// values (SPEC section 2, "OneHot-1"). It is not a DirectML operator, so its diagnostics name
// OpenVINO's inputs and attributes ("indices", "depth", "axis", "on_value", "off_value").
#include <refops/one_hot.hpp>

#include <string>

#include "ops/element_bits.hpp"
#include "ops/finish_execute.hpp"
#include "ops/validated_once.hpp"
#include "ops/one_hot_call.hpp"
#include "ops/one_hot_table.hpp"
#include "tensor_extent.hpp"
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

// The output's element count, checked here so that an output too large for a tensor names
// `depth`, the attribute that makes it so.
void check_output_size(const OneHotV1Desc& desc, std::vector<Diagnostic>& out) {
  const TensorDesc output = packed_output(desc);
  const std::uint64_t count = detail::element_count(output.sizes);
  if (count != 0 && count <= 0xFFFFFFFFu) {
    detail::check_tensor(output, "output", detail::TensorRole::output, out);
    return;
  }
  out.push_back({"depth", "expected a depth that keeps the output within 4294967295 (2^32-1) elements, found " +
                              std::to_string(desc.depth) + ": the output's sizes " + detail::to_text(output.sizes) +
                              " (the indices' sizes with depth inserted at axis " +
                              std::to_string(normalized_axis(desc)) + ") make " +
                              (count ? std::to_string(count) : std::string("more than 2^64")) + " elements"});
}

detail::OneHotCall call_of(const OneHotV1Desc& desc, In indices, Out output) {
  const std::size_t axis = normalized_axis(desc);
  Dims index_strides = effective_strides(desc.indices);  // empty for rank 0
  index_strides.insert(axis, 0);                         // the size-1 dimension ONE_HOT wants
  const TensorDesc output_tensor = packed_output(desc);
  return {.index_type = desc.indices.data_type,
          .indices = indices.data(),
          .indices_strides = index_strides,
          .value_bytes = size_of(output_tensor.data_type),
          .off_bits = detail::element_bits(desc.off_value),
          .on_bits = detail::element_bits(desc.on_value),
          .output = output.data(),
          .sizes = output_tensor.sizes,
          .output_strides = packed_strides(output_tensor.sizes),
          .axis = static_cast<std::uint32_t>(axis),
          .wrap_negative = desc.negative_indices == NegativeIndices::normalize};
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
  } else if (!one_hot_index_types.has(desc.indices.data_type)) {
    out.push_back({"indices.DataType", "expected one of " + one_hot_index_types.to_text() + ", found " +
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
  if (desc.negative_indices != NegativeIndices::ignore && desc.negative_indices != NegativeIndices::normalize)
    out.push_back({"negative_indices_mode",
                   "expected NegativeIndices::ignore (0) or NegativeIndices::normalize (1), found " +
                       std::to_string(static_cast<int>(desc.negative_indices))});
  if (attributes_ok) check_output_size(desc, out);
  return out;
}

TensorDesc output_desc(const OneHotV1Desc& desc) {
  detail::throw_if_any(validate(desc));
  return packed_output(desc);
}

void execute(const OneHotV1Desc& desc, In indices, Out output, const ExecuteOptions& options) {
  using namespace detail;
  Validated validated =
      validate_once(desc, FeatureLevel::latest, [](const OneHotV1Desc& d, FeatureLevel) { return validate(d); });
  if (!validated.diagnostics.empty()) throw_if_any(std::move(validated.diagnostics));  // no output description to bind
  const TensorDesc index_tensor = indices_as_tensor(desc.indices);
  const TensorDesc output_tensor = packed_output(desc);
  finish_execute(std::move(validated), {output_tensor, "output", output}, {{index_tensor, "indices", indices}},
                 one_hot_entries, options, [&] { return call_of(desc, indices, output); });
}

}  // namespace refops
