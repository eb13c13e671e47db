// DML_OPERATOR_ONE_HOT: the feature-level table, validate(), minimum_feature_level() and
// execute(). Semantics: SPEC section 2; the kernels: include/refops/kernels/one_hot.hpp.
#include <refops/one_hot.hpp>

#include <cstring>
#include <string>

#include "ops/one_hot_call.hpp"
#include "ops/one_hot_table.hpp"
#include "validation/tensor_rules.hpp"

namespace refops::detail {
namespace {

using FL = FeatureLevel;
constexpr TypeSet uint32_only{DataType::uint32};
constexpr TypeSet all_index_types{DataType::int64, DataType::int32, DataType::uint64, DataType::uint32};
constexpr TypeSet float_values{DataType::float32, DataType::float16};
constexpr TypeSet values_2_1{DataType::float32, DataType::float16, DataType::int32, DataType::int16,
                             DataType::int8,    DataType::uint32,  DataType::uint16, DataType::uint8};

constexpr TensorSupport indices_rows[] = {{FL::level_2_0, 4, 4, uint32_only},
                                          {FL::level_3_0, 1, 8, all_index_types}};
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

template <class U>
std::uint64_t read_as(const std::byte* p) {
  U v;
  std::memcpy(&v, p, sizeof(U));
  return v;
}

}  // namespace

std::uint64_t bits_at(const std::byte* p, std::size_t bytes) {
  switch (bytes) {
    case 1: return read_as<std::uint8_t>(p);
    case 2: return read_as<std::uint16_t>(p);
    case 4: return read_as<std::uint32_t>(p);
    default: return read_as<std::uint64_t>(p);
  }
}

const OperatorTable& one_hot_table() { return table; }

void dispatch_one_hot(const OneHotCall& call, const ExecuteOptions& options) {
  static const auto entry = REFOPS_ARCH_TABLE(run_one_hot);
  entry[resolve_arch(options)](call);
}

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
  std::vector<Diagnostic> out = validate(desc, options.feature_level);
  if (out.empty()) {
    check_binding(desc.indices, "IndicesTensor", indices, out);
    check_binding(desc.values, "ValuesTensor", values, out);
    check_binding(desc.output, "OutputTensor", output, out);
  }
  if (out.empty()) {
    check_no_overlap(desc.output, "OutputTensor", output, desc.indices, "IndicesTensor", indices, out);
    check_no_overlap(desc.output, "OutputTensor", output, desc.values, "ValuesTensor", values, out);
  }
  throw_if_any(std::move(out));

  // OnValue: one step along the last dimension of size > 1 (SPEC: logical row-major element 1).
  const Dims value_strides = effective_strides(desc.values);
  std::size_t on_element = 0;
  for (std::size_t d = desc.values.sizes.size(); d-- > 0;)
    if (desc.values.sizes[d] > 1) {
      on_element = value_strides[d];
      break;
    }
  const std::size_t bytes = size_of(desc.output.data_type);
  OneHotCall call{desc.indices.data_type, indices.data(), effective_strides(desc.indices), bytes, 0, 0,
                  output.data(), desc.output.sizes, effective_strides(desc.output), desc.axis, true,
                  options.stores};
  call.off_bits = bits_at(values.data(), bytes);
  call.on_bits = bits_at(values.data() + on_element * bytes, bytes);
  dispatch_one_hot(call, options);
}

}  // namespace refops
