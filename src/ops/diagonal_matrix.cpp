// DIAGONAL_MATRIX and DIAGONAL_MATRIX1: feature-level tables, validation and execute()
// (SPEC sections 3, 5 and 6). The kernels are in include/refops/kernels/diagonal_matrix.hpp.
#include <refops/diagonal_matrix.hpp>

#include <atomic>
#include <string>

#include <refops/value_cast.hpp>

#include "ops/diagonal_matrix_call.hpp"
#include "ops/diagonal_matrix_table.hpp"
#include "ops/diagonal_matrix_tuning.hpp"
#include "ops/element_bits.hpp"
#include "ops/finish_execute.hpp"
#include "ops/validated_once.hpp"
#include "validation/tensor_rules.hpp"

namespace refops {
namespace detail {

namespace {
std::atomic<std::size_t> diagonal_read_gap_bytes{0};
std::atomic<std::size_t> diagonal_read_streams{0};
}  // namespace

void force_diagonal_read_gap_bytes(std::size_t bytes) { diagonal_read_gap_bytes.store(bytes, std::memory_order_relaxed); }
std::size_t forced_diagonal_read_gap_bytes() { return diagonal_read_gap_bytes.load(std::memory_order_relaxed); }
void force_diagonal_read_streams(std::size_t streams) { diagonal_read_streams.store(streams, std::memory_order_relaxed); }
std::size_t forced_diagonal_read_streams() { return diagonal_read_streams.load(std::memory_order_relaxed); }

namespace {

using FL = FeatureLevel;
constexpr TypeSet float32_float16{DataType::float32, DataType::float16};
constexpr TypeSet eight_types{DataType::float32, DataType::float16, DataType::int32,  DataType::int16,
                              DataType::int8,    DataType::uint32,  DataType::uint16, DataType::uint8};

constexpr TensorSupport diagonal_output_rows[] = {
    {FL::level_2_0, 4, 4, float32_float16},
    {FL::level_2_1, 4, 4, eight_types},
    {FL::level_4_0, 2, 4, eight_types},
    {FL::level_5_1, 2, 4, all_eleven_types}};
constexpr TensorTable diagonal_tensors[] = {{"OutputTensor", diagonal_output_rows}};
constexpr OperatorTable diagonal_table{"DML_OPERATOR_DIAGONAL_MATRIX", FL::level_2_0, diagonal_tensors};

constexpr TensorSupport diagonal1_rows[] = {{FL::level_5_1, 2, 4, all_eleven_types}};
constexpr TensorTable diagonal1_tensors[] = {{"InputTensor", diagonal1_rows}, {"OutputTensor", diagonal1_rows}};
constexpr OperatorTable diagonal1_table{"DML_OPERATOR_DIAGONAL_MATRIX1", FL::level_5_1, diagonal1_tensors};

// A tensor's rules and, when the level is known, its table row; false when it is unusable.
bool check_table_tensor(const OperatorTable& table, const TensorDesc& t, std::string_view name, TensorRole role,
                        bool level_known, FeatureLevel level, std::vector<Diagnostic>& out) {
  if (!check_tensor(t, name, role, out)) return false;
  if (level_known) check_support(table, name, t, level, out);
  return true;
}

std::string type_text(DataType t) {
  return is_valid(t) ? std::string(name_of(t)) : std::to_string(static_cast<std::uint32_t>(t));
}

// The call both operators share; input, Value and the band are each operator's own.
DiagonalMatrixCall call_of(const TensorDesc& output_desc, Out output, const TensorDesc* input_desc, In input,
                           std::uint64_t value_bits, std::int64_t fill_begin, std::int64_t fill_end) {
  return {.element_bytes = size_of(output_desc.data_type),
          .input = input_desc ? input.data() : nullptr,
          .input_strides = input_desc ? effective_strides(*input_desc) : Dims{},
          .output = output.data(),
          .sizes = output_desc.sizes,
          .output_strides = effective_strides(output_desc),
          .value_bits = value_bits,
          .fill_begin = fill_begin,
          .fill_end = fill_end,
          .read_gap_bytes = forced_diagonal_read_gap_bytes(),
          .read_streams = forced_diagonal_read_streams()};
}

}  // namespace

const OperatorTable& diagonal_matrix_table() { return diagonal_table; }
const OperatorTable& diagonal_matrix1_table() { return diagonal1_table; }

}  // namespace detail

std::vector<Diagnostic> validate(const DiagonalMatrixDesc& desc, FeatureLevel level) {
  using namespace detail;
  std::vector<Diagnostic> out;
  const bool known = check_level(diagonal_table, level, out);
  check_table_tensor(diagonal_table, desc.output, "OutputTensor", TensorRole::output, known, level, out);
  return out;  // every Offset and every float Value (NaN included) is valid
}

std::vector<Diagnostic> validate(const DiagonalMatrix1Desc& desc, FeatureLevel level) {
  using namespace detail;
  std::vector<Diagnostic> out;
  const bool known = check_level(diagonal1_table, level, out);
  const bool output_ok =
      check_table_tensor(diagonal1_table, desc.output, "OutputTensor", TensorRole::output, known, level, out);
  if (desc.input &&
      check_table_tensor(diagonal1_table, *desc.input, "InputTensor", TensorRole::input, known, level, out) &&
      output_ok) {
    check_same_type(*desc.input, "InputTensor", desc.output, "OutputTensor", out);
    check_same_sizes(*desc.input, "InputTensor", desc.output, "OutputTensor", out);
  }
  if (desc.value.type() != desc.output.data_type && is_valid(desc.output.data_type))
    out.push_back({"ValueDataType", "expected " + type_text(desc.output.data_type) +
                                        " (the DataType of OutputTensor), found " + type_text(desc.value.type())});
  return out;  // every DiagonalFillBegin and DiagonalFillEnd is valid
}

std::optional<FeatureLevel> minimum_feature_level(const DiagonalMatrixDesc& desc) {
  return detail::lowest_valid_level(desc, [](const DiagonalMatrixDesc& d, FeatureLevel l) { return validate(d, l); });
}
std::optional<FeatureLevel> minimum_feature_level(const DiagonalMatrix1Desc& desc) {
  return detail::lowest_valid_level(desc, [](const DiagonalMatrix1Desc& d, FeatureLevel l) { return validate(d, l); });
}

void execute(const DiagonalMatrixDesc& desc, Out output, const ExecuteOptions& options) {
  using namespace detail;
  const auto validate_dm = [](const DiagonalMatrixDesc& d, FeatureLevel l) { return validate(d, l); };
  finish_execute(validate_once(desc, options.feature_level, validate_dm), {desc.output, "OutputTensor", output}, {},
                 diagonal_matrix_entries, options, [&] {
                   // Value converted to the output type as SPEC section 3 says; Offset + 1 in 64
                   // bits, so Offset INT32_MAX does not wrap.
                   const std::uint64_t value = visit_data_type(desc.output.data_type, [&](auto tag) {
                     return element_bits(Scalar::of(value_cast<decltype(tag)>(desc.value)));
                   });
                   return call_of(desc.output, output, nullptr, {}, value, desc.offset, std::int64_t{desc.offset} + 1);
                 });
}

void execute(const DiagonalMatrix1Desc& desc, In input, Out output, const ExecuteOptions& options) {
  using namespace detail;
  const TensorDesc* input_desc = desc.input ? &*desc.input : nullptr;
  const auto make_call = [&] {
    return call_of(desc.output, output, input_desc, input, element_bits(desc.value), desc.fill_begin, desc.fill_end);
  };
  Validated validated = validate_once(
      desc, options.feature_level, [](const DiagonalMatrix1Desc& d, FeatureLevel l) { return validate(d, l); });
  if (input_desc)
    finish_execute(std::move(validated), {desc.output, "OutputTensor", output},
                   {{*input_desc, "InputTensor", input}}, diagonal_matrix_entries, options, make_call);
  else
    finish_execute(std::move(validated), {desc.output, "OutputTensor", output}, {}, diagonal_matrix_entries,
                   options, make_call);
}

}  // namespace refops
