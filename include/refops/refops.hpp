// The whole public API: the compiled DirectML-style layer and the header-only typed kernels.
#pragma once

#include <refops/version.hpp>
#include <refops/data_type.hpp>
#include <refops/feature_level.hpp>
#include <refops/dims.hpp>
#include <refops/tensor_desc.hpp>
#include <refops/scalar.hpp>
#include <refops/value_cast.hpp>
#include <refops/diagnostics.hpp>
#include <refops/arch.hpp>
#include <refops/thread_pool.hpp>
#include <refops/nan_mode.hpp>
#include <refops/one_hot.hpp>
#include <refops/diagonal_matrix.hpp>
#include <refops/hardmax.hpp>
#include <refops/kernels.hpp>
