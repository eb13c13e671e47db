// Arrays as refops tensors: a NumPy (or DLPack) array's dtype, shape and strides become a
// TensorDesc with element strides and the span of bytes it addresses, used in place.
// The Python layer (refops/_arrays.py) has already refused what a TensorDesc cannot say
// (negative strides, strides that are not a multiple of the itemsize, more than 8 dimensions,
// dtypes that are none of the 11); the checks here only keep a direct caller of _refops safe.
#pragma once

#include <cstddef>
#include <optional>
#include <span>
#include <string>
#include <string_view>

#include <nanobind/nanobind.h>
#include <nanobind/ndarray.h>

#include <refops/refops.hpp>

namespace refops::python {

namespace nb = nanobind;

using InArray = nb::ndarray<nb::ro, nb::device::cpu>;
using OutArray = nb::ndarray<nb::device::cpu>;

// The array's description: its DataType, its sizes, and its strides in elements (0 for a
// dimension of size 1, where the stride addresses nothing).
TensorDesc describe(const InArray& array, std::string_view tensor);
TensorDesc describe(const OutArray& array, std::string_view tensor);

// The bytes a described array addresses, from its first element (empty when a size is 0).
In bytes_of(const InArray& array, const TensorDesc& desc);
Out bytes_of(const OutArray& array, const TensorDesc& desc);

// The DLPack type of a DataType.
nb::dlpack::dtype dlpack_dtype(DataType type);

// A 0-d array as a typed value (DML_SCALAR_UNION with its type).
Scalar scalar_of(const InArray& array, std::string_view argument);

// The output of a call: its description, the array the call returns, the bytes it addresses.
struct Output {
  TensorDesc desc;
  nb::object array;
  Out bytes;
};
// A new empty packed array of `desc`'s sizes and type (numpy.empty).
Output new_output(const TensorDesc& desc);
// `out` as the caller gave it.
Output given_output(const OutArray& out);

// The execute() options from the Python arguments: feature_level is DML_FEATURE_LEVEL's value,
// arch a name ("avx2") or empty for the best, threads 0 for all.
ExecuteOptions execute_options(std::uint32_t feature_level, const std::optional<std::string>& arch,
                               std::size_t threads);

}  // namespace refops::python
