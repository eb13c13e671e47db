// DIAGONAL_MATRIX and DIAGONAL_MATRIX1: feature-level tables, validation and execute()
// (SPEC sections 3, 5 and 6). The kernels are in include/refops/kernels/diagonal_matrix.hpp.
#include <refops/diagonal_matrix.hpp>

#include <cstring>
#include <string>

#include <refops/kernels/simd.hpp>
#include <refops/value_cast.hpp>

#include "ops/diagonal_matrix_call.hpp"
#include "validation/level_table.hpp"
#include "validation/tensor_rules.hpp"

namespace refops {
namespace detail {
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

// The output's tensor rules and table row; false when the output is unusable.
bool check_output(const OperatorTable& table, const TensorDesc& output, FeatureLevel level,
                  std::vector<Diagnostic>& out) {
  if (!check_tensor(output, "OutputTensor", TensorRole::output, out)) return false;
  check_support(table, "OutputTensor", output, level, out);
  return true;
}

std::string type_text(DataType t) {
  return is_valid(t) ? std::string(name_of(t)) : std::to_string(static_cast<std::uint32_t>(t));
}

// The bits of the value in the output type, in the low bytes.
template <class T>
std::uint64_t bits_of(T value) {
  return static_cast<std::uint64_t>(simd::to_bits(value));
}

DiagonalMatrixCall make_call(const TensorDesc& output, Out output_buffer, const ExecuteOptions& options) {
  DiagonalMatrixCall call;
  call.element_bytes = size_of(output.data_type);
  call.output = output_buffer.data();
  call.sizes = output.sizes;
  call.output_strides = effective_strides(output);
  call.stores = options.stores;
  return call;
}

void run(const DiagonalMatrixCall& call, const ExecuteOptions& options) {
  static const auto table = REFOPS_ARCH_TABLE(run_diagonal_matrix);
  table[resolve_arch(options)](call);
}

}  // namespace

const OperatorTable& diagonal_matrix_table() { return diagonal_table; }
const OperatorTable& diagonal_matrix1_table() { return diagonal1_table; }

}  // namespace detail

std::vector<Diagnostic> validate(const DiagonalMatrixDesc& desc, FeatureLevel level) {
  std::vector<Diagnostic> out;
  if (!detail::check_level(detail::diagonal_table, level, out)) return out;
  detail::check_output(detail::diagonal_table, desc.output, level, out);
  return out;  // every Offset and every float Value (NaN included) is valid
}

std::vector<Diagnostic> validate(const DiagonalMatrix1Desc& desc, FeatureLevel level) {
  using namespace detail;
  std::vector<Diagnostic> out;
  if (!check_level(diagonal1_table, level, out)) return out;
  const bool output_ok = check_output(diagonal1_table, desc.output, level, out);
  if (desc.input && check_tensor(*desc.input, "InputTensor", TensorRole::input, out)) {
    check_support(diagonal1_table, "InputTensor", *desc.input, level, out);
    if (output_ok) {
      check_same_type(*desc.input, "InputTensor", desc.output, "OutputTensor", out);
      check_same_sizes(*desc.input, "InputTensor", desc.output, "OutputTensor", out);
    }
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
  std::vector<Diagnostic> diagnostics = validate(desc, options.feature_level);
  if (diagnostics.empty()) detail::check_binding(desc.output, "OutputTensor", output, diagnostics);
  detail::throw_if_any(std::move(diagnostics));

  detail::DiagonalMatrixCall call = detail::make_call(desc.output, output, options);
  // Offset + 1 in 64-bit: Offset INT32_MAX must not wrap.
  call.fill_begin = desc.offset;
  call.fill_end = std::int64_t{desc.offset} + 1;
  call.value_bits = visit_data_type(desc.output.data_type,
                                    [&](auto tag) { return detail::bits_of(value_cast<decltype(tag)>(desc.value)); });
  detail::run(call, options);
}

void execute(const DiagonalMatrix1Desc& desc, In input, Out output, const ExecuteOptions& options) {
  std::vector<Diagnostic> diagnostics = validate(desc, options.feature_level);
  if (diagnostics.empty()) {
    detail::check_binding(desc.output, "OutputTensor", output, diagnostics);
    if (desc.input) {
      detail::check_binding(*desc.input, "InputTensor", input, diagnostics);
      if (diagnostics.empty())
        detail::check_no_overlap(desc.output, "OutputTensor", output, *desc.input, "InputTensor", input, diagnostics);
    }
  }
  detail::throw_if_any(std::move(diagnostics));

  detail::DiagonalMatrixCall call = detail::make_call(desc.output, output, options);
  if (desc.input) {
    call.input = input.data();
    call.input_strides = effective_strides(*desc.input);
  }
  call.fill_begin = desc.fill_begin;
  call.fill_end = desc.fill_end;
  call.value_bits = visit_data_type(desc.output.data_type,
                                    [&](auto tag) { return detail::bits_of(desc.value.as<decltype(tag)>()); });
  detail::run(call, options);
}

}  // namespace refops
