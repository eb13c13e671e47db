// refops::Error as the Python exception refops.Error (a ValueError) carrying its diagnostics.
#pragma once

#include <nanobind/nanobind.h>

namespace refops::python {

// Translates refops::Error, wherever a binding lets it escape, into refops._error.Error with
// one refops._error.Diagnostic per diagnostic.
void register_error_translator();

}  // namespace refops::python
