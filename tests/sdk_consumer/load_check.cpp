// Test tool: loads every plugin of the directory given as argument through the real plugin
// host and prints each claim; exit 0 only if nothing was refused.
#include <iostream>

#include "core/plugins/registry.h"
#include "core/report/render.h"

int main(int argc, char** argv) {
  if (argc != 2) {
    std::cerr << "usage: reviewer_load_check PLUGIN_DIR\n";
    return 2;
  }
  auto loaded = reviewer::plugins::Registry::load(argv[1]);
  if (!loaded) {
    for (const auto& r : loaded.refusals()) {
      std::cout << reviewer::report::to_text(r) << "\n";
    }
    return 3;
  }
  for (const auto* p : loaded->loaded()) {
    for (const auto& c : p->claims) {
      std::cout << "loaded " << p->name << " claiming " << c.action;
      for (const auto& ref : c.refs) {
        std::cout << " " << ref.sha << "=" << ref.tag;
      }
      std::cout << "\n";
    }
  }
  return 0;
}
