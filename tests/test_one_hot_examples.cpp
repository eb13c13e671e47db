// Every example of the seed documents, verbatim: DirectML's ONE_HOT examples 1-4
// (seeds/000, seeds/001) and OpenVINO's two OneHot-1 examples (seeds/002), on every path and
// through the header-only kernel.
#include <refops/kernels.hpp>
#include <refops/refops.hpp>

#include <vector>

#include "support/archs.hpp"
#include "support/catch.hpp"

using namespace refops;
using test::for_each_arch;

namespace {

template <class I>
std::vector<float> run_one_hot(const std::vector<I>& indices, Dims indices_sizes, const std::vector<float>& values,
                               Dims values_sizes, Dims output_sizes, std::uint32_t axis, Arch arch) {
  const OneHotDesc desc{{data_type_v<I>, indices_sizes, {}, 0},
                        {DataType::float32, values_sizes, {}, 0},
                        {DataType::float32, output_sizes, {}, 0},
                        axis};
  std::vector<float> out(12, -7.0f);
  execute(desc, std::as_bytes(std::span(indices)), std::as_bytes(std::span(values)),
          std::as_writable_bytes(std::span(out)), test::on(arch));
  return out;
}

template <class I>
std::vector<float> run_kernel(const std::vector<I>& indices, Dims indices_sizes, const std::vector<float>& values,
                              Dims values_sizes, Dims output_sizes, std::uint32_t axis) {
  std::vector<float> out(12, -7.0f);
  kernels::one_hot<I, float>(make_view(indices.data(), indices_sizes), make_view(values.data(), values_sizes),
                             make_view(out.data(), output_sizes), axis);
  return out;
}

}  // namespace

TEST_CASE("ONE_HOT example 1: the encoding across the rows", "[one_hot][examples]") {
  const std::vector<std::uint32_t> indices{0, 3, 2};
  const std::vector<float> expected{1, 0, 0, 0,  //
                                    0, 0, 0, 1,  //
                                    0, 0, 1, 0};
  for_each_arch([&](Arch arch) {
    CHECK(run_one_hot(indices, {1, 1, 3, 1}, {0, 1}, {1, 1, 1, 2}, {1, 1, 3, 4}, 3, arch) == expected);
  });
  CHECK(run_kernel(indices, {1, 1, 3, 1}, {0, 1}, {1, 1, 1, 2}, {1, 1, 3, 4}, 3) == expected);
}

TEST_CASE("ONE_HOT example 2: a different axis", "[one_hot][examples]") {
  const std::vector<std::uint32_t> indices{0, 2, 1, 0};
  const std::vector<float> expected{1, 0, 0, 1,  //
                                    0, 0, 1, 0,  //
                                    0, 1, 0, 0};
  for_each_arch([&](Arch arch) {
    CHECK(run_one_hot(indices, {1, 1, 1, 4}, {0, 1}, {1, 1, 1, 2}, {1, 1, 3, 4}, 2, arch) == expected);
  });
  CHECK(run_kernel(indices, {1, 1, 1, 4}, {0, 1}, {1, 1, 1, 2}, {1, 1, 3, 4}, 2) == expected);
}

TEST_CASE("ONE_HOT example 3: different on and off values", "[one_hot][examples]") {
  const std::vector<std::uint32_t> indices{0, 3, 2};
  const std::vector<float> values{4, 2, 9};  // off, on, unused
  const std::vector<float> expected{2, 4, 4, 4,  //
                                    4, 4, 4, 2,  //
                                    4, 4, 2, 4};
  for_each_arch([&](Arch arch) {
    CHECK(run_one_hot(indices, {1, 1, 3, 1}, values, {1, 1, 3, 1}, {1, 1, 3, 4}, 3, arch) == expected);
  });
  CHECK(run_kernel(indices, {1, 1, 3, 1}, values, {1, 1, 3, 1}, {1, 1, 3, 4}, 3) == expected);
}

TEST_CASE("ONE_HOT example 4: negative and out-of-bounds indices", "[one_hot][examples]") {
  const std::vector<std::int32_t> indices{-3, 100, 3};
  const std::vector<float> expected{0, 1, 0, 0,  //
                                    0, 0, 0, 0,  //
                                    0, 0, 0, 1};
  for_each_arch([&](Arch arch) {
    CHECK(run_one_hot(indices, {1, 1, 3, 1}, {0, 1}, {1, 1, 1, 2}, {1, 1, 3, 4}, 3, arch) == expected);
  });
  CHECK(run_kernel(indices, {1, 1, 3, 1}, {0, 1}, {1, 1, 1, 2}, {1, 1, 3, 4}, 3) == expected);
}

TEST_CASE("OneHot-1 example 1: axis -1, on 1, off 2", "[one_hot][one_hot_v1][examples]") {
  const std::vector<std::int32_t> indices{0, 3, 1, 2};
  const std::vector<std::int32_t> expected{1, 2, 2,  //
                                           2, 2, 2,  //
                                           2, 1, 2,  //
                                           2, 2, 1};
  OneHotV1Desc desc{{DataType::int32, {4}, {}, 0}, 3, Scalar::of(std::int32_t{1}), Scalar::of(std::int32_t{2}), -1};
  CHECK(output_desc(desc).sizes == Dims{4, 3});
  for_each_arch([&](Arch arch) {
    std::vector<std::int32_t> out(12, -7);
    execute(desc, std::as_bytes(std::span(indices)), std::as_writable_bytes(std::span(out)), test::on(arch));
    CHECK(out == expected);
  });
}

TEST_CASE("OneHot-1 example 2: axis 1 of a 2x3 input", "[one_hot][one_hot_v1][examples]") {
  const std::vector<std::int64_t> indices{0, 3, 1,  //
                                          1, 2, 4};
  const std::vector<float> expected{1, 0, 0, 0, 0, 1, 0, 0, 0,  //
                                    0, 0, 0, 1, 0, 0, 0, 1, 0};
  OneHotV1Desc desc{{DataType::int64, {2, 3}, {}, 0}, 3, Scalar::of(1.0f), Scalar::of(0.0f), 1};
  CHECK(output_desc(desc).sizes == Dims{2, 3, 3});
  for_each_arch([&](Arch arch) {
    std::vector<float> out(18, -7.0f);
    execute(desc, std::as_bytes(std::span(indices)), std::as_writable_bytes(std::span(out)), test::on(arch));
    CHECK(out == expected);
  });
}
