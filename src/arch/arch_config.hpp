// Included first by every file in src/arch/: names the Arch this compilation is for. CMake
// compiles each of those files once per Arch with that instruction set's flags and one of the
// REFOPS_ARCH_<NAME> macros. Code here lives in namespace refops::detail::REFOPS_ARCH_NS, so
// the copies for different instruction sets never share a symbol (ATen's rule: nothing
// compiled with AVX-512 flags may be picked by the linker for the baseline path).
#pragma once

#include <refops/kernels/simd.hpp>

#if defined(REFOPS_ARCH_SCALAR)
#define REFOPS_ARCH_NS scalar
namespace refops::detail::scalar { using Arch = ::refops::simd::scalar_arch; }
#elif defined(REFOPS_ARCH_SSE2)
#define REFOPS_ARCH_NS sse2
namespace refops::detail::sse2 { using Arch = ::xsimd::sse2; }
#elif defined(REFOPS_ARCH_AVX2)
#define REFOPS_ARCH_NS avx2
namespace refops::detail::avx2 { using Arch = ::xsimd::avx2; }
#elif defined(REFOPS_ARCH_AVX512)
#define REFOPS_ARCH_NS avx512
namespace refops::detail::avx512 { using Arch = ::xsimd::avx512bw; }
#elif defined(REFOPS_ARCH_NEON)
#define REFOPS_ARCH_NS neon
namespace refops::detail::neon { using Arch = ::xsimd::neon64; }
#else
#error "src/arch/ files are compiled by CMake once per Arch, with REFOPS_ARCH_<NAME> defined"
#endif
