// Forces one of a kernel's host-dependent choices while it lives, so a test runs each
// alternative, not only the one the host's rule picks (ops/*_tuning.hpp: force_hardmax_*,
// force_diagonal_*); 0 restores the rule.
#pragma once

#include <cstddef>

namespace refops::test {

class ForcedChoice {
 public:
  ForcedChoice(void (*force)(std::size_t), std::size_t value) : force_(force) { force_(value); }
  ~ForcedChoice() { force_(0); }
  ForcedChoice(const ForcedChoice&) = delete;
  ForcedChoice& operator=(const ForcedChoice&) = delete;

 private:
  void (*force_)(std::size_t);
};

}  // namespace refops::test
