#include "progress.hpp"

#include <chrono>
#include <cstdio>

namespace refops::model {

Progress::Progress(bool enabled, std::string what, std::uint64_t total) : what_(std::move(what)), total_(total) {
  if (!enabled) return;
  thread_ = std::thread([this] {
    using clock = std::chrono::steady_clock;
    const auto start = clock::now();
    std::unique_lock lock(mutex_);
    if (wake_.wait_for(lock, std::chrono::seconds(1), [this] { return stop_; })) return;
    while (!wake_.wait_for(lock, std::chrono::milliseconds(500), [this] { return stop_; }))
      draw(std::chrono::duration<double>(clock::now() - start).count(), false);
    draw(std::chrono::duration<double>(clock::now() - start).count(), true);
  });
}

Progress::~Progress() {
  if (!thread_.joinable()) return;
  {
    std::lock_guard lock(mutex_);
    stop_ = true;
  }
  wake_.notify_all();
  thread_.join();
}

void Progress::draw(double seconds, bool last) {
  char line[256];
  if (last) {
    std::snprintf(line, sizeof line, "\rrefops-run: %s: done in %.1f s\033[K\n", what_.c_str(), seconds);
  } else if (total_ > 0) {
    const double done = static_cast<double>(done_.load(std::memory_order_relaxed));
    std::snprintf(line, sizeof line, "\rrefops-run: %s: %.0f%% of %.2f GiB, %.0f s\033[K", what_.c_str(),
                  100.0 * done / static_cast<double>(total_), static_cast<double>(total_) / (1u << 30), seconds);
  } else {
    std::snprintf(line, sizeof line, "\rrefops-run: %s: %.0f s\033[K", what_.c_str(), seconds);
  }
  std::fputs(line, stderr);
  std::fflush(stderr);
}

}  // namespace refops::model
