// The one list of the instruction sets refops compiles its kernels for. Everything else follows
// from it: the entry-point namespaces and dispatch tables (dispatch/arch_table.hpp), name_of(Arch)
// and the dispatch order (dispatch/arch.cpp), the SIMD target each per-ISA object is compiled
// for (arch/arch_config.hpp) and the CMake list of per-ISA objects (cmake/refops_arch.cmake
// reads the X(...) lines below, so keep one per line). A new entry also needs its
// REFOPS_IF_BUILT block at the end.
//
// X(name, family, target, arg):
//   name    the public Arch enumerator (include/refops/arch.hpp, in this order), its name_of()
//           text, its REFOPS_ARCH value, the namespace of its entry points and the CpuFeatures
//           member (dispatch/cpu_features.hpp) that says this CPU and OS can run it.
//   family  ANY, X86 or NEON: the processors whose builds compile it (all of them unless
//           REFOPS_ISAS names fewer).
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

// REFOPS_IF_BUILT(name, tokens): the tokens when this build compiles the instruction set's
// kernels, nothing otherwise. CMake defines REFOPS_BUILD_ISA_<name> for each one it compiles:
// those of the target processor's family, or the subset REFOPS_ISAS names
// (cmake/refops_arch.cmake). One block per instruction set of the list.
#define REFOPS_IF_BUILT(name, ...) REFOPS_IF_BUILT_##name(__VA_ARGS__)
#if defined(REFOPS_BUILD_ISA_scalar)
#define REFOPS_IF_BUILT_scalar(...) __VA_ARGS__
#else
#error "the scalar kernels are always built (CMake defines REFOPS_BUILD_ISA_scalar)"
#endif
#if defined(REFOPS_BUILD_ISA_sse2)
#define REFOPS_IF_BUILT_sse2(...) __VA_ARGS__
#else
#define REFOPS_IF_BUILT_sse2(...)
#endif
#if defined(REFOPS_BUILD_ISA_avx2)
#define REFOPS_IF_BUILT_avx2(...) __VA_ARGS__
#else
#define REFOPS_IF_BUILT_avx2(...)
#endif
#if defined(REFOPS_BUILD_ISA_avx512)
#define REFOPS_IF_BUILT_avx512(...) __VA_ARGS__
#else
#define REFOPS_IF_BUILT_avx512(...)
#endif
#if defined(REFOPS_BUILD_ISA_neon)
#define REFOPS_IF_BUILT_neon(...) __VA_ARGS__
#else
#define REFOPS_IF_BUILT_neon(...)
#endif
