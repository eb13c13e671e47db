// refops-run: DirectML models in DxDispatch's JSON format, run on refops (API.md, "Command
// line"). A thin command line over refops::model (tools/model/model.hpp).
//
// Exit status: 0 done; 1 a description is invalid (at the level asked, for --validate) or a
// binding does not fit; 2 the model is malformed (JSON, unknown names, missing files) or the
// command line is wrong.
#include <cstdio>
#include <iostream>
#include <unistd.h>

#include <CLI/CLI.hpp>

#include "model/model.hpp"

namespace {

using namespace refops;
using namespace refops::model;

void print_problems(const std::vector<Problem>& problems) {
  for (const Problem& p : problems) std::cerr << to_string({p}) << "\n";
}

// --validate: one line per dispatchable (its minimum level, or "invalid at every level" and
// its diagnostics). Exit 1 when one is invalid at the level asked.
int validate_model(const Model& m, FeatureLevel level) {
  int status = 0;
  for (const Dispatchable& d : m.dispatchables) {
    const auto minimum = minimum_feature_level(d);
    const auto diagnostics = validate(d, level);
    if (minimum) {
      std::cout << d.name << ": " << name_of(*minimum) << "\n";
    } else {
      std::cout << d.name << ": invalid at every level\n";
      for (const Diagnostic& diag : diagnostics) std::cout << "  " << d.json_path(diag) << ": " << diag.message << "\n";
    }
    if (!diagnostics.empty()) {
      status = 1;
      if (minimum)  // valid, but not at the level asked: say why on stderr
        for (const Diagnostic& diag : diagnostics) std::cerr << d.json_path(diag) << ": " << diag.message << "\n";
    }
  }
  return status;
}

int run_cli(int argc, char** argv) {
  CLI::App app{"Runs DirectML models written in DxDispatch's JSON format on the CPU with refops, for the\n"
               "operators refops has (ONE_HOT, DIAGONAL_MATRIX(1), ACTIVATION_HARDMAX(1))."};
  std::string model_path, level_name = "latest", nan_mode = "ignore", arch_name;
  std::size_t threads = 0;
  bool validate_only = false;
  app.add_option("MODEL.json", model_path, "The model")->required();
  app.add_flag("--validate", validate_only,
               "Run nothing; print each dispatchable's minimum feature level, or its diagnostics");
  app.add_option("--feature-level", level_name, "Validate every dispatch at this level, e.g. 5_1 (default: latest)");
  app.add_option("--nan-mode", nan_mode, "HARDMAX's NaN rule (default: ignore, DirectML's)")
      ->check(CLI::IsMember({"ignore", "propagate"}));
  app.add_option("--arch", arch_name, "Force a path")->check(CLI::IsMember({"scalar", "sse2", "avx2", "avx512", "neon"}));
  app.add_option("--threads", threads, "At most N threads (default: all)")->check(CLI::Range(std::size_t{1}, std::size_t{65536}));
  try {
    app.parse(argc, argv);
  } catch (const CLI::CallForHelp& e) {
    return app.exit(e);
  } catch (const CLI::ParseError& e) {
    app.exit(e);
    return 2;
  }

  RunOptions options;
  if (level_name != "latest") {
    const auto level = parse_feature_level(level_name);
    if (!level) {
      std::cerr << "--feature-level: \"" << level_name << "\" is not a DML_FEATURE_LEVEL (1_0 to 6_4, e.g. 5_1)\n";
      return 2;
    }
    options.feature_level = *level;
  }
  options.nan_mode = nan_mode == "propagate" ? NanMode::propagate : NanMode::ignore;
  if (!arch_name.empty()) {
    std::string available;
    for (Arch a : available_archs()) {
      if (name_of(a) == arch_name) options.arch = a;
      available += (available.empty() ? "" : ", ") + std::string(name_of(a));
    }
    if (!options.arch) {
      std::cerr << "--arch: this build and CPU have no " << arch_name << " path (available: " << available << ")\n";
      return 2;
    }
  }
  options.threads = threads;
  options.print = &std::cout;
  options.progress = isatty(STDERR_FILENO) == 1;

  try {
    const Model m = read_model(model_path);
    for (const std::string& w : m.warnings) std::cerr << "warning: " << w << "\n";
    if (validate_only) return validate_model(m, options.feature_level);
    run(m, options);
    return 0;
  } catch (const ModelError& e) {
    std::cout.flush();
    print_problems({e.problem()});
    return 2;
  } catch (const InvalidError& e) {
    std::cout.flush();
    print_problems(e.problems());
    return 1;
  }
}

}  // namespace

int main(int argc, char** argv) {
  // Whatever the model holds, no exception escapes: anything unforeseen is a message, exit 2.
  try {
    return run_cli(argc, argv);
  } catch (const std::exception& e) {
    std::cerr << "refops-run: " << e.what() << "\n";
  } catch (...) {
    std::cerr << "refops-run: unexpected error\n";
  }
  return 2;
}
