// Included first by every file in src/arch/: names the instruction set this compilation is
// for. CMake compiles each of those files once per entry of dispatch/isa_list.hpp that the
// build has, with that instruction set's flags and REFOPS_ISA=<name>. Code here lives in
// namespace refops::detail::REFOPS_ISA, and the kernel headers in inline namespace
// REFOPS_KERNEL_ABI (include/refops/kernels/abi.hpp), so the copies for different instruction
// sets never share a symbol (ATen's rule: nothing compiled with AVX-512 flags may be picked by
// the linker for the baseline path).
#pragma once

#if defined(REFOPS_KERNEL_ABI)
#error "src/arch/arch_config.hpp must be included before any kernel header"
#endif
#if !defined(REFOPS_ISA)
#error "src/arch/ files are compiled by CMake once per instruction set, with REFOPS_ISA=<name>"
#endif

#define REFOPS_ISA_CONCAT2(a, b) a##b
#define REFOPS_ISA_CONCAT(a, b) REFOPS_ISA_CONCAT2(a, b)
#define REFOPS_KERNEL_ABI REFOPS_ISA_CONCAT(arch_, REFOPS_ISA)

#include <refops/kernels/simd.hpp>

#include "dispatch/isa_list.hpp"

namespace refops::detail::REFOPS_ISA {

namespace isa_targets {
#define REFOPS_ISA_TARGET(name, family, target, arg) REFOPS_IF_BUILT(name, using name = target;)
REFOPS_FOR_EACH_ISA(REFOPS_ISA_TARGET, ~)
#undef REFOPS_ISA_TARGET
}  // namespace isa_targets

// The SIMD target this copy's kernels are instantiated with: the kernels' template parameter
// (an xsimd architecture, or simd::scalar_arch). Not the public enum refops::Arch.
using SimdTarget = isa_targets::REFOPS_ISA;

}  // namespace refops::detail::REFOPS_ISA
