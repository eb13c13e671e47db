// Uses the installed refops: the vocabulary, validation and dispatch of the compiled layer, and
// the header-only typed layer. Exits non-zero if anything is not as documented.
#include <algorithm>
#include <cstdint>
#include <functional>
#include <cstdio>
#include <span>
#include <vector>

#include <refops/refops.hpp>

int main() {
  using namespace refops;
  const TensorDesc desc{DataType::float32, Dims{1, 1, 3, 4}, {}, 0};
  if (calc_buffer_tensor_size(desc) != 48) return 1;

  std::vector<float> data(12, 0.0f);
  auto view = make_view(data.data(), desc.sizes);
  view[Dims{0, 0, 2, 3}] = 7.0f;
  if (data[11] != 7.0f) return 2;

  // DIAGONAL_MATRIX through the compiled layer: validation, dispatch, the identity matrix.
  std::vector<float> eye(9, -1.0f);
  execute(DiagonalMatrixDesc{{DataType::float32, Dims{1, 1, 3, 3}, {}, 0}, 0, 1.0f},
          std::as_writable_bytes(std::span(eye)));
  if (eye != std::vector<float>{1, 0, 0, 0, 1, 0, 0, 0, 1}) return 3;

  // ONE_HOT through the header-only typed layer, compiled for this project's own flags.
  const std::vector<std::int32_t> indices{2, -1};  // -1 counts from the end of the sequence
  const std::vector<float> values{0.5f, 9.0f};     // {off, on}
  std::vector<float> one_hot(6);
  kernels::one_hot<std::int32_t, float>(make_view(indices.data(), Dims{2, 1}),
                                        make_view(values.data(), Dims{1, 2}),
                                        make_view(one_hot.data(), Dims{2, 3}), 1);
  if (one_hot != std::vector<float>{0.5f, 0.5f, 9.0f, 0.5f, 0.5f, 9.0f}) return 4;

  // A call large enough to split across the default pool (oneTBB, found through the package),
  // then the same call on a pool of the consumer's own.
  std::vector<float> big(4096 * 1024, -1.0f);
  const DiagonalMatrixDesc big_desc{{DataType::float32, Dims{4096, 1024}, {}, 0}, 0, 2.0f};
  execute(big_desc, std::as_writable_bytes(std::span(big)));
  if (big[0] != 2.0f || big[1] != 0.0f || big[4095 * 1024 + 1023] != 0.0f || big[1000 * 1025] != 2.0f) return 5;
  struct SerialPool final : ThreadPool {
    std::size_t calls = 0;
    std::size_t num_threads() const override { return 4; }
    void parallel_for(std::size_t count, const std::function<void(std::size_t)>& task) override {
      ++calls;
      for (std::size_t i = 0; i < count; ++i) task(i);
    }
  } pool;
  std::fill(big.begin(), big.end(), -1.0f);
  ExecuteOptions options;
  options.thread_pool = &pool;
  execute(big_desc, std::as_writable_bytes(std::span(big)), options);
  if (pool.calls != 1 || big[1000 * 1025] != 2.0f || big[1000 * 1025 + 1] != 0.0f) return 6;

  std::printf("refops %d.%d.%d, best path %s\n", REFOPS_VERSION_MAJOR, REFOPS_VERSION_MINOR,
              REFOPS_VERSION_PATCH, std::string(name_of(available_archs().front())).c_str());
  return 0;
}
