// The one place the version is written; CMake reads it from here.
#pragma once

#define REFOPS_VERSION_MAJOR 0
#define REFOPS_VERSION_MINOR 1
#define REFOPS_VERSION_PATCH 0
