// Instruction sets, runtime dispatch control and the execute() options shared by every operator.
#pragma once

#include <cstddef>
#include <optional>
#include <span>
#include <string_view>
#include <vector>

#include <refops/feature_level.hpp>
#include <refops/thread_pool.hpp>

namespace refops {

enum class Arch { scalar, sse2, avx2, avx512, neon };

// Paths built into this library and supported by this CPU, best first, capped by the
// environment variable REFOPS_ARCH (scalar|sse2|avx2|avx512|neon), read once. The scalar path
// is always last.
std::vector<Arch> available_archs();
std::string_view name_of(Arch);  // "avx2"

struct ExecuteOptions {
  FeatureLevel feature_level = FeatureLevel::latest;  // validate at this level
  std::optional<Arch> arch;                           // force one path (tests, benchmarks)
  ThreadPool* thread_pool = nullptr;                  // nullptr: default_thread_pool()
  std::size_t max_threads = 0;                        // 0: as many as the pool has; 1: caller only
};

using In = std::span<const std::byte>;  // std::as_bytes(std::span(v))
using Out = std::span<std::byte>;       // std::as_writable_bytes(std::span(v))

}  // namespace refops
