// DML_OPERATOR_ONE_HOT: the feature-level table, validate(), minimum_feature_level() and
// execute(). Semantics: SPEC section 2; the kernels: include/refops/kernels/one_hot.hpp.
#include <refops/one_hot.hpp>

#include <string>

#include <refops/kernels/one_hot.hpp>

#include "ops/element_bits.hpp"
#include "ops/finish_execute.hpp"
#include "ops/validated_once.hpp"
#include "ops/one_hot_call.hpp"
#include "ops/one_hot_table.hpp"
#include "validation/tensor_rules.hpp"

namespace refops::detail {
namespace {

using FL = FeatureLevel;
constexpr TypeSet uint32_only{DataType::uint32};
constexpr TypeSet float_values{DataType::float32, DataType::float16};
constexpr TypeSet values_2_1{DataType::float32, DataType::float16, DataType::int32, DataType::int16,
                             DataType::int8,    DataType::uint32,  DataType::uint16, DataType::uint8};

constexpr TensorSupport indices_rows[] = {{FL::level_2_0, 4, 4, uint32_only},
                                          {FL::level_3_0, 1, 8, one_hot_index_types}};
constexpr TensorSupport value_rows[] = {{FL::level_2_0, 4, 4, float_values},
                                        {FL::level_2_1, 4, 4, values_2_1},
                                        {FL::level_3_0, 1, 8, values_2_1},
                                        {FL::level_4_1, 1, 8, all_eleven_types}};
constexpr TensorTable tensors[] = {{"IndicesTensor", indices_rows},
                                   {"ValuesTensor", value_rows},
                                   {"OutputTensor", value_rows}};
constexpr OperatorTable table{"DML_OPERATOR_ONE_HOT", FL::level_2_0, tensors};

// The shape rules of SPEC section 2, for three tensors that passed the tensor rules.
void check_shapes(const OneHotDesc& desc, std::vector<Diagnostic>& out) {
  const std::size_t rank = desc.output.sizes.size();
  const bool axis_ok = desc.axis < rank;
  if (!axis_ok)
    out.push_back({"Axis", "expected less than " + std::to_string(rank) +
                               " (the DimensionCount of OutputTensor), found " + std::to_string(desc.axis)});
  if (desc.indices.sizes.size() != rank) {
    out.push_back({"IndicesTensor.DimensionCount",
                   "expected " + std::to_string(rank) + " (the DimensionCount of OutputTensor), found " +
                       std::to_string(desc.indices.sizes.size())});
  } else if (axis_ok) {
    for (std::size_t i = 0; i < rank; ++i) {
      const std::uint32_t expected = i == desc.axis ? 1 : desc.output.sizes[i];
      if (desc.indices.sizes[i] != expected)
        out.push_back({field("IndicesTensor", "Sizes", i),
                       "expected " + std::to_string(expected) +
                           (i == desc.axis ? std::string(" (the size at Axis)")
                                           : " (OutputTensor.Sizes[" + std::to_string(i) + "])") +
                           ", found " + std::to_string(desc.indices.sizes[i])});
    }
  }
  if (desc.values.sizes.size() != rank)
    out.push_back({"ValuesTensor.DimensionCount",
                   "expected " + std::to_string(rank) + " (the DimensionCount of OutputTensor), found " +
                       std::to_string(desc.values.sizes.size())});
  std::uint64_t values = 1;
  for (std::uint32_t s : desc.values.sizes) values *= s;
  if (values < 2)
    out.push_back({"ValuesTensor.Sizes",
                   "expected at least 2 elements (OffValue and OnValue), found " + std::to_string(values) +
                       " (sizes " + to_text(desc.values.sizes) + ")"});
  check_same_type(desc.values, "ValuesTensor", desc.output, "OutputTensor", out);
}

// OffValue and OnValue (the kernel header's on_value_offset says where OnValue is) as bit
// patterns, read from the description: a TensorView of ValuesTensor copied its sizes and
// strides on every call (43 of seed example 1's 1503 instructions a call, callgrind).
struct OffOn { std::uint64_t off, on; };
OffOn values_of(const TensorDesc& desc, In values) {
  const std::size_t on = kernels::one_hot_detail::on_value_offset(desc.sizes, desc.strides) * size_of(desc.data_type);
  return {element_bits(values.data(), desc.data_type), element_bits(values.data() + on, desc.data_type)};
}

OneHotCall call_of(const OneHotDesc& desc, In indices, In values, Out output) {
  const OffOn v = values_of(desc.values, values);
  return {.index_type = desc.indices.data_type,
          .indices = indices.data(),
          .indices_strides = effective_strides(desc.indices),
          .value_bytes = size_of(desc.output.data_type),
          .off_bits = v.off,
          .on_bits = v.on,
          .output = output.data(),
          .sizes = desc.output.sizes,
          .output_strides = effective_strides(desc.output),
          .axis = desc.axis,
          .wrap_negative = true};
}

}  // namespace

const OperatorTable& one_hot_table() { return table; }

}  // namespace refops::detail

namespace refops {

std::vector<Diagnostic> validate(const OneHotDesc& desc, FeatureLevel level) {
  using namespace detail;
  std::vector<Diagnostic> out;
  const bool known = check_level(table, level, out);
  bool usable = true;
  const auto check = [&](const TensorDesc& t, std::string_view name, TensorRole role) {
    if (!check_tensor(t, name, role, out)) {
      usable = false;
      return;
    }
    if (known) check_support(table, name, t, level, out);
  };
  check(desc.indices, "IndicesTensor", TensorRole::input);
  check(desc.values, "ValuesTensor", TensorRole::input);
  check(desc.output, "OutputTensor", TensorRole::output);
  if (usable) check_shapes(desc, out);
  return out;
}

std::optional<FeatureLevel> minimum_feature_level(const OneHotDesc& desc) {
  return detail::lowest_valid_level(
      desc, [](const OneHotDesc& d, FeatureLevel l) { return validate(d, l); });
}

void execute(const OneHotDesc& desc, In indices, In values, Out output, const ExecuteOptions& options) {
  using namespace detail;
  const auto validate_one_hot = [](const OneHotDesc& d, FeatureLevel l) { return validate(d, l); };
  finish_execute(validate_once(desc, options.feature_level, validate_one_hot), {desc.output, "OutputTensor", output},
                 {{desc.indices, "IndicesTensor", indices}, {desc.values, "ValuesTensor", values}},
                 one_hot_entries, options, [&] { return call_of(desc, indices, values, output); });
}

}  // namespace refops
