#include <refops/feature_level.hpp>

namespace refops {

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
