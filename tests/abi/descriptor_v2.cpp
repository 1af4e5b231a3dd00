// Carries the generation-1 entry symbol but a descriptor that says ABI version 2: refused after
// loading, by the descriptor check.
#include <reviewer/sdk/abi.h>

extern "C" __attribute__((visibility("default"), used, section(REVIEWER_ENTRY_SECTION)))
const reviewer_plugin_descriptor reviewer_plugin_v1 = {2,       sizeof(reviewer_plugin_descriptor),
                                                       "2.0.0", "descriptor_v2",
                                                       nullptr, 0,
                                                       nullptr, nullptr,
                                                       nullptr, nullptr,
                                                       nullptr, nullptr,
                                                       nullptr, 0};
