// A fixed-seed generator for generated test cases. The seed is 20261121 unless the
// environment variable REFOPS_TEST_SEED sets another; every check made while a TestRng is in
// scope prints it on failure, so a failing case can be run again exactly.
#pragma once

#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <limits>
#include <random>
#include <type_traits>

#include <refops/data_type.hpp>
#include <refops/scalar.hpp>

#include "support/catch.hpp"

namespace refops::test {

inline std::uint64_t test_seed() {
  if (const char* env = std::getenv("REFOPS_TEST_SEED")) return std::strtoull(env, nullptr, 10);
  return 20261121;
}

class TestRng {
 public:
  TestRng() : seed_(test_seed()), engine_(seed_) {}
  std::uint64_t seed() const { return seed_; }

  // Uniform in [lo, hi].
  std::uint64_t between(std::uint64_t lo, std::uint64_t hi) {
    return std::uniform_int_distribution<std::uint64_t>(lo, hi)(engine_);
  }
  std::int64_t between_signed(std::int64_t lo, std::int64_t hi) {
    return std::uniform_int_distribution<std::int64_t>(lo, hi)(engine_);
  }
  bool chance(double p) { return std::bernoulli_distribution(p)(engine_); }
  std::uint64_t bits() { return engine_(); }

  // A value of T that is not zero: small integers, negatives, large magnitudes and for floats
  // fractions, infinities and -0.0 are all drawn now and then.
  template <class T>
  T nonzero_value() {
    while (true) {
      T v = any_value<T>();
      if (!(v == T(0))) return v;
    }
  }
  // nonzero_value<T>() for the T that `type` names, as a Scalar: a test whose only typed step
  // is this draw is compiled once rather than once per type.
  Scalar nonzero_scalar(DataType type) {
    return visit_data_type(type, [&](auto tag) { return Scalar::of(nonzero_value<decltype(tag)>()); });
  }
  template <class T>
  T any_value() {
    if constexpr (std::is_same_v<T, float16> || std::is_floating_point_v<T>) {
      using F = std::conditional_t<std::is_same_v<T, float16>, float, T>;
      switch (between(0, 9)) {
        case 0: return T(F(-0.0));
        case 1: return T(std::numeric_limits<F>::infinity());
        case 2: return T(-std::numeric_limits<F>::infinity());
        case 3: return T(F(static_cast<double>(between_signed(-3, 3))));  // ties
        default: return T(F(std::uniform_real_distribution<double>(-1000.0, 1000.0)(engine_)));
      }
    } else {
      if (chance(0.2)) return chance(0.5) ? std::numeric_limits<T>::max() : std::numeric_limits<T>::min();
      return static_cast<T>(bits());
    }
  }

 private:
  std::uint64_t seed_;
  std::mt19937_64 engine_;
};

}  // namespace refops::test

// Put in every generated-case test: prints the seed with every failure in scope.
#define REFOPS_TEST_RNG(name)      \
  ::refops::test::TestRng name;    \
  INFO("seed: " << name.seed() << " (set REFOPS_TEST_SEED to repeat)")
