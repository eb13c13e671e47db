#include "errors.hpp"

#include <exception>

#include <nanobind/stl/string.h>

#include <refops/diagnostics.hpp>

namespace refops::python {

namespace nb = nanobind;

void set_error(const char* error_class, const std::vector<std::pair<std::string, std::string>>& diagnostics) {
  // The classes live in Python (refops/_error.py) so that the Python layer raises the very same
  // ones for the rules it checks itself.
  const nb::module_ classes = nb::module_::import_("refops._error");
  nb::list list;
  for (const auto& [field, message] : diagnostics) list.append(classes.attr("Diagnostic")(field, message));
  const nb::object error = classes.attr(error_class)(list);
  PyErr_SetObject(reinterpret_cast<PyObject*>(Py_TYPE(error.ptr())), error.ptr());
}

void register_error_translator() {
  nb::register_exception_translator([](const std::exception_ptr& thrown, void*) {
    try {
      std::rethrow_exception(thrown);
    } catch (const refops::Error& e) {
      std::vector<std::pair<std::string, std::string>> diagnostics;
      for (const Diagnostic& d : e.diagnostics()) diagnostics.emplace_back(d.field, d.message);
      set_error("Error", diagnostics);
    }
  });
}

}  // namespace refops::python
