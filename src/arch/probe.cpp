// The smallest per-ISA entry point: which instruction set this copy was compiled for and how
// many bytes its vectors hold (lets the tests prove that forcing an Arch runs that Arch's code),
// and the store rates its kernels measured (the benchmark's header shows them).
#include "arch/arch_config.hpp"
#include "arch/probe.hpp"

#include <refops/kernels/store_calibration.hpp>

namespace refops::detail::REFOPS_ISA {
namespace {
template <class A>
ArchProbe probe_of() {
  if constexpr (simd::is_vector_arch<A>)
    return {A::name(), sizeof(xsimd::batch<std::uint8_t, A>)};
  else
    return {A::name(), 0};
}
}  // namespace

ArchProbe probe() { return probe_of<SimdTarget>(); }

StoreRatesProbe store_rates() {
  const simd::StoreRates& r = simd::store_rates<SimdTarget>();
  const simd::StreamingThreshold& t = simd::streaming_threshold();
  return {r.rep_bytes_per_ns, r.stream_bytes_per_ns, r.patch_ns, r.buffer_bytes, r.piece_copy_bytes_per_ns,
          r.plain_copy_bytes_per_ns, r.fill_rounds, r.copy_rounds, t.bytes, t.source};
}

}  // namespace refops::detail::REFOPS_ISA
