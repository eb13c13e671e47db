// The smallest per-ISA entry point: which instruction set this copy was compiled for and how
// many bytes its vectors hold. Lets the tests prove that forcing an Arch runs that Arch's code.
#include "arch/arch_config.hpp"
#include "arch/probe.hpp"

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

}  // namespace refops::detail::REFOPS_ISA
