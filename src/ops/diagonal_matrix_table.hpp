// DIAGONAL_MATRIX's and DIAGONAL_MATRIX1's feature-level tables (SPEC section 3): read by the
// validator, rendered into docs/diagonal_matrix.md, checked against that page by the tests.
#pragma once

#include "validation/level_table.hpp"

namespace refops::detail {

const OperatorTable& diagonal_matrix_table();   // DML_OPERATOR_DIAGONAL_MATRIX
const OperatorTable& diagonal_matrix1_table();  // DML_OPERATOR_DIAGONAL_MATRIX1

}  // namespace refops::detail
