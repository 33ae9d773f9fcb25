// Hostile data (filled below).
#include "vulkan_harness.hpp"
