// The end of every execute(): after validate() has filled `diagnostics`, check each bound
// buffer (size, alignment), that the output shares no byte with an input and the options, throw every
// diagnostic at once, then build the operator's call and run it on the resolved instruction
// set, whole or cut into parts on the options' thread pool (src/threads/split.hpp). The one
// place where a call reaches a kernel (docs/architecture.md).
#pragma once

#include <initializer_list>
#include <string>
#include <utility>
#include <vector>

#include <refops/arch.hpp>
#include <refops/diagnostics.hpp>

#include "dispatch/arch_table.hpp"
#include "ops/validated_once.hpp"
#include "threads/split_calls.hpp"
#include "validation/tensor_rules.hpp"

namespace refops::detail {

// The options that are plain values (the arch is checked where it is resolved): a
// StoreStrategy outside the enum.
inline void check_options(const ExecuteOptions& options, std::vector<Diagnostic>& diagnostics) {
  if (options.stores && name_of(*options.stores) == "unknown")
    diagnostics.push_back({"ExecuteOptions.stores", "expected plain, stream or rep (or no value: chosen per call), found " +
                                                        std::to_string(static_cast<int>(*options.stores))});
}

// `make_call` runs only for a valid description with valid buffers: it may read them.
template <class Call, class MakeCall>
void finish_execute(Validated validated, const Binding& output, std::initializer_list<Binding> inputs,
                    const ArchTable<void (*)(const Call&)>& entry, const ExecuteOptions& options,
                    MakeCall&& make_call) {
  std::vector<Diagnostic>& diagnostics = validated.diagnostics;
  if (diagnostics.empty()) check_bindings(output, inputs, *validated.addressed, diagnostics);
  check_options(options, diagnostics);
  throw_if_any(std::move(diagnostics));
  const auto run = entry[resolve_arch(options)];
  auto call = std::forward<MakeCall>(make_call)();
  call.stores = options.stores;
  run_split(call, run, options);
}

}  // namespace refops::detail
