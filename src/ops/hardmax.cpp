// HARDMAX and HARDMAX1: feature-level tables, validation and execute() (SPEC section 4).
#include <atomic>
#include <string>

#include <refops/hardmax.hpp>

#include "ops/finish_execute.hpp"
#include "ops/validated_once.hpp"
#include "ops/hardmax_call.hpp"
#include "ops/hardmax_table.hpp"
#include "ops/hardmax_tuning.hpp"
#include "validation/tensor_rules.hpp"

namespace refops {

namespace detail {

namespace {

std::atomic<std::size_t> hardmax_pass_rows{0};

// Sets a forced choice in every instruction set's copy of the kernels.
template <class Table>
void force_on_every_arch(const Table& table, std::size_t choice) {
  for (Arch a : all_archs)
    if (table[a] != nullptr) table[a](choice);
}

}  // namespace

void force_hardmax_pass_rows(std::size_t rows) { hardmax_pass_rows.store(rows, std::memory_order_relaxed); }
std::size_t forced_hardmax_pass_rows() { return hardmax_pass_rows.load(std::memory_order_relaxed); }

void force_hardmax_columns_prefetch(std::size_t choice) {
  static const auto table = REFOPS_ARCH_TABLE(force_columns_prefetch);
  force_on_every_arch(table, choice);
}

void force_hardmax_columns_fold(std::size_t choice) {
  static const auto table = REFOPS_ARCH_TABLE(force_columns_fold);
  force_on_every_arch(table, choice);
}

void force_hardmax_line_prefetch(std::size_t choice) {
  static const auto table = REFOPS_ARCH_TABLE(force_line_prefetch);
  force_on_every_arch(table, choice);
}

void force_hardmax_rows_loop(std::size_t choice) {
  static const auto table = REFOPS_ARCH_TABLE(force_rows_loop);
  force_on_every_arch(table, choice);
}

void force_hardmax_rows_side_by_side(std::size_t choice) {
  static const auto table = REFOPS_ARCH_TABLE(force_rows_side_by_side);
  force_on_every_arch(table, choice);
}

void force_hardmax_rows_zeros_beside(std::size_t choice) {
  static const auto table = REFOPS_ARCH_TABLE(force_rows_zeros_beside);
  force_on_every_arch(table, choice);
}

namespace {

using FL = FeatureLevel;
constexpr TypeSet f32_f16{DataType::float32, DataType::float16};

// DML_ACTIVATION_HARDMAX_OPERATOR_DESC: 4 dimensions at 1_0, 4-5 at 2_0, 1-8 at 3_0.
constexpr TensorSupport hardmax_rows[] = {
    {FL::level_1_0, 4, 4, f32_f16}, {FL::level_2_0, 4, 5, f32_f16}, {FL::level_3_0, 1, 8, f32_f16}};
constexpr TensorTable hardmax_tensors[] = {{"InputTensor", hardmax_rows}, {"OutputTensor", hardmax_rows}};
constexpr OperatorTable hardmax_op{"DML_OPERATOR_ACTIVATION_HARDMAX", FL::level_1_0, hardmax_tensors};

// DML_ACTIVATION_HARDMAX1_OPERATOR_DESC: one row, from 5_1.
constexpr TensorSupport hardmax1_rows[] = {{FL::level_5_1, 1, 8, f32_f16}};
constexpr TensorTable hardmax1_tensors[] = {{"InputTensor", hardmax1_rows}, {"OutputTensor", hardmax1_rows}};
constexpr OperatorTable hardmax1_op{"DML_OPERATOR_ACTIVATION_HARDMAX1", FL::level_5_1, hardmax1_tensors};

// The rules both operators share: level, tensors, table support, same type and sizes.
// Returns true when the input's sizes are usable for the operator's own shape rules.
bool check_tensors(const OperatorTable& op, const TensorDesc& input, const TensorDesc& output,
                   FeatureLevel level, std::vector<Diagnostic>& out) {
  const bool known = check_level(op, level, out);
  const bool input_ok = check_tensor(input, "InputTensor", TensorRole::input, out);
  const bool output_ok = check_tensor(output, "OutputTensor", TensorRole::output, out);
  if (known && input_ok) check_support(op, "InputTensor", input, level, out);
  if (known && output_ok) check_support(op, "OutputTensor", output, level, out);
  if (input_ok && output_ok) {
    check_same_type(output, "OutputTensor", input, "InputTensor", out);
    check_same_sizes(output, "OutputTensor", input, "InputTensor", out);
  }
  return input_ok;
}

// Axes: a non-empty set of distinct axes, each < DimensionCount (SPEC: our rule for the empty
// set and duplicates; DirectML leaves them undocumented).
void check_axes(const Dims& axes, std::size_t rank, bool rank_known, std::vector<Diagnostic>& out) {
  if (axes.empty()) {
    out.push_back({"Axes", "expected at least one axis (AxisCount >= 1), found AxisCount 0; "
                           "HARDMAX1 needs the axes whose elements form each group"});
    return;
  }
  for (std::size_t i = 0; i < axes.size(); ++i) {
    const std::string name = "Axes[" + std::to_string(i) + "]";
    if (rank_known && axes[i] >= rank) {
      out.push_back({name, "expected an axis less than " + std::to_string(rank) +
                               " (InputTensor.DimensionCount), found " + std::to_string(axes[i])});
      continue;
    }
    for (std::size_t j = 0; j < i; ++j)
      if (axes[j] == axes[i]) {
        out.push_back({name, "expected distinct axes (Axes is a set), found " + std::to_string(axes[i]) +
                                 " again (also Axes[" + std::to_string(j) + "])"});
        break;
      }
  }
}

// HARDMAX (v0) treats its input as a batch of rows: at most 2 dimensions once leading size-1
// dimensions are dropped (SPEC section 4; the strict reading of DirectML's docs).
void check_effective_rank(const TensorDesc& input, std::vector<Diagnostic>& out) {
  std::size_t first = 0;
  while (first + 1 < input.sizes.size() && input.sizes[first] == 1) ++first;
  const std::size_t effective = input.sizes.size() - first;
  if (effective > 2)
    out.push_back({"InputTensor.Sizes",
                   "expected an effective rank of at most 2 (HARDMAX reduces each row of a batch x "
                   "features matrix; leading size-1 dimensions do not count), found " +
                       std::to_string(effective) + " in " + to_text(input.sizes) +
                       "; HARDMAX1 with Axes = {" + std::to_string(input.sizes.size() - 1) +
                       "} takes any rank"});
}

// NanMode is ours (DirectML has none): one of its two values.
void check_nan_mode(NanMode mode, std::vector<Diagnostic>& out) {
  if (mode != NanMode::propagate && mode != NanMode::ignore)
    out.push_back({"NanMode", "expected NanMode::propagate (0) or NanMode::ignore (1), found " +
                                  std::to_string(static_cast<int>(mode))});
}

HardmaxCall call_of(const TensorDesc& input_desc, const TensorDesc& output_desc, const Dims& axes, NanMode mode,
                    In input, Out output) {
  return {.type = input_desc.data_type == DataType::float16 ? HardmaxType::float16 : HardmaxType::float32,
          .input = input.data(),
          .input_strides = effective_strides(input_desc),
          .output = output.data(),
          .sizes = output_desc.sizes,
          .output_strides = effective_strides(output_desc),
          .axes = axes,
          .nan_mode = mode,
          .pass_rows = forced_hardmax_pass_rows()};
}

// Both operators' end of execute(): HARDMAX passes its last axis as `axes`.
void run(const TensorDesc& input_desc, const TensorDesc& output_desc, const Dims& axes, NanMode mode, In input,
         Out output, const ExecuteOptions& options, Validated validated) {
  finish_execute(std::move(validated), {output_desc, "OutputTensor", output}, {{input_desc, "InputTensor", input}},
                 hardmax_entries, options, [&] { return call_of(input_desc, output_desc, axes, mode, input, output); });
}

}  // namespace

const OperatorTable& hardmax_table() { return hardmax_op; }
const OperatorTable& hardmax1_table() { return hardmax1_op; }

}  // namespace detail

std::vector<Diagnostic> validate(const HardmaxDesc& desc, FeatureLevel level) {
  std::vector<Diagnostic> out;
  if (detail::check_tensors(detail::hardmax_op, desc.input, desc.output, level, out))
    detail::check_effective_rank(desc.input, out);
  detail::check_nan_mode(desc.nan_mode, out);
  return out;
}

std::vector<Diagnostic> validate(const Hardmax1Desc& desc, FeatureLevel level) {
  std::vector<Diagnostic> out;
  const bool rank_known = detail::check_tensors(detail::hardmax1_op, desc.input, desc.output, level, out);
  detail::check_axes(desc.axes, desc.input.sizes.size(), rank_known, out);
  detail::check_nan_mode(desc.nan_mode, out);
  return out;
}

std::optional<FeatureLevel> minimum_feature_level(const HardmaxDesc& desc) {
  return detail::lowest_valid_level(desc, [](const HardmaxDesc& d, FeatureLevel l) { return validate(d, l); });
}

std::optional<FeatureLevel> minimum_feature_level(const Hardmax1Desc& desc) {
  return detail::lowest_valid_level(desc, [](const Hardmax1Desc& d, FeatureLevel l) { return validate(d, l); });
}

void execute(const HardmaxDesc& desc, In input, Out output, const ExecuteOptions& options) {
  auto validated = detail::validate_once(desc, options.feature_level,
                                         [](const HardmaxDesc& d, FeatureLevel l) { return validate(d, l); });
  const Dims last_axis{static_cast<std::uint32_t>(desc.input.sizes.empty() ? 0 : desc.input.sizes.size() - 1)};
  detail::run(desc.input, desc.output, last_axis, desc.nan_mode, input, output, options, std::move(validated));
}

void execute(const Hardmax1Desc& desc, In input, Out output, const ExecuteOptions& options) {
  detail::run(desc.input, desc.output, desc.axes, desc.nan_mode, input, output, options,
              detail::validate_once(desc, options.feature_level,
                                    [](const Hardmax1Desc& d, FeatureLevel l) { return validate(d, l); }));
}

}  // namespace refops
