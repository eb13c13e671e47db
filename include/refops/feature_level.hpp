// DirectML feature levels: each is a strict superset of the one before.
#pragma once

#include <cstdint>
#include <string_view>

namespace refops {

enum class FeatureLevel : std::uint32_t {  // values are DML_FEATURE_LEVEL's
  level_1_0 = 0x1000, level_2_0 = 0x2000, level_2_1 = 0x2100, level_3_0 = 0x3000,
  level_3_1 = 0x3100, level_4_0 = 0x4000, level_4_1 = 0x4100, level_5_0 = 0x5000,
  level_5_1 = 0x5100, level_5_2 = 0x5200, level_6_0 = 0x6000, level_6_1 = 0x6100,
  level_6_2 = 0x6200, level_6_3 = 0x6300, level_6_4 = 0x6400,
  latest = level_6_4 };

// Every level, lowest first.
inline constexpr FeatureLevel all_feature_levels[] = {
    FeatureLevel::level_1_0, FeatureLevel::level_2_0, FeatureLevel::level_2_1,
    FeatureLevel::level_3_0, FeatureLevel::level_3_1, FeatureLevel::level_4_0,
    FeatureLevel::level_4_1, FeatureLevel::level_5_0, FeatureLevel::level_5_1,
    FeatureLevel::level_5_2, FeatureLevel::level_6_0, FeatureLevel::level_6_1,
    FeatureLevel::level_6_2, FeatureLevel::level_6_3, FeatureLevel::level_6_4};

// True for the 15 values above.
bool is_valid(FeatureLevel);
// "DML_FEATURE_LEVEL_5_1"; "DML_FEATURE_LEVEL_?" for a value that is not a level.
std::string_view name_of(FeatureLevel);

}  // namespace refops
