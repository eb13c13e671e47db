// The one benchmark main: registers every Case with Google Benchmark, runs them, prints the
// summary table. Extra flags (removed before Google Benchmark sees the rest):
//   --refops_all_archs         run every available path, not only the best and scalar
//   --refops_summary=FILE      also write the summary table to FILE (Markdown)
//   --refops_threads=1,2,4     thread counts for the large cases (default 1,2; counts above the
//                              default pool's threads are skipped)
// A --benchmark_min_time of 0.2 s is the default, so the whole suite takes a few minutes.
#include <benchmark/benchmark.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

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
void run_baseline(benchmark::State& state, const Case& c, std::size_t threads) {
  Prepared& p = prepared_for(c, true);
  const int byte = c.baseline == Baseline::memset_zero ? 0 : 0x3F;
  const std::size_t lines = (c.bytes_written + 63) / 64;
  auto part = [&](std::size_t i) {
    const std::size_t first = std::min(c.bytes_written, lines * i / threads * 64);
    const std::size_t last = i + 1 == threads ? c.bytes_written : lines * (i + 1) / threads * 64;
    if (c.baseline == Baseline::memcpy)
      std::memcpy(p.dst->data() + first, p.src->data() + first, last - first);
    else
      std::memset(p.dst->data() + first, byte, last - first);
  };
  for (auto _ : state) {
    if (threads == 1) part(0);
    else default_thread_pool().parallel_for(threads, part);
    benchmark::ClobberMemory();
  }
  const std::size_t bytes = c.baseline == Baseline::memcpy ? 2 * c.bytes_written : c.bytes_written;
  state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations() * bytes));
}

void run_kernel(benchmark::State& state, const Case& c, Arch arch, std::size_t threads) {
  Prepared& p = prepared_for(c, false);
  ExecuteOptions options;
  options.arch = arch;
  options.max_threads = threads;
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
                                   [&c, n](benchmark::State& s) { run_baseline(s, c, n); })->UseRealTime();
      // One thread: every path; more: the best path only.
      for (Arch a : archs)
        if (n == 1 || a == archs.front())
          benchmark::RegisterBenchmark(with_threads(c.name + "/" + std::string(name_of(a)), n).c_str(),
                                       [&c, a, n](benchmark::State& s) { run_kernel(s, c, a, n); })->UseRealTime();
    }
  }

  Collector collector;
  benchmark::RunSpecifiedBenchmarks(&collector);

  // The summary: one row per case, thread count and path.
  std::ostringstream table;
  table << "| case | threads | path | GB/s | baseline | baseline GB/s | ratio to baseline | speed-up over scalar |\n"
        << "|---|---:|---|---:|---|---:|---:|---:|\n";
  for (const Case& c : cases()) {
    const auto scalar = collector.gbps.find(c.name + "/scalar");
    for (std::size_t n : counts_for(c)) {
      const auto base = collector.gbps.find(with_threads(c.name + "/" + baseline_name(c.baseline), n));
      for (Arch a : archs) {
        const auto k = collector.gbps.find(with_threads(c.name + "/" + std::string(name_of(a)), n));
        if (k == collector.gbps.end()) continue;
        table << "| " << c.name << " | " << n << " | " << name_of(a) << " | " << format("%.2f", k->second) << " | "
              << baseline_name(c.baseline) << " | "
              << (base != collector.gbps.end() ? format("%.2f", base->second) : "-") << " | "
              << (base != collector.gbps.end() ? format("%.2f", k->second / base->second) : "-") << " | "
              << (scalar != collector.gbps.end() ? format("%.1fx", k->second / scalar->second) : "-")
              << " |\n";
      }
    }
  }
  std::printf("\nrefops summary (GB/s counts bytes written + bytes read; baselines move the same bytes in the same run)\n\n%s",
              table.str().c_str());
  if (!summary_file.empty()) std::ofstream(summary_file) << table.str();
  benchmark::Shutdown();
  return 0;
}
