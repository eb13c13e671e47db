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
// kernels, nothing otherwise. CMake defines REFOPS_BUILT_<name> as 1 or 0 for every name of the
// list: 1 for those of the target processor's family, or of the subset REFOPS_ISAS names
// (cmake/refops_arch.cmake).
#define REFOPS_IF_BUILT(name, ...) REFOPS_IF_BUILT_FLAG(REFOPS_BUILT_##name, __VA_ARGS__)
#define REFOPS_IF_BUILT_FLAG(flag, ...) REFOPS_IF_BUILT_PASTE(flag, __VA_ARGS__)  // expands flag first
#define REFOPS_IF_BUILT_PASTE(flag, ...) REFOPS_IF_BUILT_##flag(__VA_ARGS__)
#define REFOPS_IF_BUILT_1(...) __VA_ARGS__
#define REFOPS_IF_BUILT_0(...)
#if !defined(REFOPS_BUILT_scalar) || !REFOPS_BUILT_scalar
#error "the scalar kernels are always built (CMake defines REFOPS_BUILT_<name> for every instruction set)"
#endif
