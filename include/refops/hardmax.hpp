// HARDMAX and HARDMAX1 (DirectML): descriptions, validation and execution. Semantics: SPEC
// section 4.
#pragma once

#include <optional>
#include <vector>

#include <refops/arch.hpp>
#include <refops/diagnostics.hpp>
#include <refops/dims.hpp>
#include <refops/feature_level.hpp>
#include <refops/nan_mode.hpp>
#include <refops/tensor_desc.hpp>

namespace refops {

struct HardmaxDesc  { TensorDesc input, output; NanMode nan_mode = NanMode::propagate;
                      friend bool operator==(const HardmaxDesc&, const HardmaxDesc&) = default; };
struct Hardmax1Desc { TensorDesc input, output; Dims axes;
                      NanMode nan_mode = NanMode::propagate;
                      friend bool operator==(const Hardmax1Desc&, const Hardmax1Desc&) = default; };

std::vector<Diagnostic> validate(const HardmaxDesc&, FeatureLevel = FeatureLevel::latest);
std::vector<Diagnostic> validate(const Hardmax1Desc&, FeatureLevel = FeatureLevel::latest);
std::optional<FeatureLevel> minimum_feature_level(const HardmaxDesc&);
std::optional<FeatureLevel> minimum_feature_level(const Hardmax1Desc&);

void execute(const HardmaxDesc&, In input, Out output, const ExecuteOptions& = {});
void execute(const Hardmax1Desc&, In input, Out output, const ExecuteOptions& = {});

}  // namespace refops
