// The five calls of refops's Python API, as the extension's private functions: the Python layer
// (refops/__init__.py) resolves defaults, negative axes, shapes and names, and calls these with
// arrays it has checked. Each validates, allocates a result only when valid, and runs the kernel
// with the GIL released.
#pragma once

#include <nanobind/nanobind.h>

namespace refops::python {

void bind_ops(nanobind::module_& m);

}  // namespace refops::python
