// Helpers for the model reader's tests: a fresh folder per test, files written into it, and a
// model run from JSON text in that folder with its buffers returned.
#pragma once

#include <cstring>
#include <filesystem>
#include <fstream>
#include <random>
#include <string>
#include <vector>

#include "model/model.hpp"

namespace refops::model::test {

// A folder under the system's temporary directory, removed with everything in it.
class TempDir {
 public:
  TempDir() {
    std::random_device rd;
    path_ = std::filesystem::temp_directory_path() / ("refops_model_test_" + std::to_string(rd()) + std::to_string(rd()));
    std::filesystem::create_directories(path_);
  }
  ~TempDir() {
    std::error_code ec;
    std::filesystem::remove_all(path_, ec);
  }
  const std::filesystem::path& path() const { return path_; }
  std::filesystem::path write(const std::string& name, const std::string& bytes) const {
    std::ofstream(path_ / name, std::ios::binary) << bytes;
    return path_ / name;
  }
  std::string read(const std::string& name) const {
    std::ifstream in(path_ / name, std::ios::binary);
    return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
  }
  std::vector<std::string> files() const {
    std::vector<std::string> out;
    for (auto& e : std::filesystem::recursive_directory_iterator(path_)) out.push_back(e.path().lexically_relative(path_).string());
    return out;
  }

 private:
  std::filesystem::path path_;
};

// A buffer's bytes as values of T.
template <class T>
std::vector<T> values_of(const Buffer& b) {
  std::vector<T> out(b.bytes.size() / sizeof(T));
  std::memcpy(out.data(), b.bytes.data(), out.size() * sizeof(T));
  return out;
}

inline std::string bytes_of(const Buffer& b) { return {reinterpret_cast<const char*>(b.bytes.data()), b.bytes.size()}; }

template <class T>
std::string raw(std::initializer_list<T> values) {
  std::string s;
  for (T v : values) s.append(reinterpret_cast<const char*>(&v), sizeof v);
  return s;
}

}  // namespace refops::model::test
