#include "ops.hpp"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include <nanobind/stl/optional.h>
#include <nanobind/stl/string.h>
#include <nanobind/stl/vector.h>

#include "arrays.hpp"

namespace refops::python {
namespace {

namespace nb = nanobind;
using namespace nb::literals;

using Sizes = std::vector<std::uint32_t>;
using ArchName = std::optional<std::string>;

Dims dims_of(const Sizes& sizes) { return Dims(sizes.begin(), sizes.end()); }

// Runs a kernel with the GIL released: the arrays stay alive (the caller holds them) and
// nothing in `run` touches a Python object.
template <class Run>
void without_gil(Run&& run) {
  nb::gil_scoped_release released;
  run();
}

// Sets desc.output to `out`, or, when it is None, to a new packed array of `packed`'s sizes and
// type made only once the description is valid, so an invalid call allocates nothing.
template <class Desc>
Output attach_output(Desc& desc, const std::optional<OutArray>& out, const TensorDesc& packed, FeatureLevel level) {
  if (!out) {
    desc.output = packed;
    if (std::vector<Diagnostic> problems = validate(desc, level); !problems.empty()) throw Error(std::move(problems));
  }
  Output output = out ? given_output(*out) : new_output(packed);
  desc.output = output.desc;
  return output;
}

template <class Desc>
nb::object run_hardmax(Desc desc, const InArray& input, const std::optional<OutArray>& out,
                       const ExecuteOptions& options) {
  const TensorDesc packed{desc.input.data_type, desc.input.sizes, {}, 0};
  const Output output = attach_output(desc, out, packed, options.feature_level);
  without_gil([&] { execute(desc, bytes_of(input, desc.input), output.bytes, options); });
  return output.array;
}

nb::object one_hot(const InArray& indices, const InArray& values, std::uint32_t axis, const Sizes& sizes,
                   const std::optional<OutArray>& out, std::uint32_t level, const ArchName& arch,
                   std::size_t threads) {
  const ExecuteOptions options = execute_options(level, arch, threads);
  OneHotDesc desc{describe(indices, "IndicesTensor"), describe(values, "ValuesTensor"), {}, axis};
  const TensorDesc packed{desc.values.data_type, dims_of(sizes), {}, 0};
  const Output output = attach_output(desc, out, packed, options.feature_level);
  without_gil([&] { execute(desc, bytes_of(indices, desc.indices), bytes_of(values, desc.values), output.bytes, options); });
  return output.array;
}

// `out`, when given, is packed with the output's shape and dtype (the Python layer copies into
// any other view from a packed result: OneHotV1Desc has no output strides).
nb::object one_hot_v1(const InArray& indices, std::int64_t depth, const InArray& on_value,
                      const InArray& off_value, std::int64_t axis, bool normalize,
                      const std::optional<OutArray>& out, const ArchName& arch, std::size_t threads) {
  const ExecuteOptions options = execute_options(static_cast<std::uint32_t>(FeatureLevel::latest), arch, threads);
  OneHotV1Desc desc;
  desc.indices = describe(indices, "indices");
  desc.depth = depth;
  desc.on_value = scalar_of(on_value, "on_value");
  desc.off_value = scalar_of(off_value, "off_value");
  desc.axis = axis;
  desc.negative_indices = normalize ? NegativeIndices::normalize : NegativeIndices::ignore;
  const Output output = out ? given_output(*out) : new_output(output_desc(desc));  // output_desc throws if invalid
  without_gil([&] { execute(desc, bytes_of(indices, desc.indices), output.bytes, options); });
  return output.array;
}

nb::object diagonal_matrix(const Sizes& sizes, std::uint32_t data_type, std::int32_t offset, float value,
                           const std::optional<OutArray>& out, std::uint32_t level, const ArchName& arch,
                           std::size_t threads) {
  const ExecuteOptions options = execute_options(level, arch, threads);
  DiagonalMatrixDesc desc{{}, offset, value};
  const TensorDesc packed{static_cast<DataType>(data_type), dims_of(sizes), {}, 0};
  const Output output = attach_output(desc, out, packed, options.feature_level);
  without_gil([&] { execute(desc, output.bytes, options); });
  return output.array;
}

nb::object diagonal_matrix1(const Sizes& sizes, const InArray& value, std::int32_t fill_begin,
                            std::int32_t fill_end, const std::optional<InArray>& input,
                            const std::optional<OutArray>& out, std::uint32_t level, const ArchName& arch,
                            std::size_t threads) {
  const ExecuteOptions options = execute_options(level, arch, threads);
  DiagonalMatrix1Desc desc;
  desc.value = scalar_of(value, "Value");
  desc.fill_begin = fill_begin;
  desc.fill_end = fill_end;
  if (input) desc.input = describe(*input, "InputTensor");
  const TensorDesc packed{desc.value.type(), dims_of(sizes), {}, 0};
  const Output output = attach_output(desc, out, packed, options.feature_level);
  const In input_bytes = input ? bytes_of(*input, *desc.input) : In{};
  without_gil([&] { execute(desc, input_bytes, output.bytes, options); });
  return output.array;
}

// axes: HARDMAX over the last dimension when absent, HARDMAX1 over these dimensions otherwise.
nb::object hardmax(const InArray& input, const std::optional<Sizes>& axes, bool ignore_nan,
                   const std::optional<OutArray>& out, std::uint32_t level, const ArchName& arch,
                   std::size_t threads) {
  const ExecuteOptions options = execute_options(level, arch, threads);
  const TensorDesc input_desc = describe(input, "InputTensor");
  const NanMode nan_mode = ignore_nan ? NanMode::ignore : NanMode::propagate;
  if (!axes) return run_hardmax(HardmaxDesc{input_desc, {}, nan_mode}, input, out, options);
  return run_hardmax(Hardmax1Desc{input_desc, {}, dims_of(*axes), nan_mode}, input, out, options);
}

std::vector<std::string> available_arch_names() {
  std::vector<std::string> names;
  for (Arch a : available_archs()) names.emplace_back(name_of(a));
  return names;
}

}  // namespace

void bind_ops(nb::module_& m) {
  m.def("one_hot", &one_hot, "indices"_a, "values"_a, "axis"_a, "sizes"_a, "out"_a.none(), "feature_level"_a,
        "arch"_a.none(), "threads"_a);
  m.def("one_hot_v1", &one_hot_v1, "indices"_a, "depth"_a, "on_value"_a, "off_value"_a, "axis"_a,
        "normalize"_a, "out"_a.none(), "arch"_a.none(), "threads"_a);
  m.def("diagonal_matrix", &diagonal_matrix, "sizes"_a, "data_type"_a, "offset"_a, "value"_a, "out"_a.none(),
        "feature_level"_a, "arch"_a.none(), "threads"_a);
  m.def("diagonal_matrix1", &diagonal_matrix1, "sizes"_a, "value"_a, "fill_begin"_a, "fill_end"_a,
        "input"_a.none(), "out"_a.none(), "feature_level"_a, "arch"_a.none(), "threads"_a);
  m.def("hardmax", &hardmax, "input"_a, "axes"_a.none(), "ignore_nan"_a, "out"_a.none(), "feature_level"_a,
        "arch"_a.none(), "threads"_a);
  m.def("available_archs", &available_arch_names);
}

}  // namespace refops::python
