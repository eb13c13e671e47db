// The header-only typed layer: TensorView and the templated kernels. The SIMD width is the one
// the including translation unit is compiled for (simd::default_arch).
#pragma once

#include <refops/data_type.hpp>
#include <refops/dims.hpp>
#include <refops/nan_mode.hpp>
#include <refops/tensor_view.hpp>
#include <refops/kernels/simd.hpp>
#include <refops/kernels/loop_nest.hpp>
#include <refops/kernels/diagonal_matrix.hpp>
#include <refops/kernels/one_hot.hpp>
#include <refops/kernels/hardmax.hpp>
