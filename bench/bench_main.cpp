// The one benchmark main: registers every Case with Google Benchmark, runs them, prints the
// summary table. Extra flags (removed before Google Benchmark sees the rest):
//   --refops_all_archs         run every available path, not only the best and scalar
//   --refops_summary=FILE      also write the summary table to FILE (Markdown)
// A --benchmark_min_time of 0.2 s is the default, so the whole suite takes a few minutes.
#include <benchmark/benchmark.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

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
  std::function<void(Arch)> run;
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

void run_baseline(benchmark::State& state, const Case& c) {
  Prepared& p = prepared_for(c, true);
  const int byte = c.baseline == Baseline::memset_zero ? 0 : 0x3F;
  for (auto _ : state) {
    if (c.baseline == Baseline::memcpy)
      std::memcpy(p.dst->data(), p.src->data(), c.bytes_written);
    else
      std::memset(p.dst->data(), byte, c.bytes_written);
    benchmark::ClobberMemory();
  }
  const std::size_t bytes = c.baseline == Baseline::memcpy ? 2 * c.bytes_written : c.bytes_written;
  state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations() * bytes));
}

void run_kernel(benchmark::State& state, const Case& c, Arch arch) {
  Prepared& p = prepared_for(c, false);
  for (auto _ : state) {
    p.run(arch);
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
      if (it != r.counters.end() && r.error_occurred == false) {
        // UseRealTime() appends "/real_time" to the name; the summary looks cases up without it.
        std::string name = r.benchmark_name();
        const std::string suffix = "/real_time";
        if (name.size() > suffix.size() && name.compare(name.size() - suffix.size(), suffix.size(), suffix) == 0)
          name.resize(name.size() - suffix.size());
        gbps[name] = static_cast<double>(it->second) / 1e9;
      }
    }
    ConsoleReporter::ReportRuns(runs);
  }
};

std::string format(const char* fmt, double v) {
  char buf[64];
  std::snprintf(buf, sizeof buf, fmt, v);
  return buf;
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
  bool has_min_time = false;
  std::vector<char*> args;
  for (int i = 0; i < argc; ++i) {
    std::string a = argv[i];
    if (a == "--refops_all_archs") { all_archs = true; continue; }
    if (a.rfind("--refops_summary=", 0) == 0) { summary_file = a.substr(17); continue; }
    if (a.rfind("--benchmark_min_time", 0) == 0) has_min_time = true;
    args.push_back(argv[i]);
  }
  static char min_time[] = "--benchmark_min_time=0.2";
  if (!has_min_time) args.insert(args.begin() + 1, min_time);
  int count = static_cast<int>(args.size());
  benchmark::Initialize(&count, args.data());

  std::vector<Arch> archs = available_archs();
  if (!all_archs && archs.size() > 2) archs = {archs.front(), Arch::scalar};
  for (const Case& c : cases()) {
    benchmark::RegisterBenchmark((c.name + "/" + baseline_name(c.baseline)).c_str(),
                                 [&c](benchmark::State& s) { run_baseline(s, c); })->UseRealTime();
    for (Arch a : archs)
      benchmark::RegisterBenchmark((c.name + "/" + std::string(name_of(a))).c_str(),
                                   [&c, a](benchmark::State& s) { run_kernel(s, c, a); })->UseRealTime();
  }

  Collector collector;
  benchmark::RunSpecifiedBenchmarks(&collector);

  // The summary: one row per case and path.
  std::ostringstream table;
  table << "| case | path | GB/s | baseline | baseline GB/s | ratio to baseline | speed-up over scalar |\n"
        << "|---|---|---:|---|---:|---:|---:|\n";
  for (const Case& c : cases()) {
    const auto base = collector.gbps.find(c.name + "/" + baseline_name(c.baseline));
    const auto scalar = collector.gbps.find(c.name + "/scalar");
    for (Arch a : archs) {
      const auto k = collector.gbps.find(c.name + "/" + std::string(name_of(a)));
      if (k == collector.gbps.end()) continue;
      table << "| " << c.name << " | " << name_of(a) << " | " << format("%.2f", k->second) << " | "
            << baseline_name(c.baseline) << " | "
            << (base != collector.gbps.end() ? format("%.2f", base->second) : "-") << " | "
            << (base != collector.gbps.end() ? format("%.2f", k->second / base->second) : "-") << " | "
            << (scalar != collector.gbps.end() ? format("%.1fx", k->second / scalar->second) : "-")
            << " |\n";
    }
  }
  std::printf("\nrefops summary (GB/s counts bytes written + bytes read; baselines move the same bytes in the same run)\n\n%s",
              table.str().c_str());
  if (!summary_file.empty()) std::ofstream(summary_file) << table.str();
  benchmark::Shutdown();
  return 0;
}
