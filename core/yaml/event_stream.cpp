#include "core/yaml/event_stream.h"

#include <cstdint>

namespace reviewer::yaml {
namespace {

util::SourceLocation at(const yaml_mark_t& m, const std::string& file) {
  return {file, static_cast<std::uint32_t>(m.line + 1), static_cast<std::uint32_t>(m.column + 1)};
}

bool mentions_anchor(const char* s) {
  if (s == nullptr) {
    return false;
  }
  const std::string_view v(s);
  return v.find("anchor") != std::string_view::npos || v.find("alias") != std::string_view::npos;
}

}  // namespace

EventStream::EventStream(std::string_view text) {
  yaml_parser_initialize(&parser_);
  yaml_parser_set_input_string(&parser_, reinterpret_cast<const unsigned char*>(text.data()),
                               text.size());
}

EventStream::~EventStream() {
  if (has_event_) {
    yaml_event_delete(&event_);
  }
  yaml_parser_delete(&parser_);
}

bool EventStream::next() {
  if (has_event_) {
    yaml_event_delete(&event_);
    has_event_ = false;
  }
  if (yaml_parser_parse(&parser_, &event_) == 0) {
    return false;
  }
  has_event_ = true;
  return true;
}

util::Refusal EventStream::error(std::string_view text, const std::string& file) const {
  if (parser_.error == YAML_MEMORY_ERROR) {
    return util::refusal("yaml-syntax", "the YAML parser ran out of memory",
                         util::SourceLocation{file, 0, 0});
  }
  std::string problem = parser_.problem != nullptr ? parser_.problem : "malformed YAML";
  if (parser_.error == YAML_READER_ERROR) {
    // The reader reports a byte offset, not a mark (invalid UTF-8, control characters).
    return util::refusal("yaml-syntax", problem, position_of(text, parser_.problem_offset, file));
  }
  const bool about_anchor = mentions_anchor(parser_.problem) || mentions_anchor(parser_.context);
  if (parser_.context != nullptr) {
    problem += " (" + std::string(parser_.context) + " at " +
               std::to_string(parser_.context_mark.line + 1) + ":" +
               std::to_string(parser_.context_mark.column + 1) + ")";
  }
  return util::refusal(about_anchor ? "yaml-anchor" : "yaml-syntax", problem,
                       at(parser_.problem_mark, file));
}

util::SourceLocation position_of(std::string_view text, std::size_t offset,
                                 const std::string& file) {
  // Columns count characters, as libyaml's marks do: UTF-8 continuation bytes are not counted.
  std::uint32_t line = 1;
  std::uint32_t column = 1;
  for (std::size_t i = 0; i < offset && i < text.size(); ++i) {
    if (text[i] == '\n') {
      ++line;
      column = 1;
    } else if ((static_cast<unsigned char>(text[i]) & 0xC0) != 0x80) {
      ++column;
    }
  }
  return {file, line, column};
}

}  // namespace reviewer::yaml
