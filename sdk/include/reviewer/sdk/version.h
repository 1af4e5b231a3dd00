/* The SDK's version; CMake reads it from here so the package version has one source. */
#pragma once

#define REVIEWER_SDK_VERSION_MAJOR 1
#define REVIEWER_SDK_VERSION_MINOR 11
#define REVIEWER_SDK_VERSION_PATCH 0
#define REVIEWER_SDK_VERSION_STRING "1.11.0"
