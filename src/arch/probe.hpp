#pragma once

#include <cstddef>

#include "dispatch/arch_table.hpp"

namespace refops::detail {

struct ArchProbe {
  const char* compiled_for;  // the xsimd arch name ("avx512bw"), or "scalar"
  std::size_t vector_bytes;  // 0 for scalar
};

REFOPS_DECLARE_PER_ARCH(ArchProbe probe();)

// What `auto` stores decide a large sparse output by on one Arch (simd::StoreRates, a type of
// each Arch's own kernel namespace, copied into one type every translation unit shares).
struct StoreRatesProbe {
  double rep_bytes_per_ns, stream_bytes_per_ns, patch_ns;
  std::size_t buffer_bytes;  // 0: not measured (no streaming stores)
  double piece_copy_bytes_per_ns, plain_copy_bytes_per_ns;  // 0: not measured (16-byte vectors)
  int fill_rounds, copy_rounds;  // rounds of passes each took (more near a rule's bar)
  // The output size from which this Arch's kernels take outputs to exceed the cache
  // (simd::streaming_threshold, measured on the first call where the LLC is large).
  std::size_t streaming_threshold_bytes;
  const char* threshold_source;
};

// Measures at the first call for that Arch (store_calibration.hpp), as the kernels would.
REFOPS_DECLARE_PER_ARCH(StoreRatesProbe store_rates();)
StoreRatesProbe store_rates_of(const ExecuteOptions&);

// The probe of the path execute() would run with these options.
ArchProbe probe_arch(const ExecuteOptions&);

}  // namespace refops::detail
