// refops._refops: the compiled part of `import refops` (python/refops/__init__.py is the API).
#include <nanobind/nanobind.h>

#include <refops/version.hpp>

#include "errors.hpp"
#include "model.hpp"
#include "ops.hpp"

NB_MODULE(_refops, m) {
  m.doc() = "refops's compiled layer; use the refops package, whose functions check their arguments";
  refops::python::register_error_translator();
  refops::python::bind_ops(m);
  refops::python::bind_model(m);
}
