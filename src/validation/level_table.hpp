// One table per operator (../shared/DESIGN.md, habit 1): for each tensor, from which feature
// level which dimension counts and data types are supported. The validator reads it, the docs are rendered
// from it (render_markdown), and minimum_feature_level follows from it.
#pragma once

#include <cstdint>
#include <initializer_list>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include <refops/data_type.hpp>
#include <refops/diagnostics.hpp>
#include <refops/feature_level.hpp>
#include <refops/tensor_desc.hpp>

namespace refops::detail {

class TypeSet {
 public:
  constexpr TypeSet(std::initializer_list<DataType> types) {
    for (DataType t : types) bits_ |= 1u << static_cast<std::uint32_t>(t);
  }
  constexpr bool has(DataType t) const {
    return is_valid(t) && ((bits_ >> static_cast<std::uint32_t>(t)) & 1u);
  }
  std::string to_text() const;  // "FLOAT32, FLOAT16" in DirectML's table order
  constexpr int count() const { return __builtin_popcount(bits_); }

 private:
  std::uint32_t bits_ = 0;
};

inline constexpr TypeSet all_eleven_types = {
    DataType::float64, DataType::float32, DataType::float16, DataType::int64,
    DataType::int32,   DataType::int16,   DataType::int8,    DataType::uint64,
    DataType::uint32,  DataType::uint16,  DataType::uint8};

// One row of DirectML's "Tensor support" table: from `level` on (until the next row).
struct TensorSupport {
  FeatureLevel level;
  std::uint32_t min_dims, max_dims;
  TypeSet types;
};

// A tensor's rows, lowest level first.
struct TensorTable {
  std::string_view tensor;  // "IndicesTensor"
  std::span<const TensorSupport> rows;
};

struct OperatorTable {
  std::string_view name;       // "DML_OPERATOR_ONE_HOT"
  FeatureLevel introduced;
  std::span<const TensorTable> tensors;
};

// Is the operator known at this level? Appends a diagnostic ("FeatureLevel") when the level is
// not a DML_FEATURE_LEVEL or is below the operator's introduction.
bool check_level(const OperatorTable&, FeatureLevel, std::vector<Diagnostic>&);

// The tensor's DimensionCount and DataType against its rows at `level`. A miss says what the
// level supports and which level first supports the value, if any does.
void check_support(const OperatorTable&, std::string_view tensor, const TensorDesc&, FeatureLevel,
                   std::vector<Diagnostic>&);

// The lowest level at which validate(desc, level) is empty.
template <class Desc, class Validate>
std::optional<FeatureLevel> lowest_valid_level(const Desc& desc, Validate validate) {
  for (FeatureLevel level : all_feature_levels)
    if (validate(desc, level).empty()) return level;
  return std::nullopt;
}

// The operator's table as Markdown, one section per level row, as docs/<operator>.md has it.
std::string render_markdown(const OperatorTable&);

}  // namespace refops::detail
