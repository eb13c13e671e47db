// validate(), minimum_feature_level() and run_model(): DxDispatch's JSON forms through
// refops::model (tools/model), the reader refops-run uses.
#pragma once

#include <nanobind/nanobind.h>

namespace refops::python {

void bind_model(nanobind::module_& m);

}  // namespace refops::python
