// HARDMAX's and HARDMAX1's feature-level tables (SPEC section 4): read by the validator,
// rendered into docs/hardmax.md, checked against that page by the tests.
#pragma once

#include "validation/level_table.hpp"

namespace refops::detail {

const OperatorTable& hardmax_table();   // DML_OPERATOR_ACTIVATION_HARDMAX
const OperatorTable& hardmax1_table();  // DML_OPERATOR_ACTIVATION_HARDMAX1

}  // namespace refops::detail
