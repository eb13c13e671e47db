#include "errors.hpp"

#include <exception>

#include <nanobind/stl/string.h>

#include <refops/diagnostics.hpp>

namespace refops::python {

namespace nb = nanobind;

void register_error_translator() {
  nb::register_exception_translator([](const std::exception_ptr& thrown, void*) {
    try {
      std::rethrow_exception(thrown);
    } catch (const refops::Error& e) {
      // The classes live in Python (refops/_error.py) so that the Python layer raises the very
      // same ones for the rules it checks itself.
      const nb::module_ classes = nb::module_::import_("refops._error");
      nb::list diagnostics;
      for (const Diagnostic& d : e.diagnostics()) diagnostics.append(classes.attr("Diagnostic")(d.field, d.message));
      const nb::object error = classes.attr("Error")(diagnostics);
      PyErr_SetObject(reinterpret_cast<PyObject*>(Py_TYPE(error.ptr())), error.ptr());
    }
  });
}

}  // namespace refops::python
