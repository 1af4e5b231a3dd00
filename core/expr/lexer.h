#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

#include "core/util/result.h"

namespace reviewer::expr {

// The longest expression the language accepts, in characters.
inline constexpr std::size_t kMaxExpressionLength = 21000;

enum class TokenType {
  kLeftParen,
  kRightParen,
  kLeftBracket,
  kRightBracket,
  kComma,
  kDot,
  kBang,
  kBangEqual,
  kEqualEqual,
  kGreater,
  kGreaterEqual,
  kLess,
  kLessEqual,
  kAnd,
  kOr,
  kStar,
  kNumber,
  kString,
  kIdentifier,
  kTrue,
  kFalse,
  kNull,
  kEof
};

struct Token {
  TokenType type = TokenType::kEof;
  std::string lexeme;  // the text as written
  std::string text;    // a string token's value, quotes removed and '' made '
  double number = 0;   // a number token's value
  std::size_t offset = 0;
};

// Splits an expression into tokens as GitHub's lexer does: numbers read as JavaScript's Number()
// reads them (hex, exponents, Infinity, NaN), strings in single quotes with '' for a quote,
// identifiers [A-Za-z_][A-Za-z0-9_-]*, and the keywords true, false, null (not after a dot).
// Errors (`expression-invalid`): an unknown symbol, an unterminated string, a number that does
// not read, or more than kMaxExpressionLength characters.
util::Result<std::vector<Token>> lex(std::string_view text);

}  // namespace reviewer::expr
