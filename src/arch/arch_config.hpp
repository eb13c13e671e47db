// Included first by every file in src/arch/: names the Arch this compilation is for. CMake
// compiles each of those files once per Arch with that instruction set's flags and one of the
// REFOPS_ARCH_<NAME> macros. Code here lives in namespace refops::detail::REFOPS_ARCH_NS, and
// the kernel headers in inline namespace REFOPS_KERNEL_ABI (include/refops/kernels/abi.hpp),
// so the copies for different instruction sets never share a symbol (ATen's rule: nothing
// compiled with AVX-512 flags may be picked by the linker for the baseline path).
#pragma once

#if defined(REFOPS_KERNEL_ABI)
#error "src/arch/arch_config.hpp must be included before any kernel header"
#endif

#if defined(REFOPS_ARCH_SCALAR)
#define REFOPS_ARCH_NS scalar
#define REFOPS_KERNEL_ABI arch_scalar
#elif defined(REFOPS_ARCH_SSE2)
#define REFOPS_ARCH_NS sse2
#define REFOPS_KERNEL_ABI arch_sse2
#elif defined(REFOPS_ARCH_AVX2)
#define REFOPS_ARCH_NS avx2
#define REFOPS_KERNEL_ABI arch_avx2
#elif defined(REFOPS_ARCH_AVX512)
#define REFOPS_ARCH_NS avx512
#define REFOPS_KERNEL_ABI arch_avx512
#elif defined(REFOPS_ARCH_NEON)
#define REFOPS_ARCH_NS neon
#define REFOPS_KERNEL_ABI arch_neon
#else
#error "src/arch/ files are compiled by CMake once per Arch, with REFOPS_ARCH_<NAME> defined"
#endif

#include <refops/kernels/simd.hpp>

namespace refops::detail::REFOPS_ARCH_NS {
#if defined(REFOPS_ARCH_SCALAR)
using Arch = ::refops::simd::scalar_arch;
#elif defined(REFOPS_ARCH_SSE2)
using Arch = ::xsimd::sse2;
#elif defined(REFOPS_ARCH_AVX2)
using Arch = ::xsimd::avx2;
#elif defined(REFOPS_ARCH_AVX512)
using Arch = ::xsimd::avx512bw;
#else
using Arch = ::xsimd::neon64;
#endif
}  // namespace refops::detail::REFOPS_ARCH_NS
