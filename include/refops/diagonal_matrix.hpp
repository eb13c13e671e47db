// DIAGONAL_MATRIX and DIAGONAL_MATRIX1 (DirectML): descriptions, validation and execution.
// Semantics: SPEC section 3.
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

struct DiagonalMatrixDesc  { TensorDesc output; std::int32_t offset = 0; float value = 1.0f;
                             friend bool operator==(const DiagonalMatrixDesc&, const DiagonalMatrixDesc&) = default; };
struct DiagonalMatrix1Desc { std::optional<TensorDesc> input; TensorDesc output; Scalar value;
                             std::int32_t fill_begin = 0, fill_end = 1;
                             friend bool operator==(const DiagonalMatrix1Desc&, const DiagonalMatrix1Desc&) = default; };

std::vector<Diagnostic> validate(const DiagonalMatrixDesc&, FeatureLevel = FeatureLevel::latest);
std::vector<Diagnostic> validate(const DiagonalMatrix1Desc&, FeatureLevel = FeatureLevel::latest);
std::optional<FeatureLevel> minimum_feature_level(const DiagonalMatrixDesc&);
std::optional<FeatureLevel> minimum_feature_level(const DiagonalMatrix1Desc&);

void execute(const DiagonalMatrixDesc&, Out output, const ExecuteOptions& = {});
// `input` may be empty when desc.input is nullopt.
void execute(const DiagonalMatrix1Desc&, In input, Out output, const ExecuteOptions& = {});

}  // namespace refops
