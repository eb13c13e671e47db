#include <vector>

#include <refops/refops.hpp>

#include "support/catch.hpp"

using refops::simd::LoopNest;

TEST_CASE("canonicalize drops size-1 dimensions and folds contiguous ones", "[loop_nest]") {
  LoopNest<2> nest;  // operands: a packed {2,1,3,4} tensor and one broadcast on the last axis
  nest.push(2, {12, 0});
  nest.push(1, {12, 0});
  nest.push(3, {4, 0});
  nest.push(4, {1, 1});
  auto c = refops::simd::canonicalize(nest);
  REQUIRE(c.rank == 2);  // {6, 4}: the first three fold for both operands, the last does not
  CHECK(c.sizes[0] == 6);
  CHECK(c.sizes[1] == 4);
  CHECK(c.strides[0][0] == 4);
  CHECK(c.strides[1][0] == 0);
}

TEST_CASE("canonicalize keeps roles apart and keeps size-1 dimensions of kept roles", "[loop_nest]") {
  LoopNest<1> nest;  // {2, 3, 1, 5}, dimension 1 is an axis (role 1), dimension 2 kept (role 2)
  nest.push(2, {15}, 0);
  nest.push(3, {5}, 1);
  nest.push(1, {5}, 2);
  nest.push(5, {1}, 0);
  auto c = refops::simd::canonicalize(nest, 1u << 2);
  REQUIRE(c.rank == 4);
  CHECK(c.role[1] == 1);
  CHECK(c.sizes[2] == 1);
}

TEST_CASE("for_each_offset visits row-major with each operand's strides", "[loop_nest]") {
  LoopNest<2> nest;
  nest.push(2, {1, 10});
  nest.push(3, {2, 1});
  std::vector<std::ptrdiff_t> a, b;
  refops::simd::for_each_offset(nest, 2, [&](const std::array<std::ptrdiff_t, 2>& o) {
    a.push_back(o[0]);
    b.push_back(o[1]);
  });
  CHECK(a == std::vector<std::ptrdiff_t>{0, 2, 4, 1, 3, 5});
  CHECK(b == std::vector<std::ptrdiff_t>{0, 1, 2, 10, 11, 12});
  int calls = 0;
  refops::simd::for_each_offset(nest, 0, [&](const auto&) { ++calls; });
  CHECK(calls == 1);
}
