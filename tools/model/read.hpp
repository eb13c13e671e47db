// The model reader's parts, each reading one section of a model (internal to refops::model).
#pragma once

#include <filesystem>
#include <string>
#include <vector>

#include "json.hpp"
#include "model.hpp"

namespace refops::model {

// "dispatchables.NAME"
Dispatchable read_dispatchable(const Json&, const std::string& name, std::vector<std::string>& warnings);
// "resources.NAME"; files resolve against `folder`, then the current directory.
Resource read_resource(const Json&, const std::string& name, const std::filesystem::path& folder,
                       std::vector<std::string>& warnings);
// "commands[i]"; names are looked up in `model`, whose resources and dispatchables are read.
Command read_command(const Json&, const Model& model, std::vector<std::string>& warnings);

// Writes the resource's initial values into `buffer` (sized size_bytes, zeroed).
// `progress(bytes)` is told how far a file read has come. Throws ModelError on I/O errors.
void fill_initial_values(const Resource&, std::span<std::byte> buffer, const std::function<void(std::uint64_t)>& progress);

// Lower-case extension of a path: ".npy".
std::string extension_of(const std::filesystem::path&);

}  // namespace refops::model
