// The main() of a fuzz target built without libFuzzer (GCC, or clang without
// REFOPS_BUILD_FUZZERS): runs LLVMFuzzerTestOneInput once on every file named on the command
// line or found in a named directory, so the seed corpus is a regression test in every
// build (test, sanitize, clang, aarch64) and a crash file reproduces without clang.
// Arguments starting with '-' (libFuzzer flags) are ignored.
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size);

namespace {

void run_file(const std::filesystem::path& path) {
  std::ifstream file(path, std::ios::binary);
  const std::vector<char> bytes{std::istreambuf_iterator<char>(file), std::istreambuf_iterator<char>()};
  std::fprintf(stderr, "replaying %s (%zu bytes)\n", path.c_str(), bytes.size());
  // A copy of exactly the input's size, so reading past it is an ASan report as in libFuzzer.
  std::vector<std::uint8_t> input(bytes.begin(), bytes.end());
  LLVMFuzzerTestOneInput(input.data(), input.size());
}

}  // namespace

int main(int argc, char** argv) {
  std::size_t count = 0;
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    if (arg.starts_with('-')) continue;
    std::vector<std::filesystem::path> files;
    if (std::filesystem::is_directory(arg)) {
      for (const auto& entry : std::filesystem::directory_iterator(arg))
        if (entry.is_regular_file()) files.push_back(entry.path());
      std::sort(files.begin(), files.end());
    } else if (std::filesystem::is_regular_file(arg)) {
      files.push_back(arg);
    } else {
      std::fprintf(stderr, "no such file or directory: %s\n", arg.c_str());
      return 1;
    }
    for (const auto& file : files) run_file(file);
    count += files.size();
  }
  if (count == 0) {
    std::fprintf(stderr, "usage: %s <input file or corpus directory>...\n", argv[0]);
    return 1;
  }
  std::printf("%zu inputs ran without a failure\n", count);
  return 0;
}
