// The one list of the instruction sets refops compiles its kernels for. Everything else follows
// from it: the entry-point namespaces and dispatch tables (dispatch/arch_table.hpp), name_of(Arch)
// and the dispatch order (dispatch/arch.cpp), the SIMD target each per-ISA object is compiled
// for (arch/arch_config.hpp) and the CMake list of per-ISA objects (cmake/refops_arch.cmake
// reads the X(...) lines below, so keep one per line).
//
// X(name, family, target, arg):
//   name    the public Arch enumerator (include/refops/arch.hpp, in this order), its name_of()
//           text, its REFOPS_ARCH value, the namespace of its entry points and the CpuFeatures
//           member (dispatch/cpu_features.hpp) that says this CPU and OS can run it.
//   family  ANY, X86 or NEON: the processors whose builds compile it.
//   target  the xsimd architecture (or simd::scalar_arch) its kernels are instantiated with.
//   arg     passed through from the caller of REFOPS_FOR_EACH_ISA.
// Within a family the list goes from the weakest to the strongest: dispatch prefers later ones.
#pragma once

#define REFOPS_FOR_EACH_ISA(X, arg)                  \
  X(scalar, ANY, ::refops::simd::scalar_arch, arg)   \
  X(sse2, X86, ::xsimd::sse2, arg)                   \
  X(avx2, X86, ::xsimd::avx2, arg)                   \
  X(avx512, X86, ::xsimd::avx512bw, arg)             \
  X(neon, NEON, ::xsimd::neon64, arg)

// REFOPS_IF_BUILT(family, tokens): the tokens when this build compiles the family's kernels
// (CMake defines REFOPS_BUILD_X86 or REFOPS_BUILD_NEON), nothing otherwise.
#define REFOPS_IF_BUILT(family, ...) REFOPS_IF_BUILT_##family(__VA_ARGS__)
#define REFOPS_IF_BUILT_ANY(...) __VA_ARGS__
#if defined(REFOPS_BUILD_X86)
#define REFOPS_IF_BUILT_X86(...) __VA_ARGS__
#else
#define REFOPS_IF_BUILT_X86(...)
#endif
#if defined(REFOPS_BUILD_NEON)
#define REFOPS_IF_BUILT_NEON(...) __VA_ARGS__
#else
#define REFOPS_IF_BUILT_NEON(...)
#endif
