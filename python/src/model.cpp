#include "model.hpp"

#include <cstdlib>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include <nanobind/ndarray.h>
#include <nanobind/stl/optional.h>
#include <nanobind/stl/pair.h>
#include <nanobind/stl/string.h>
#include <nanobind/stl/vector.h>

#include "model/model.hpp"

#include "arrays.hpp"
#include "errors.hpp"

namespace refops::python {
namespace {

namespace nb = nanobind;
using namespace nb::literals;
using Pairs = std::vector<std::pair<std::string, std::string>>;

// dispatchable: the JSON text of {"type": ..., "desc": {...}} (the Python layer serializes the dict).
Pairs validate_dispatchable(const std::string& dispatchable, std::uint32_t level) {
  const model::Dispatchable d = model::parse_dispatchable(dispatchable);
  Pairs out;
  for (const Diagnostic& diagnostic : model::validate(d, static_cast<FeatureLevel>(level)))
    out.emplace_back(diagnostic.field, diagnostic.message);
  return out;
}

std::optional<std::string> minimum_level(const std::string& dispatchable) {
  const std::optional<FeatureLevel> level = model::minimum_feature_level(model::parse_dispatchable(dispatchable));
  if (!level) return std::nullopt;
  return model::short_name(*level);
}

// A buffer as a 1-D array of its initializer's type, taking over its memory (no copy). Bytes
// past the last whole element (sizeInBytes need not be a multiple) are not shown.
nb::object as_array(model::Buffer& buffer) {
  const std::size_t count = static_cast<std::size_t>(buffer.bytes.size() / size_of(buffer.type));
  std::byte* data = buffer.bytes.release();
  nb::capsule owner(data, [](void* p) noexcept { std::free(p); });
  const std::size_t shape[1] = {count};
  return nb::ndarray<nb::numpy, nb::device::cpu>(data, 1, shape, owner, nullptr, dlpack_dtype(buffer.type)).cast();
}

nb::dict run_model(const std::string& path, std::uint32_t level, bool ignore_nan, const std::optional<std::string>& arch,
                   std::size_t threads, bool write_files) {
  const ExecuteOptions execute = execute_options(level, arch, threads);
  model::RunOptions options;
  options.feature_level = execute.feature_level;
  options.arch = execute.arch;
  options.threads = threads;
  options.nan_mode = ignore_nan ? NanMode::ignore : NanMode::propagate;
  options.write_files = write_files;
  std::map<std::string, model::Buffer> buffers;
  {
    nb::gil_scoped_release released;  // reading and running a model may take long
    buffers = model::run(model::read_model(path), options);
  }
  nb::dict result;
  for (auto& [name, buffer] : buffers) result[name.c_str()] = as_array(buffer);
  return result;
}

}  // namespace

void bind_model(nb::module_& m) {
  nb::register_exception_translator([](const std::exception_ptr& thrown, void*) {
    try {
      std::rethrow_exception(thrown);
    } catch (const model::InvalidError& e) {
      Pairs problems;
      for (const model::Problem& p : e.problems()) problems.emplace_back(p.path, p.message);
      set_error("Error", problems);
    } catch (const model::ModelError& e) {
      set_error("ModelError", {{e.problem().path, e.problem().message}});
    }
  });
  m.def("validate", &validate_dispatchable, "dispatchable"_a, "feature_level"_a);
  m.def("minimum_feature_level", &minimum_level, "dispatchable"_a);
  m.def("run_model", &run_model, "path"_a, "feature_level"_a, "ignore_nan"_a, "arch"_a.none(), "threads"_a,
        "write_files"_a);
}

}  // namespace refops::python
