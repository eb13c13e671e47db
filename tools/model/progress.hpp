// A progress line on stderr for a step that takes more than a second: nothing for quick steps,
// then "refops-run: reading x.npy: 45% of 2.0 GiB, 3 s" redrawn twice a second, and a final
// line when the step ends. Only when enabled (refops-run: stderr is a terminal).
#pragma once

#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <mutex>
#include <string>
#include <thread>

namespace refops::model {

class Progress {
 public:
  // `total` bytes of work, or 0 when the step cannot say how far it is (a dispatch).
  Progress(bool enabled, std::string what, std::uint64_t total);
  ~Progress();  // ends the line if one was drawn
  Progress(const Progress&) = delete;
  Progress& operator=(const Progress&) = delete;

  void set_done(std::uint64_t bytes) { done_.store(bytes, std::memory_order_relaxed); }

 private:
  void draw(double seconds, bool last);
  std::string what_;
  std::uint64_t total_;
  std::atomic<std::uint64_t> done_{0};
  std::mutex mutex_;
  std::condition_variable wake_;
  bool stop_ = false;
  std::thread thread_;
};

}  // namespace refops::model
