// ONE_HOT (DirectML DML_ONE_HOT_OPERATOR_DESC) and OpenVINO OneHot-1: descriptions, validation
// and execution. Semantics: SPEC section 2.
#pragma once

#include <cstdint>
#include <optional>
#include <vector>

#include <refops/arch.hpp>
#include <refops/diagnostics.hpp>
#include <refops/feature_level.hpp>
#include <refops/scalar.hpp>
#include <refops/tensor_desc.hpp>

namespace refops {

struct OneHotDesc { TensorDesc indices, values, output; std::uint32_t axis = 0;
                    friend bool operator==(const OneHotDesc&, const OneHotDesc&) = default; };

enum class NegativeIndices { ignore, normalize };
struct OneHotV1Desc {              // OpenVINO OneHot-1 (and OneHot-16's negative_indices_mode)
  TensorDesc indices;              // rank 0..7: sizes may be empty for a scalar index
  std::int64_t depth = 0;
  Scalar on_value, off_value;      // same type: the output's
  std::int64_t axis = -1;
  NegativeIndices negative_indices = NegativeIndices::ignore;
  friend bool operator==(const OneHotV1Desc&, const OneHotV1Desc&) = default;
};

// Packed output description (throws Error if invalid).
TensorDesc output_desc(const OneHotV1Desc&);

std::vector<Diagnostic> validate(const OneHotDesc&, FeatureLevel = FeatureLevel::latest);
std::vector<Diagnostic> validate(const OneHotV1Desc&);  // not a DirectML operator: no level
std::optional<FeatureLevel> minimum_feature_level(const OneHotDesc&);

void execute(const OneHotDesc&, In indices, In values, Out output, const ExecuteOptions& = {});
void execute(const OneHotV1Desc&, In indices, Out output, const ExecuteOptions& = {});

}  // namespace refops
