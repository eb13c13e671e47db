// The documented examples of DIAGONAL_MATRIX (the seed, verbatim) and DIAGONAL_MATRIX1
// (research/directml.md 4.3), the Value conversion rules and the int32 extremes, on every arch.
#include <refops/refops.hpp>

#include <climits>
#include <cmath>
#include <cstring>
#include <limits>
#include <optional>
#include <vector>

#include "support/archs.hpp"
#include "support/catch.hpp"

using namespace refops;
using namespace refops::test;

namespace {

template <class T>
std::vector<T> run_diagonal_matrix(Arch arch, DataType type, Dims sizes, std::int32_t offset, float value) {
  std::vector<T> out(TensorView<T>(nullptr, sizes).element_count(), T(99));
  execute(DiagonalMatrixDesc{{type, sizes, {}, 0}, offset, value}, std::as_writable_bytes(std::span(out)), on(arch));
  return out;
}

template <class T>
std::vector<T> run_diagonal_matrix1(Arch arch, Dims sizes, const std::vector<T>* input, T value, std::int32_t begin,
                                    std::int32_t end) {
  std::vector<T> out(TensorView<T>(nullptr, sizes).element_count(), T(99));
  const TensorDesc desc{data_type_v<T>, sizes, {}, 0};
  std::optional<TensorDesc> in_desc;
  In in;
  if (input) {
    in_desc = desc;
    in = std::as_bytes(std::span(*input));
  }
  execute(DiagonalMatrix1Desc{in_desc, desc, Scalar::of(value), begin, end}, in,
          std::as_writable_bytes(std::span(out)), on(arch));
  return out;
}

const std::vector<float> one_to_twenty = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20};

}  // namespace

TEST_CASE("DIAGONAL_MATRIX: the seed's four examples", "[diagonal_matrix][examples]") {
  for_each_arch([](Arch arch) {
    // Default identity matrix.
    CHECK(run_diagonal_matrix<float>(arch, DataType::float32, {1, 1, 3, 3}, 0, 1.0f) ==
          std::vector<float>{1, 0, 0, 0, 1, 0, 0, 0, 1});
    // Shift ones right/up.
    CHECK(run_diagonal_matrix<float>(arch, DataType::float32, {1, 1, 3, 3}, 1, 1.0f) ==
          std::vector<float>{0, 1, 0, 0, 0, 1, 0, 0, 0});
    // Shift ones left/down.
    CHECK(run_diagonal_matrix<float>(arch, DataType::float32, {1, 1, 3, 2}, -1, 1.0f) ==
          std::vector<float>{0, 0, 1, 0, 0, 1});
    // Shift the diagonal line of ones so far that all become zeroes.
    CHECK(run_diagonal_matrix<float>(arch, DataType::float32, {1, 1, 3, 2}, -3, 1.0f) ==
          std::vector<float>{0, 0, 0, 0, 0, 0});
  });
}

TEST_CASE("DIAGONAL_MATRIX1: the documented 4x5 examples", "[diagonal_matrix][examples]") {
  for_each_arch([](Arch arch) {
    // Begin 0, End 3: a band three wide starting at the main diagonal.
    CHECK(run_diagonal_matrix1<float>(arch, {4, 5}, nullptr, 1.0f, 0, 3) ==
          std::vector<float>{1, 1, 1, 0, 0,
                             0, 1, 1, 1, 0,
                             0, 0, 1, 1, 1,
                             0, 0, 0, 1, 1});
    // Begin INT32_MIN, End 1, Value 0 with an input: the diagonal and everything below become 0
    // (ORT's Trilu upper with k = 1).
    CHECK(run_diagonal_matrix1<float>(arch, {4, 5}, &one_to_twenty, 0.0f, INT32_MIN, 1) ==
          std::vector<float>{0, 2, 3, 4, 5,
                             0, 0, 8, 9, 10,
                             0, 0, 0, 14, 15,
                             0, 0, 0, 0, 20});
    // Begin 1, End 0 (inverted), Value 0 with an input: only the main diagonal is kept.
    CHECK(run_diagonal_matrix1<float>(arch, {4, 5}, &one_to_twenty, 0.0f, 1, 0) ==
          std::vector<float>{1, 0, 0, 0, 0,
                             0, 7, 0, 0, 0,
                             0, 0, 13, 0, 0,
                             0, 0, 0, 19, 0});
    // The page's "default identity matrix" says Value 7 but shows 1s: the pseudocode gives 7.
    CHECK(run_diagonal_matrix1<float>(arch, {3, 3}, nullptr, 7.0f, 0, 1) ==
          std::vector<float>{7, 0, 0, 0, 7, 0, 0, 0, 7});
  });
}

TEST_CASE("DIAGONAL_MATRIX converts Value by SPEC's rule", "[diagonal_matrix][examples]") {
  for_each_arch([](Arch arch) {
    auto diag = [&](auto tag, DataType type, float value) {
      return run_diagonal_matrix<decltype(tag)>(arch, type, {2, 2}, 0, value)[0];
    };
    CHECK(diag(std::int32_t{}, DataType::int32, 10.6f) == 10);  // the docs' example: truncated
    CHECK(diag(std::int32_t{}, DataType::int32, -10.6f) == -10);  // toward zero
    CHECK(diag(std::uint8_t{}, DataType::uint8, 300.0f) == 255);  // saturated
    CHECK(diag(std::uint8_t{}, DataType::uint8, -5.0f) == 0);
    CHECK(diag(std::int8_t{}, DataType::int8, -1000.0f) == -128);
    CHECK(diag(std::int32_t{}, DataType::int32, 1e10f) == INT32_MAX);
    CHECK(diag(std::int64_t{}, DataType::int64, -1e30f) == INT64_MIN);
    CHECK(diag(std::uint64_t{}, DataType::uint64, std::numeric_limits<float>::quiet_NaN()) == 0u);
    CHECK(diag(double{}, DataType::float64, 0.1f) == static_cast<double>(0.1f));  // exact widening
    // FLOAT16 rounds to nearest even: 1 + 2^-11 is halfway between 1 and 1 + 2^-10.
    CHECK(diag(float16{}, DataType::float16, 1.0f + 0x1p-11f) == float16(1.0f));
    CHECK(diag(float16{}, DataType::float16, 1.0f + 3 * 0x1p-11f) == float16(1.0f + 0x1p-9f));
    CHECK(static_cast<float>(diag(float16{}, DataType::float16, 65520.0f)) == std::numeric_limits<float>::infinity());
  });
}

TEST_CASE("offsets and bands at the int32 extremes do not overflow", "[diagonal_matrix][examples]") {
  const std::vector<float> zeros(12, 0.0f);
  for_each_arch([&](Arch arch) {
    CHECK(run_diagonal_matrix<float>(arch, DataType::float32, {3, 4}, INT32_MAX, 1.0f) == zeros);
    CHECK(run_diagonal_matrix<float>(arch, DataType::float32, {3, 4}, INT32_MIN, 1.0f) == zeros);
    // [INT32_MIN, INT32_MAX) holds every topX of the matrix; the inverted band holds none.
    CHECK(run_diagonal_matrix1<float>(arch, {3, 4}, nullptr, 5.0f, INT32_MIN, INT32_MAX) == std::vector<float>(12, 5.0f));
    CHECK(run_diagonal_matrix1<float>(arch, {4, 5}, &one_to_twenty, 5.0f, INT32_MAX, INT32_MIN) == one_to_twenty);
    // Begin == End never uses Value.
    CHECK(run_diagonal_matrix1<float>(arch, {4, 5}, &one_to_twenty, 5.0f, 2, 2) == one_to_twenty);
  });
}

TEST_CASE("DIAGONAL_MATRIX1 keeps Value's bits: -0.0 and NaN payloads", "[diagonal_matrix][examples]") {
  const float nan_payload = std::bit_cast<float>(0x7FC01234u);
  for_each_arch([&](Arch arch) {
    for (float v : {-0.0f, nan_payload}) {
      const auto out = run_diagonal_matrix1<float>(arch, {2, 40}, nullptr, v, -100, 100);
      for (float f : out) CHECK(std::bit_cast<std::uint32_t>(f) == std::bit_cast<std::uint32_t>(v));
    }
  });
}

TEST_CASE("the typed kernels run the seed's identity example", "[diagonal_matrix][examples]") {
  std::vector<std::int16_t> out(6, 99);
  kernels::diagonal_matrix<std::int16_t>(make_view(out.data(), Dims{2, 3}), 1, 2.9f);
  CHECK(out == std::vector<std::int16_t>{0, 2, 0, 0, 0, 2});
  std::vector<std::int16_t> in = {1, 2, 3, 4, 5, 6};
  kernels::diagonal_matrix1<std::int16_t>(make_view<const std::int16_t>(in.data(), Dims{2, 3}),
                                          make_view(out.data(), Dims{2, 3}), 0, INT32_MIN, 1);
  CHECK(out == std::vector<std::int16_t>{0, 2, 3, 0, 0, 6});
}
