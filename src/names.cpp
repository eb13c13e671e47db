#include <refops/data_type.hpp>
#include <refops/feature_level.hpp>

namespace refops {

std::size_t size_of(DataType t) {
  switch (t) {
    case DataType::uint8: case DataType::int8: return 1;
    case DataType::float16: case DataType::uint16: case DataType::int16: return 2;
    case DataType::float32: case DataType::uint32: case DataType::int32: return 4;
    case DataType::float64: case DataType::uint64: case DataType::int64: return 8;
  }
  return 0;
}

std::string_view name_of(DataType t) {
  switch (t) {
    case DataType::float32: return "FLOAT32";
    case DataType::float16: return "FLOAT16";
    case DataType::uint32: return "UINT32";
    case DataType::uint16: return "UINT16";
    case DataType::uint8: return "UINT8";
    case DataType::int32: return "INT32";
    case DataType::int16: return "INT16";
    case DataType::int8: return "INT8";
    case DataType::float64: return "FLOAT64";
    case DataType::uint64: return "UINT64";
    case DataType::int64: return "INT64";
  }
  return "UNKNOWN";
}

bool is_valid(FeatureLevel level) {
  for (FeatureLevel l : all_feature_levels)
    if (l == level) return true;
  return false;
}

std::string_view name_of(FeatureLevel level) {
  switch (level) {
    case FeatureLevel::level_1_0: return "DML_FEATURE_LEVEL_1_0";
    case FeatureLevel::level_2_0: return "DML_FEATURE_LEVEL_2_0";
    case FeatureLevel::level_2_1: return "DML_FEATURE_LEVEL_2_1";
    case FeatureLevel::level_3_0: return "DML_FEATURE_LEVEL_3_0";
    case FeatureLevel::level_3_1: return "DML_FEATURE_LEVEL_3_1";
    case FeatureLevel::level_4_0: return "DML_FEATURE_LEVEL_4_0";
    case FeatureLevel::level_4_1: return "DML_FEATURE_LEVEL_4_1";
    case FeatureLevel::level_5_0: return "DML_FEATURE_LEVEL_5_0";
    case FeatureLevel::level_5_1: return "DML_FEATURE_LEVEL_5_1";
    case FeatureLevel::level_5_2: return "DML_FEATURE_LEVEL_5_2";
    case FeatureLevel::level_6_0: return "DML_FEATURE_LEVEL_6_0";
    case FeatureLevel::level_6_1: return "DML_FEATURE_LEVEL_6_1";
    case FeatureLevel::level_6_2: return "DML_FEATURE_LEVEL_6_2";
    case FeatureLevel::level_6_3: return "DML_FEATURE_LEVEL_6_3";
    case FeatureLevel::level_6_4: return "DML_FEATURE_LEVEL_6_4";
  }
  return "DML_FEATURE_LEVEL_?";
}

}  // namespace refops
