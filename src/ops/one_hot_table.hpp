// ONE_HOT's feature-level table (SPEC section 2): read by the validator, rendered into
// docs/one_hot.md, checked against that page by the tests.
#pragma once

#include "validation/level_table.hpp"

namespace refops::detail {

const OperatorTable& one_hot_table();

// The index types ONE_HOT admits from DML_FEATURE_LEVEL_3_0 on, and OneHot-1 admits.
inline constexpr TypeSet one_hot_index_types{DataType::int64, DataType::int32, DataType::uint64,
                                             DataType::uint32};

}  // namespace refops::detail
