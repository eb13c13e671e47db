// Everything the kernel headers define lives in the inline namespace REFOPS_KERNEL_ABI
// (ATen's `inline namespace CPU_CAPABILITY`). A consumer sees refops::kernels::one_hot as
// usual (`native`); refops's own per-instruction-set objects (src/arch/arch_config.hpp) set it
// to their Target, so the AVX-512 copy of a template that does not depend on the Target (a
// canonicalization, a scalar fallback) has another symbol than the baseline copy, and the
// linker can never hand the scalar path code compiled for a CPU it may not run on.
#pragma once

#ifndef REFOPS_KERNEL_ABI
#define REFOPS_KERNEL_ABI native
#endif
