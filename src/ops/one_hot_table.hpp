// ONE_HOT's feature-level table (SPEC section 2): read by the validator, rendered into
// docs/one_hot.md, checked against that page by the tests.
#pragma once

#include "validation/level_table.hpp"

namespace refops::detail {

const OperatorTable& one_hot_table();

}  // namespace refops::detail
