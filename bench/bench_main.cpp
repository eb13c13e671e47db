// The one benchmark main: registers every Case with Google Benchmark, runs them, prints the
// summary table. Extra flags (removed before Google Benchmark sees the rest):
//   --refops_all_archs         run every available path, not only the best and scalar
//   --refops_summary=FILE      also write the summary table to FILE (Markdown)
//   --refops_threads=1,2,4     thread counts for the large cases (default 1,2; counts above the
//                              default pool's threads are skipped)
// A --benchmark_min_time of 0.2 s is the default, so the whole suite takes a few minutes.
// The header (Google Benchmark's context) shows the cache topology refops detected and the
// store thresholds derived from it.
#include <benchmark/benchmark.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <map>
#include <optional>
#include <sstream>
#include <string>
#include <vector>

#include <refops/kernels/cache_info.hpp>
#include <refops/kernels/simd.hpp>
#include <refops/thread_pool.hpp>

#include "bench_support.hpp"

namespace refops::bench {

namespace {

std::vector<Case>& registry() {
  static std::vector<Case> all;
  return all;
}

// Buffers of the case being measured; replaced when the next case starts, so only one case's
// memory (up to 512 MiB) is held at a time.
struct Prepared {
  const Case* owner = nullptr;
  std::function<void(const ExecuteOptions&)> run;
  std::unique_ptr<PageBuffer> src, dst;
};
Prepared& prepared_for(const Case& c, bool baseline) {
  static Prepared p;
  if (p.owner != &c) {
    p = Prepared{};  // release the previous case first
    p.owner = &c;
  }
  if (baseline && !p.dst) {
    p.dst = std::make_unique<PageBuffer>(c.bytes_written);
    if (c.baseline == Baseline::memcpy) p.src = std::make_unique<PageBuffer>(c.bytes_written, 0x3C);
  }
  if (!baseline && !p.run) p.run = c.prepare();
  return p;
}

const char* baseline_name(Baseline b) {
  switch (b) {
    case Baseline::memset_zero: return "memset(0)";
    case Baseline::memset_nonzero: return "memset(0x3F)";
    case Baseline::memcpy: return "memcpy";
  }
  return "?";
}

// Cases of at least this many output bytes are large: they also run on several threads.
constexpr std::size_t large_case_bytes = std::size_t{16} << 20;

// The baseline on `threads` threads: the buffer cut into that many parts of whole cache lines,
// one per task of the default pool (the pool execute() runs on, so wake-ups cost the same).
//
// The memcpy baseline is the faster of two copies: glibc's memcpy, and one with streaming
// stores. glibc (2.36) switches memcpy to non-temporal stores only above its own threshold,
// three quarters of the L3 it believes in; on the issue-10 EPYC guest that was 192 MiB (from
// the wrong 256 MiB L3), so its 128 MiB copies kept a read-for-ownership per line and ran at
// about half the speed of its 256 MiB ones, and a kernel "beat" memcpy by 2x.
void run_baseline(benchmark::State& state, const Case& c, std::size_t threads, bool streaming_copy) {
  Prepared& p = prepared_for(c, true);
  const int byte = c.baseline == Baseline::memset_zero ? 0 : 0x3F;
  const std::size_t lines = (c.bytes_written + 63) / 64;
  auto part = [&](std::size_t i) {
    const std::size_t first = std::min(c.bytes_written, lines * i / threads * 64);
    const std::size_t last = i + 1 == threads ? c.bytes_written : lines * (i + 1) / threads * 64;
    if (c.baseline == Baseline::memcpy && streaming_copy) {
      simd::copy_span<simd::default_arch>(reinterpret_cast<unsigned char*>(p.dst->data() + first),
                                          reinterpret_cast<const unsigned char*>(p.src->data() + first),
                                          last - first, StoreStrategy::stream);
      simd::finish_stores<simd::default_arch>(StoreStrategy::stream);
    } else if (c.baseline == Baseline::memcpy) {
      std::memcpy(p.dst->data() + first, p.src->data() + first, last - first);
    } else {
      std::memset(p.dst->data() + first, byte, last - first);
    }
  };
  for (auto _ : state) {
    if (threads == 1) part(0);
    else default_thread_pool().parallel_for(threads, part);
    benchmark::ClobberMemory();
  }
  const std::size_t bytes = c.baseline == Baseline::memcpy ? 2 * c.bytes_written : c.bytes_written;
  state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations() * bytes));
}

void run_kernel(benchmark::State& state, const Case& c, const ExecuteOptions& options) {
  Prepared& p = prepared_for(c, false);
  for (auto _ : state) {
    p.run(options);
    benchmark::ClobberMemory();
  }
  state.SetBytesProcessed(
      static_cast<std::int64_t>(state.iterations() * (c.bytes_written + c.bytes_read)));
}

// Collects bytes per second by benchmark name while the console reporter prints as usual.
class Collector : public benchmark::ConsoleReporter {
 public:
  std::map<std::string, double> gbps;
  void ReportRuns(const std::vector<Run>& runs) override {
    for (const Run& r : runs) {
      auto it = r.counters.find("bytes_per_second");
      if (it != r.counters.end() && r.error_occurred == false)
        // The registered name: benchmark_name() carries suffixes such as "/real_time".
        gbps[r.run_name.function_name] = static_cast<double>(it->second) / 1e9;
    }
    ConsoleReporter::ReportRuns(runs);
  }
};

std::string format(const char* fmt, double v) {
  char buf[64];
  std::snprintf(buf, sizeof buf, fmt, v);
  return buf;
}

// "1,2,4" -> {1, 2, 4}
std::vector<std::size_t> parse_counts(const std::string& list) {
  std::vector<std::size_t> counts;
  std::istringstream in(list);
  for (std::string item; std::getline(in, item, ',');)
    if (const auto n = std::strtoull(item.c_str(), nullptr, 10); n > 0) counts.push_back(n);
  return counts;
}

// Benchmark names: one thread keeps the names of earlier runs; more threads add "/threads:N".
std::string with_threads(std::string name, std::size_t threads) {
  return threads == 1 ? name : name + "/threads:" + std::to_string(threads);
}

std::string mib(std::size_t bytes) { return format("%.1f MiB", static_cast<double>(bytes) / (1 << 20)); }

constexpr StoreStrategy all_strategies[] = {StoreStrategy::plain, StoreStrategy::stream, StoreStrategy::rep};

// "avx2" or "avx2 stores=rep": the benchmark name's last part.
std::string path_name(Arch a, std::optional<StoreStrategy> s) {
  return std::string(name_of(a)) + (s ? " stores=" + std::string(name_of(*s)) : "");
}

// What the kernels will decide from, in the benchmark's header.
void add_cache_context() {
  const simd::CacheTopology& t = simd::cache_topology();
  benchmark::AddCustomContext("refops cache topology",
                              "source " + std::string(t.source) + ", L2 " + mib(t.l2_bytes) + ", LLC " +
                                  mib(t.llc_bytes) + " shared by " + std::to_string(t.llc_sharing_cpus) +
                                  " CPUs (" + mib(t.llc_per_cpu_bytes) + " each)");
  benchmark::AddCustomContext(
      "refops stores",
      "rep when the background is zero in one block and sparse writes are >= " +
          std::to_string(simd::rep_min_bytes_per_sparse) + " bytes apart; else plain below " +
          mib(simd::streaming_threshold_bytes()) + " per call (the LLC), stream above" +
          (simd::stores_from_environment() ? std::string("; REFOPS_STORES forces ") +
                                                 std::string(name_of(*simd::stores_from_environment()))
                                           : std::string()));
}

}  // namespace

bool add_case(Case c) {
  registry().push_back(std::move(c));
  return true;
}
const std::vector<Case>& cases() { return registry(); }

PageBuffer::PageBuffer(std::size_t bytes, unsigned char fill)
    : data_(static_cast<std::byte*>(std::aligned_alloc(64, (bytes + 63) / 64 * 64 + 64))), size_(bytes) {
  if (!data_) throw std::bad_alloc();
  std::memset(data_.get(), fill, size_);  // touch every page before any timing
}
void PageBuffer::Free::operator()(std::byte* p) const { std::free(p); }

}  // namespace refops::bench

int main(int argc, char** argv) {
  using namespace refops;
  using namespace refops::bench;

  bool all_archs = false;
  std::string summary_file;
  std::vector<std::size_t> thread_counts{1, 2};
  bool has_min_time = false;
  std::vector<char*> args;
  for (int i = 0; i < argc; ++i) {
    std::string a = argv[i];
    if (a == "--refops_all_archs") { all_archs = true; continue; }
    if (a.rfind("--refops_summary=", 0) == 0) { summary_file = a.substr(17); continue; }
    if (a.rfind("--refops_threads=", 0) == 0) { thread_counts = parse_counts(a.substr(17)); continue; }
    if (a.rfind("--benchmark_min_time", 0) == 0) has_min_time = true;
    args.push_back(argv[i]);
  }
  static char min_time[] = "--benchmark_min_time=0.2";
  if (!has_min_time) args.insert(args.begin() + 1, min_time);
  int count = static_cast<int>(args.size());
  benchmark::Initialize(&count, args.data());

  add_cache_context();
  std::vector<Arch> archs = available_archs();
  if (!all_archs && archs.size() > 2) archs = {archs.front(), Arch::scalar};
  // Thread counts for large cases: 1 always, then those the default pool has threads for.
  std::vector<std::size_t> counts{1};
  for (std::size_t n : thread_counts)
    if (n > 1 && n <= default_thread_pool().num_threads()) counts.push_back(n);
  auto counts_for = [&](const Case& c) {
    return c.bytes_written >= large_case_bytes ? counts : std::vector<std::size_t>{1};
  };
  for (const Case& c : cases()) {
    for (std::size_t n : counts_for(c)) {
      benchmark::RegisterBenchmark(with_threads(c.name + "/" + baseline_name(c.baseline), n).c_str(),
                                   [&c, n](benchmark::State& s) { run_baseline(s, c, n, false); })->UseRealTime();
      if (c.baseline == Baseline::memcpy)
        benchmark::RegisterBenchmark(with_threads(c.name + "/stream copy", n).c_str(),
                                     [&c, n](benchmark::State& s) { run_baseline(s, c, n, true); })->UseRealTime();
      // One thread: every path, and the best one with each store strategy forced; more
      // threads: the best path only.
      for (Arch a : archs) {
        if (n > 1 && a != archs.front()) continue;
        ExecuteOptions options;
        options.arch = a;
        options.max_threads = n;
        benchmark::RegisterBenchmark(with_threads(c.name + "/" + path_name(a, std::nullopt), n).c_str(),
                                     [&c, options](benchmark::State& s) { run_kernel(s, c, options); })->UseRealTime();
        if (!c.compare_stores || a != archs.front() || n > 1) continue;
        for (StoreStrategy strategy : all_strategies) {
          options.stores = strategy;
          benchmark::RegisterBenchmark((c.name + "/" + path_name(a, strategy)).c_str(),
                                       [&c, options](benchmark::State& s) { run_kernel(s, c, options); })->UseRealTime();
        }
      }
    }
  }

  Collector collector;
  benchmark::RunSpecifiedBenchmarks(&collector);

  // The summary: one row per case, thread count and path.
  std::ostringstream table;
  table << "| case | threads | path | GB/s | baseline | baseline GB/s | ratio to baseline | speed-up over scalar |\n"
        << "|---|---:|---|---:|---|---:|---:|---:|\n";
  auto measured = [&](const std::string& name) -> std::optional<double> {
    const auto it = collector.gbps.find(name);
    if (it == collector.gbps.end()) return std::nullopt;
    return it->second;
  };
  std::ostringstream stores_table;
  stores_table << "| case | auto | plain | stream | rep | auto / best forced |\n|---|---:|---:|---:|---:|---:|\n";
  for (const Case& c : cases()) {
    const auto scalar = measured(c.name + "/scalar");
    for (std::size_t n : counts_for(c)) {
      std::optional<double> base = measured(with_threads(c.name + "/" + baseline_name(c.baseline), n));
      std::string base_name = baseline_name(c.baseline);
      if (const auto streamed = measured(with_threads(c.name + "/stream copy", n)); streamed && (!base || *streamed > *base)) {
        base = streamed;
        base_name = "stream copy";
      }
      for (Arch a : archs) {
        std::vector<std::optional<StoreStrategy>> rows{std::nullopt};
        if (c.compare_stores && a == archs.front() && n == 1)
          rows.insert(rows.end(), std::begin(all_strategies), std::end(all_strategies));
        for (const auto& strategy : rows) {
          const auto k = measured(with_threads(c.name + "/" + path_name(a, strategy), n));
          if (!k) continue;
          table << "| " << c.name << " | " << n << " | " << path_name(a, strategy) << " | " << format("%.2f", *k)
                << " | " << base_name << " | " << (base ? format("%.2f", *base) : "-") << " | "
                << (base ? format("%.2f", *k / *base) : "-") << " | "
                << (scalar ? format("%.1fx", *k / *scalar) : "-") << " |\n";
        }
      }
    }
    const auto automatic = measured(c.name + "/" + path_name(archs.front(), std::nullopt));
    if (!c.compare_stores || !automatic) continue;
    double best = 0;
    stores_table << "| " << c.name << " | " << format("%.2f", *automatic);
    for (StoreStrategy strategy : all_strategies) {
      const auto k = measured(c.name + "/" + path_name(archs.front(), strategy));
      stores_table << " | " << (k ? format("%.2f", *k) : "-");
      if (k) best = std::max(best, *k);
    }
    stores_table << " | " << (best > 0 ? format("%.2f", *automatic / best) : "-") << " |\n";
  }
  table << "\nStore strategies on " << name_of(archs.front()) << ", one thread (GB/s; auto is the unforced row above):\n\n"
        << stores_table.str();
  std::printf("\nrefops summary (GB/s counts bytes written + bytes read; baselines move the same bytes in the same run)\n\n%s",
              table.str().c_str());
  if (!summary_file.empty()) std::ofstream(summary_file) << table.str();
  benchmark::Shutdown();
  return 0;
}
