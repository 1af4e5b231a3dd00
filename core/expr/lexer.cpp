#include "core/expr/lexer.h"

#include <cmath>

#include "core/expr/js_number.h"

namespace reviewer::expr {
namespace {

bool is_boundary(std::string_view s, std::size_t i) {
  switch (s[i]) {
    case '(':
    case '[':
    case ')':
    case ']':
    case ',':
    case '.':
    case '!':
    case '>':
    case '<':
    case '=':
    case '&':
    case '|':
      return true;
    default:
      return js_space_at(s, i) != 0;
  }
}

bool is_legal_identifier(std::string_view s) {
  if (s.empty()) {
    return false;
  }
  auto letter = [](char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_'; };
  if (!letter(s[0])) {
    return false;
  }
  for (char c : s.substr(1)) {
    if (!letter(c) && !(c >= '0' && c <= '9') && c != '-') {
      return false;
    }
  }
  return true;
}

// The length JavaScript gives the text: UTF-16 code units.
std::size_t utf16_length(std::string_view s) {
  std::size_t n = 0;
  for (unsigned char c : s) {
    if ((c & 0xc0) != 0x80) {
      n += c >= 0xf0 ? 2 : 1;
    }
  }
  return n;
}

class Lexer {
 public:
  explicit Lexer(std::string_view text) : s_(text) {}

  util::Result<std::vector<Token>> run() {
    if (utf16_length(s_) > kMaxExpressionLength) {
      return fail("Exceeded max expression length " + std::to_string(kMaxExpressionLength), 0);
    }
    while (at_ < s_.size()) {
      start_ = at_;
      const char c = s_[at_++];
      util::Status error = util::ok_status();
      switch (c) {
        case '(':
          add(TokenType::kLeftParen);
          break;
        case ')':
          add(TokenType::kRightParen);
          break;
        case '[':
          add(TokenType::kLeftBracket);
          break;
        case ']':
          add(TokenType::kRightBracket);
          break;
        case ',':
          add(TokenType::kComma);
          break;
        case '.':
          if (previous() != TokenType::kIdentifier && previous() != TokenType::kRightBracket &&
              previous() != TokenType::kRightParen && previous() != TokenType::kStar) {
            error = number();
          } else {
            add(TokenType::kDot);
          }
          break;
        case '-':
        case '+':
          error = number();
          break;
        case '!':
          add(match('=') ? TokenType::kBangEqual : TokenType::kBang);
          break;
        case '=':
          error = match('=') ? (add(TokenType::kEqualEqual), util::ok_status()) : identifier();
          break;
        case '<':
          add(match('=') ? TokenType::kLessEqual : TokenType::kLess);
          break;
        case '>':
          add(match('=') ? TokenType::kGreaterEqual : TokenType::kGreater);
          break;
        case '&':
          error = match('&') ? (add(TokenType::kAnd), util::ok_status()) : identifier();
          break;
        case '|':
          error = match('|') ? (add(TokenType::kOr), util::ok_status()) : identifier();
          break;
        case '*':
          add(TokenType::kStar);
          break;
        case ' ':
        case '\r':
        case '\t':
        case '\n':
          break;
        case '\'':
          error = string();
          break;
        default:
          error = (c >= '0' && c <= '9') ? number() : identifier();
          break;
      }
      if (!error) {
        return error.refusals();
      }
    }
    start_ = at_;
    add(TokenType::kEof);
    return std::move(tokens_);
  }

 private:
  static util::Refusal fail(const std::string& message, std::size_t offset) {
    return util::Refusal{"expression-invalid",
                         message + " (at character " + std::to_string(offset + 1) + ")",
                         std::nullopt};
  }

  util::Refusal unexpected(std::string_view lexeme) const {
    return fail("Unexpected symbol: '" + std::string(lexeme) + "'", start_);
  }

  TokenType previous() const { return tokens_.empty() ? TokenType::kEof : tokens_.back().type; }

  bool match(char expected) {
    if (at_ < s_.size() && s_[at_] == expected) {
      ++at_;
      return true;
    }
    return false;
  }

  Token& add(TokenType type) {
    Token t;
    t.type = type;
    t.lexeme = std::string(s_.substr(start_, at_ - start_));
    t.offset = start_;
    tokens_.push_back(std::move(t));
    return tokens_.back();
  }

  util::Status number() {
    while (at_ < s_.size() && (!is_boundary(s_, at_) || s_[at_] == '.')) {
      ++at_;
    }
    const std::string_view lexeme = s_.substr(start_, at_ - start_);
    const double value = parse_js_number(lexeme);
    if (std::isnan(value)) {
      return unexpected(lexeme);
    }
    add(TokenType::kNumber).number = value;
    return util::ok_status();
  }

  util::Status string() {
    while (at_ < s_.size() && (s_[at_] != '\'' || (at_ + 1 < s_.size() && s_[at_ + 1] == '\''))) {
      if (s_[at_] == '\'') {
        ++at_;  // the first of an escaped ''
      }
      ++at_;
    }
    if (at_ >= s_.size()) {
      return unexpected(s_.substr(start_));
    }
    ++at_;
    // Every '' is one quote, as the runner's lexer reads it (the npm package's JavaScript port
    // unescapes only the first: docs/expressions.md).
    std::string value;
    const std::string_view raw = s_.substr(start_ + 1, at_ - start_ - 2);
    for (std::size_t i = 0; i < raw.size(); ++i) {
      value += raw[i];
      if (raw[i] == '\'' && i + 1 < raw.size() && raw[i + 1] == '\'') {
        ++i;
      }
    }
    add(TokenType::kString).text = std::move(value);
    return util::ok_status();
  }

  util::Status identifier() {
    while (at_ < s_.size() && !is_boundary(s_, at_)) {
      ++at_;
    }
    const std::string_view lexeme = s_.substr(start_, at_ - start_);
    TokenType type = TokenType::kIdentifier;
    double value = 0;
    if (previous() != TokenType::kDot) {
      if (lexeme == "true") {
        type = TokenType::kTrue;
      } else if (lexeme == "false") {
        type = TokenType::kFalse;
      } else if (lexeme == "null") {
        type = TokenType::kNull;
      } else if (lexeme == "NaN") {
        type = TokenType::kNumber;
        value = std::nan("");
      } else if (lexeme == "Infinity") {
        type = TokenType::kNumber;
        value = HUGE_VAL;
      }
    }
    if (!is_legal_identifier(lexeme)) {
      return unexpected(lexeme);
    }
    add(type).number = value;
    return util::ok_status();
  }

  std::string_view s_;
  std::size_t at_ = 0;
  std::size_t start_ = 0;
  std::vector<Token> tokens_;
};

}  // namespace

util::Result<std::vector<Token>> lex(std::string_view text) { return Lexer(text).run(); }

}  // namespace reviewer::expr
