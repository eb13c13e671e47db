// HARDMAX / HARDMAX1 typed kernels (SPEC section 4): the public entry point and the choice of
// path. The semantics and what the paths share are in hardmax_core.hpp; the paths in
// hardmax_rows.hpp (reduced innermost dimension), hardmax_full_width_rows.hpp (AVX-512's FLOAT32
// medium and long rows, by the host), hardmax_rows_in_a_vector.hpp (AVX-512's packed rows of 2 to
// 16, by the host) and hardmax_columns.hpp (kept innermost dimension); any other shape runs the
// scalar reference.
#pragma once

#include <refops/kernels/cache_info.hpp>
#include <refops/kernels/hardmax_columns.hpp>
#include <refops/kernels/hardmax_core.hpp>
#include <refops/kernels/hardmax_full_width_rows.hpp>
#include <refops/kernels/hardmax_rows.hpp>
#include <refops/kernels/hardmax_rows_in_a_vector.hpp>

namespace refops::kernels::inline REFOPS_KERNEL_ABI::hardmax_detail {

// forced_pass_rows: 0, or the rows per pass the columns path must fold (2 or 4; tests and the
// benchmark's forced rows: Columns::passes_for).
template <class Target, class T>
void run(TensorView<const T> input, TensorView<T> output, const Dims& axes, NanMode mode,
         const simd::StoreRequest& store_request = {}, std::size_t forced_pass_rows = 0) {
  static_assert(std::is_same_v<T, float> || std::is_same_v<T, float16> || std::is_same_v<T, double>,
                "HARDMAX runs on FLOAT32, FLOAT16 and FLOAT64");
  assert(input.sizes() == output.sizes() && !axes.empty());
  const Plan plan = make_plan(input, output, axes);
  const simd::DenormalsAsNumbers exact_compares;  // every path compares floats (hardmax_core.hpp)
  if constexpr (simd::is_vector_arch<Target>) {
    using R = Rows<Target, T>;
    using C = Columns<Target, T>;
    const simd::LoopNest<2>& all = plan.all;
    const std::size_t last = all.rank - 1;
    const std::size_t output_bytes = output.element_count() * sizeof(T);
    const std::size_t call_bytes = std::max(store_request.call_bytes, output_bytes);  // a split call's whole
    if (all.rank > 0 && all.role[last] == reduced_role && all.strides[0][last] == 1) {
      const auto run_rows_with = [&]<class Path>(std::type_identity<Path>) {
        const StoreStrategy stores =
            simd::choose_stores<Target>(store_request, Path::store_needs(plan, output_bytes, output.data()));
        Path::run_rows(plan, input.data(), output.data(), mode, stores, call_bytes);
        simd::finish_stores<Target>(stores);
      };
      if (RowsInAVector<Target, T>::takes(plan, call_bytes)) return run_rows_with(std::type_identity<RowsInAVector<Target, T>>{});
      if (FullWidthRows<Target, T>::takes(plan)) return run_rows_with(std::type_identity<FullWidthRows<Target, T>>{});
      using Short = Rows<short_rows_target<Target>, T>;
      if (Short::takes_short_loops(plan) || Short::takes_medium_rows(plan))
        return run_rows_with(std::type_identity<Short>{});
      return run_rows_with(std::type_identity<R>{});
    }
    if (C::takes(all)) {
      const StoreStrategy stores = simd::choose_stores<Target>(store_request, C::store_needs(plan, output_bytes));
      C::run_columns(plan, input.data(), output.data(), mode, stores, call_bytes, forced_pass_rows);
      simd::finish_stores<Target>(stores);
      return;
    }
  }
  run_reference(plan, input.data(), output.data(), mode);
}

}  // namespace refops::kernels::inline REFOPS_KERNEL_ABI::hardmax_detail

namespace refops::kernels::inline REFOPS_KERNEL_ABI {

// HARDMAX1 over `axes` (a non-empty set of distinct axes < rank; order does not matter) for
// FLOAT32, FLOAT16 and FLOAT64, any strides. Assumes a valid description.
template <class T>
void hardmax(TensorView<const T> input, TensorView<T> output, Dims axes, NanMode mode = NanMode::propagate,
             const simd::StoreRequest& stores = {}) {
  hardmax_detail::run<simd::default_arch, T>(input, output, axes, mode, stores);
}

}  // namespace refops::kernels::inline REFOPS_KERNEL_ABI
