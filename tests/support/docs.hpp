// The committed docs pages, for tests that check a page still holds what the code renders
// (../shared/DESIGN.md, habit 1: the level tables feed the validator and the docs).
#pragma once

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <string_view>

namespace refops::test {

// The text of docs/<page>; empty if the file cannot be read.
inline std::string read_doc(std::string_view page) {
  const auto path = std::filesystem::path(__FILE__).parent_path().parent_path().parent_path() / "docs" / page;
  std::ifstream file(path);
  std::stringstream text;
  text << file.rdbuf();
  return text.str();
}

}  // namespace refops::test
