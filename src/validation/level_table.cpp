#include "validation/level_table.hpp"

#include <algorithm>
#include <cstdio>
#include <functional>

#include "validation/tensor_rules.hpp"

namespace refops::detail {

namespace {

// DirectML's tables list types in this order.
constexpr DataType doc_order[] = {DataType::float64, DataType::float32, DataType::float16,
                                  DataType::int64,   DataType::int32,   DataType::int16,
                                  DataType::int8,    DataType::uint64,  DataType::uint32,
                                  DataType::uint16,  DataType::uint8};

std::string dims_text(std::uint32_t lo, std::uint32_t hi) {
  return lo == hi ? std::to_string(lo) : std::to_string(lo) + " to " + std::to_string(hi);
}

const TensorTable* find(const OperatorTable& op, std::string_view tensor) {
  for (const TensorTable& t : op.tensors)  // the same literal first: no string compare per call
    if (t.tensor.data() == tensor.data()) return &t;
  for (const TensorTable& t : op.tensors)
    if (t.tensor == tensor) return &t;
  return nullptr;
}

// "0x5100".
std::string hex(unsigned value) {
  char buf[16];
  std::snprintf(buf, sizeof buf, "0x%X", value);
  return buf;
}

// The row in force at `level`: the last one whose level is <= level.
const TensorSupport* row_at(const TensorTable& table, FeatureLevel level) {
  const TensorSupport* row = nullptr;
  for (const TensorSupport& r : table.rows)
    if (r.level <= level) row = &r;
  return row;
}

}  // namespace

std::string TypeSet::to_text() const {
  std::string text;
  for (DataType t : doc_order)
    if (has(t)) {
      if (!text.empty()) text += ", ";
      text += name_of(t);
    }
  return text;
}

bool check_level(const OperatorTable& op, FeatureLevel level, std::vector<Diagnostic>& out) {
  if (!is_valid(level)) {
    std::string levels;
    for (FeatureLevel l : all_feature_levels) levels += (levels.empty() ? "" : ", ") + hex(static_cast<unsigned>(l));
    out.push_back({"FeatureLevel", "expected one of the DML_FEATURE_LEVEL values " + levels +
                                       " (DML_FEATURE_LEVEL_1_0 to DML_FEATURE_LEVEL_6_4), found " +
                                       hex(static_cast<unsigned>(level))});
    return false;
  }
  if (level < op.introduced) {
    out.push_back({"FeatureLevel", std::string(op.name) + " needs " +
                                       std::string(name_of(op.introduced)) + "; validating at " +
                                       std::string(name_of(level))});
    return false;
  }
  return true;
}

void check_support(const OperatorTable& op, std::string_view tensor, const TensorDesc& desc,
                   FeatureLevel level, std::vector<Diagnostic>& out) {
  const TensorTable* table = find(op, tensor);
  const TensorSupport* row = table ? row_at(*table, level) : nullptr;
  if (!row) return;  // check_level reported it

  auto first_level_with = [&](auto supports) -> std::string {
    for (const TensorSupport& r : table->rows)
      if (r.level > level && supports(r))
        return "; it needs " + std::string(name_of(r.level));
    return "; no feature level supports it";
  };

  const auto dims = static_cast<std::uint32_t>(desc.sizes.size());
  if (dims < row->min_dims || dims > row->max_dims)
    out.push_back({field(tensor, "DimensionCount"),
                   "expected " + dims_text(row->min_dims, row->max_dims) + " at " +
                       std::string(name_of(level)) + ", found " + std::to_string(dims) +
                       first_level_with([&](const TensorSupport& r) {
                         return dims >= r.min_dims && dims <= r.max_dims;
                       })});
  if (is_valid(desc.data_type) && !row->types.has(desc.data_type))
    out.push_back({field(tensor, "DataType"),
                   "expected " + std::string(row->types.count() == 1 ? "" : "one of ") +
                       row->types.to_text() + " at " + std::string(name_of(level)) +
                       ", found " + std::string(name_of(desc.data_type)) +
                       first_level_with([&](const TensorSupport& r) { return r.types.has(desc.data_type); })});
}

std::string render_markdown(const OperatorTable& op) {
  std::string md = "## " + std::string(op.name) + "\n\nIntroduced in " +
                   std::string(name_of(op.introduced)) + ".\n";
  // Every level at which some tensor's row changes, highest first, as DirectML's pages list them.
  std::vector<FeatureLevel> levels;
  for (const TensorTable& t : op.tensors)
    for (const TensorSupport& r : t.rows) levels.push_back(r.level);
  std::sort(levels.begin(), levels.end(), std::greater<>());
  levels.erase(std::unique(levels.begin(), levels.end()), levels.end());
  for (FeatureLevel level : levels) {
    md += "\n### " + std::string(name_of(level)) + " and above\n\n";
    md += "| Tensor | Dimension counts | Data types |\n|---|---|---|\n";
    for (const TensorTable& t : op.tensors)
      if (const TensorSupport* r = row_at(t, level))
        md += "| " + std::string(t.tensor) + " | " + dims_text(r->min_dims, r->max_dims) + " | " +
              r->types.to_text() + " |\n";
  }
  return md;
}

}  // namespace refops::detail
