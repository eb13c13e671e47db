#include "arrays.hpp"

#include <cstdint>
#include <cstring>
#include <limits>
#include <vector>

namespace refops::python {
namespace {

DataType data_type_of(nb::dlpack::dtype t, std::string_view tensor) {
  using code = nb::dlpack::dtype_code;
  if (t.lanes == 1) {
    if (t.code == static_cast<std::uint8_t>(code::Float)) {
      if (t.bits == 32) return DataType::float32;
      if (t.bits == 16) return DataType::float16;
      if (t.bits == 64) return DataType::float64;
    } else if (t.code == static_cast<std::uint8_t>(code::Int)) {
      if (t.bits == 8) return DataType::int8;
      if (t.bits == 16) return DataType::int16;
      if (t.bits == 32) return DataType::int32;
      if (t.bits == 64) return DataType::int64;
    } else if (t.code == static_cast<std::uint8_t>(code::UInt)) {
      if (t.bits == 8) return DataType::uint8;
      if (t.bits == 16) return DataType::uint16;
      if (t.bits == 32) return DataType::uint32;
      if (t.bits == 64) return DataType::uint64;
    }
  }
  throw Error({{std::string(tensor) + ".DataType",
                "expected one of the 11 DirectML data types, found DLPack type code " +
                    std::to_string(t.code) + " with " + std::to_string(t.bits) + " bits"}});
}

template <class Array>
TensorDesc describe_any(const Array& array, std::string_view tensor) {
  TensorDesc desc;
  desc.data_type = data_type_of(array.dtype(), tensor);
  if (array.ndim() > Dims::capacity)
    throw Error({{std::string(tensor) + ".DimensionCount",
                  "expected 1 to 8 dimensions, found " + std::to_string(array.ndim())}});
  constexpr auto max = std::numeric_limits<std::uint32_t>::max();
  for (std::size_t i = 0; i < array.ndim(); ++i) {
    const std::size_t size = array.shape(i);
    const std::int64_t stride = array.stride(i);
    const std::string dim = "[" + std::to_string(i) + "]";
    if (size > max)
      throw Error({{std::string(tensor) + ".Sizes" + dim,
                    "expected at most 4294967295, found " + std::to_string(size)}});
    if (size > 1 && (stride < 0 || static_cast<std::uint64_t>(stride) > max))
      throw Error({{std::string(tensor) + ".Strides" + dim,
                    "expected 0 to 4294967295 elements, found " + std::to_string(stride)}});
    desc.sizes.push_back(static_cast<std::uint32_t>(size));
    desc.strides.push_back(size > 1 ? static_cast<std::uint32_t>(stride) : 0);
  }
  return desc;
}

// Bytes from the first addressed element to the end of the last one.
std::size_t addressed_bytes(const TensorDesc& desc) {
  std::uint64_t last = 0;
  for (std::size_t i = 0; i < desc.sizes.size(); ++i) {
    if (desc.sizes[i] == 0) return 0;
    last += std::uint64_t{desc.sizes[i] - 1} * desc.strides[i];
  }
  return static_cast<std::size_t>((last + 1) * size_of(desc.data_type));
}

}  // namespace

nb::dlpack::dtype dlpack_dtype(DataType type) {
  using code = nb::dlpack::dtype_code;
  const auto bits = static_cast<std::uint8_t>(8 * size_of(type));
  switch (type) {
    case DataType::float32: case DataType::float16: case DataType::float64:
      return {static_cast<std::uint8_t>(code::Float), bits, 1};
    case DataType::uint8: case DataType::uint16: case DataType::uint32: case DataType::uint64:
      return {static_cast<std::uint8_t>(code::UInt), bits, 1};
    default:
      return {static_cast<std::uint8_t>(code::Int), bits, 1};
  }
}

TensorDesc describe(const InArray& array, std::string_view tensor) { return describe_any(array, tensor); }
TensorDesc describe(const OutArray& array, std::string_view tensor) { return describe_any(array, tensor); }

In bytes_of(const InArray& array, const TensorDesc& desc) {
  return {static_cast<const std::byte*>(array.data()), addressed_bytes(desc)};
}
Out bytes_of(const OutArray& array, const TensorDesc& desc) {
  return {static_cast<std::byte*>(array.data()), addressed_bytes(desc)};
}

Scalar scalar_of(const InArray& array, std::string_view argument) {
  const DataType type = data_type_of(array.dtype(), argument);
  if (array.ndim() != 0)
    throw Error({{std::string(argument), "expected a scalar (0 dimensions), found " +
                                             std::to_string(array.ndim()) + " dimensions"}});
  std::array<std::byte, 8> bytes{};
  std::memcpy(bytes.data(), array.data(), size_of(type));
  return Scalar::from_union_bytes(type, bytes);
}

Output given_output(const OutArray& out) {
  Output o;
  o.desc = describe(out, "OutputTensor");
  o.array = nb::find(out);
  o.bytes = bytes_of(out, o.desc);
  return o;
}

Output new_output(const TensorDesc& desc) {
  static const char* const numpy_names[] = {nullptr,  "float32", "float16", "uint32", "uint16", "uint8",
                                            "int32",  "int16",   "int8",    "float64", "uint64", "int64"};
  nb::list shape;
  for (std::uint32_t s : desc.sizes) shape.append(s);
  nb::object array = nb::module_::import_("numpy").attr("empty")(nb::tuple(shape),
                                                                  numpy_names[static_cast<int>(desc.data_type)]);
  const OutArray view = nb::cast<OutArray>(array);
  Output o;
  o.desc = describe(view, "OutputTensor");
  o.array = std::move(array);
  o.bytes = bytes_of(view, o.desc);
  return o;
}

ExecuteOptions execute_options(std::uint32_t feature_level, const std::optional<std::string>& arch,
                               std::size_t threads) {
  ExecuteOptions options;
  options.feature_level = static_cast<FeatureLevel>(feature_level);
  if (arch) {
    for (Arch a : {Arch::scalar, Arch::sse2, Arch::avx2, Arch::avx512, Arch::neon})
      if (name_of(a) == *arch) options.arch = a;
    if (!options.arch)
      throw Error({{"ExecuteOptions.arch",
                    "expected scalar, sse2, avx2, avx512 or neon, found \"" + *arch + "\""}});
  }
  options.max_threads = threads;  // `threads` (checked by the Python layer); 0: all
  return options;
}

}  // namespace refops::python
