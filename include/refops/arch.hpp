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

// How kernels write their output (docs/decisions.md, "Store strategy"). Every strategy writes
// the same bytes; only the speed differs.
enum class StoreStrategy {
  plain,   // vector stores through the cache (what a consumer reading the output soon wants)
  stream,  // non-temporal stores around the cache (plain where the instruction set has none)
  rep,     // the C library's memset (rep stosb) of the constant background, then the sparse
           // writes; other runs as plain
};
constexpr std::string_view name_of(StoreStrategy s) {
  switch (s) {
    case StoreStrategy::plain: return "plain";
    case StoreStrategy::stream: return "stream";
    case StoreStrategy::rep: return "rep";
  }
  return "unknown";
}

struct ExecuteOptions {
  FeatureLevel feature_level = FeatureLevel::latest;  // validate at this level
  std::optional<Arch> arch = std::nullopt;            // force one path (tests, benchmarks)
  ThreadPool* thread_pool = nullptr;                  // nullptr: default_thread_pool()
  std::size_t max_threads = 0;                        // 0: as many as the pool has; 1: caller only
  // Force one store strategy (tests, benchmarks). Unset: the environment variable
  // REFOPS_STORES (auto|plain|stream|rep, read once), else chosen per call from the call's
  // output size, the cache topology and the output's pattern.
  std::optional<StoreStrategy> stores = std::nullopt;
};

using In = std::span<const std::byte>;  // std::as_bytes(std::span(v))
using Out = std::span<std::byte>;       // std::as_writable_bytes(std::span(v))

}  // namespace refops
