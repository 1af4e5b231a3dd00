#pragma once

#include <yaml.h>

#include <cstddef>
#include <string>
#include <string_view>

#include "core/util/result.h"
#include "core/util/source_location.h"

namespace reviewer::yaml {

// libyaml's event parser over one text, owning the parser and the current event so that an
// early return or a thrown bound never leaks either. libyaml is used (not yaml-cpp) because its
// scanner is five times faster on the largest workflow the bounds admit (docs/planner.md).
class EventStream {
 public:
  explicit EventStream(std::string_view text);
  EventStream(const EventStream&) = delete;
  EventStream& operator=(const EventStream&) = delete;
  ~EventStream();

  // Parses the next event into current(); false on a YAML error, described by error().
  bool next();
  const yaml_event_t& current() const { return event_; }
  // The parser's complaint as a refusal: yaml-anchor when it is about an anchor or alias,
  // yaml-syntax otherwise, at the position libyaml names.
  util::Refusal error(std::string_view text, const std::string& file) const;

 private:
  yaml_parser_t parser_{};
  yaml_event_t event_{};
  bool has_event_ = false;
};

// Where byte `offset` of `text` is (1-based line and column, the column counting characters).
util::SourceLocation position_of(std::string_view text, std::size_t offset,
                                 const std::string& file);

}  // namespace reviewer::yaml
