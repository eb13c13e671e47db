// refops::Error as the Python exception refops.Error (a ValueError) carrying its diagnostics.
#pragma once

#include <string>
#include <utility>
#include <vector>

#include <nanobind/nanobind.h>

namespace refops::python {

// Sets the Python error to refops._error.<error_class> (Error or ModelError) with one
// Diagnostic per (field, message).
void set_error(const char* error_class, const std::vector<std::pair<std::string, std::string>>& diagnostics);

// Translates refops::Error, wherever a binding lets it escape, into refops._error.Error with
// one refops._error.Diagnostic per diagnostic.
void register_error_translator();

}  // namespace refops::python
