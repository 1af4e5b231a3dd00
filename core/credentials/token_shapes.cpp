#include "core/credentials/token_shapes.h"

#include <algorithm>
#include <array>
#include <cmath>

// The shapes restate gitleaks' rules (config/gitleaks.toml, generated from
// cmd/generate/config/rules/*.go) as small matchers instead of regular expressions: each is
// anchored at its keyword, so no backtracking engine ever runs over a 1 MiB file.

namespace reviewer::credentials {
namespace {

constexpr std::size_t kNone = 0;
constexpr double kEntropyFloor = 3.0;

bool is_digit(char c) { return c >= '0' && c <= '9'; }
bool is_letter(char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'); }
bool is_alnum(char c) { return is_digit(c) || is_letter(c); }
bool is_word(char c) { return is_alnum(c) || c == '_'; }
bool is_word_or_dash(char c) { return is_word(c) || c == '-'; }
bool is_alnum_or_dash(char c) { return is_alnum(c) || c == '-'; }
bool is_upper_base32(char c) { return (c >= 'A' && c <= 'Z') || (c >= '2' && c <= '7'); }
bool is_jwt_tail(char c) { return is_word_or_dash(c) || c == '/' || c == '\\'; }
bool is_pem_label(char c) { return is_word_or_dash(c) || c == ' '; }

// gitleaks' `\b` before a token that starts with a word character.
bool starts_word(std::string_view t, std::size_t at) { return at == 0 || !is_word(t[at - 1]); }

// gitleaks' `(?:['|"\n\r\s\x60;]|$)` after a token.
bool ends_token(std::string_view t, std::size_t i) {
  if (i >= t.size()) {
    return true;
  }
  switch (t[i]) {
    case '\'':
    case '|':
    case '"':
    case '\n':
    case '\r':
    case '\t':
    case '\f':
    case ' ':
    case '`':
    case ';':
      return true;
    default:
      return false;
  }
}

template <class Pred>
std::size_t span(std::string_view t, std::size_t from, Pred pred) {
  std::size_t i = from;
  while (i < t.size() && pred(t[i])) {
    ++i;
  }
  return i - from;
}

bool char_at(std::string_view t, std::size_t i, char c) { return i < t.size() && t[i] == c; }

// Each matcher is called at a keyword and returns the length of the token there, or kNone.
// `lower` is the text in lower case, for the shapes gitleaks matches without regard to case.
using Matcher = std::size_t (*)(std::string_view t, std::string_view lower, std::size_t at);

// ghp_/gho_/ghu_/ghs_/ghr_ + 36 [0-9A-Za-z]
std::size_t github_token(std::string_view t, std::string_view, std::size_t at) {
  return span(t, at + 4, is_alnum) >= 36 ? 40 : kNone;
}

// github_pat_ + 82 \w
std::size_t github_fine_grained(std::string_view t, std::string_view, std::size_t at) {
  return span(t, at + 11, is_word) >= 82 ? 93 : kNone;
}

// glpat- + 20 [\w-]
std::size_t gitlab_pat(std::string_view t, std::string_view, std::size_t at) {
  return span(t, at + 6, is_word_or_dash) >= 20 ? 26 : kNone;
}

// (?i)\bnpm_[a-z0-9]{36} then the end of a token
std::size_t npm_token(std::string_view t, std::string_view, std::size_t at) {
  return starts_word(t, at) && span(t, at + 4, is_alnum) == 36 && ends_token(t, at + 40) ? 40
                                                                                         : kNone;
}

// \b(AKIA|ASIA|ABIA|ACCA)[A-Z2-7]{16}\b, but not AWS's documentation keys (…EXAMPLE)
std::size_t aws_key(std::string_view t, std::string_view, std::size_t at) {
  if (!starts_word(t, at) || span(t, at + 4, is_upper_base32) < 16 ||
      (at + 20 < t.size() && is_word(t[at + 20]))) {
    return kNone;
  }
  return t.substr(at, 20).ends_with("EXAMPLE") ? kNone : 20;
}

// xoxb- + 10-13 digits + - + 10-13 digits + [a-zA-Z0-9-]*
std::size_t slack_bot(std::string_view t, std::string_view, std::size_t at) {
  std::size_t p = at + 5;
  std::size_t d = span(t, p, is_digit);
  if (d < 10 || d > 13 || !char_at(t, p + d, '-')) {
    return kNone;
  }
  p += d + 1;
  if (span(t, p, is_digit) < 10) {
    return kNone;
  }
  return p + span(t, p, is_alnum_or_dash) - at;
}

// xoxp-/xoxe- + three groups of 10-13 digits + - + 28-34 [a-zA-Z0-9-]
std::size_t slack_user(std::string_view t, std::string_view, std::size_t at) {
  std::size_t p = at + 4;
  for (int group = 0; group < 3; ++group) {
    if (!char_at(t, p, '-')) {
      return kNone;
    }
    std::size_t d = span(t, p + 1, is_digit);
    if (d < 10 || d > 13) {
      return kNone;
    }
    p += 1 + d;
  }
  if (!char_at(t, p, '-')) {
    return kNone;
  }
  std::size_t n = span(t, p + 1, is_alnum_or_dash);
  return n >= 28 ? p + 1 + std::min<std::size_t>(n, 34) - at : kNone;
}

// (?i)xapp-\d-[A-Z0-9]+-\d+-[a-z0-9]+
std::size_t slack_app(std::string_view t, std::string_view, std::size_t at) {
  std::size_t p = at + 5;
  if (span(t, p, is_digit) < 1 || !char_at(t, p + 1, '-')) {
    return kNone;
  }
  p += 2;
  std::size_t n = span(t, p, is_alnum);
  if (n == 0 || !char_at(t, p + n, '-')) {
    return kNone;
  }
  p += n + 1;
  n = span(t, p, is_digit);
  if (n == 0 || !char_at(t, p + n, '-')) {
    return kNone;
  }
  p += n + 1;
  n = span(t, p, is_alnum);
  return n == 0 ? kNone : p + n - at;
}

// \bAIza[\w-]{35} then the end of a token
std::size_t gcp_api_key(std::string_view t, std::string_view, std::size_t at) {
  return starts_word(t, at) && span(t, at + 4, is_word_or_dash) == 35 && ends_token(t, at + 39)
             ? 39
             : kNone;
}

// \bhvs\.[\w-]{90,120} then the end of a token
std::size_t vault_token(std::string_view t, std::string_view, std::size_t at) {
  std::size_t n = span(t, at + 4, is_word_or_dash);
  return starts_word(t, at) && n >= 90 && n <= 120 && ends_token(t, at + 4 + n) ? 4 + n : kNone;
}

// \bhf_(?i:[a-z]{34}) then the end of a token
std::size_t huggingface_token(std::string_view t, std::string_view, std::size_t at) {
  return starts_word(t, at) && span(t, at + 3, is_letter) == 34 && ends_token(t, at + 37) ? 37
                                                                                          : kNone;
}

// \bsk-ant-api03-[a-zA-Z0-9_-]{93}AA then the end of a token
std::size_t anthropic_key(std::string_view t, std::string_view, std::size_t at) {
  constexpr std::size_t kPrefix = 13;
  constexpr std::size_t kLength = kPrefix + 93 + 2;
  return starts_word(t, at) && span(t, at + kPrefix, is_word_or_dash) == 95 &&
                 t.substr(at + kLength - 2, 2) == "AA" && ends_token(t, at + kLength)
             ? kLength
             : kNone;
}

// \bey[a-zA-Z0-9]{17,}\.ey[a-zA-Z0-9/\\_-]{17,}\.(?:[a-zA-Z0-9/\\_-]{10,}={0,2})? then the end
// of a token
std::size_t jwt(std::string_view t, std::string_view, std::size_t at) {
  if (!starts_word(t, at)) {
    return kNone;
  }
  std::size_t n = span(t, at + 2, is_alnum);
  std::size_t p = at + 2 + n;
  if (n < 17 || t.substr(p, 3) != ".ey") {
    return kNone;
  }
  n = span(t, p + 3, is_jwt_tail);
  p += 3 + n;
  if (n < 17 || !char_at(t, p, '.')) {
    return kNone;
  }
  ++p;
  n = span(t, p, is_jwt_tail);
  if (n >= 10) {
    p += n;
    std::size_t pad = span(t, p, [](char c) { return c == '='; });
    if (pad > 2) {
      return kNone;
    }
    p += pad;
  } else if (n != 0) {
    return kNone;
  }
  return ends_token(t, p) ? p - at : kNone;
}

// (?i)-----BEGIN[ A-Z0-9_-]{0,100}PRIVATE KEY( BLOCK)?-----[\s\S-]{64,}?KEY( BLOCK)?-----
std::size_t private_key(std::string_view, std::string_view lower, std::size_t at) {
  const std::size_t label = at + 10;
  const std::size_t run = span(lower, label, is_pem_label);
  for (std::size_t k = 0; k <= std::min<std::size_t>(run, 100); ++k) {
    std::size_t p = label + k;
    if (lower.substr(p, 11) != "private key") {
      continue;
    }
    p += 11;
    if (lower.substr(p, 6) == " block") {
      p += 6;
    }
    if (lower.substr(p, 5) != "-----") {
      continue;
    }
    const std::size_t body = p + 5 + 64;
    if (body > lower.size()) {
      return kNone;
    }
    std::size_t end = std::min(lower.find("key-----", body), lower.find("key block-----", body));
    if (end == std::string_view::npos) {
      return kNone;
    }
    return end + (lower.substr(end, 8) == "key-----" ? 8 : 14) - at;
  }
  return kNone;
}

struct Shape {
  std::string_view kind;
  std::string_view label;
  std::array<std::string_view, 5> keywords;  // as found in `lower` when fold_case
  bool fold_case;
  Matcher match;
};

const std::array<Shape, 17>& shapes() {
  static const std::array<Shape, 17> kShapes{{
      {"github-pat", "a GitHub personal access token", {"ghp_"}, false, github_token},
      {"github-oauth", "a GitHub OAuth token", {"gho_"}, false, github_token},
      {"github-app-token", "a GitHub App token", {"ghu_", "ghs_"}, false, github_token},
      {"github-refresh-token", "a GitHub refresh token", {"ghr_"}, false, github_token},
      {"github-fine-grained-pat",
       "a GitHub fine-grained personal access token",
       {"github_pat_"},
       false,
       github_fine_grained},
      {"gitlab-pat", "a GitLab personal access token", {"glpat-"}, false, gitlab_pat},
      {"npm-access-token", "an npm access token", {"npm_"}, true, npm_token},
      {"aws-access-token",
       "an AWS access key id",
       {"AKIA", "ASIA", "ABIA", "ACCA"},
       false,
       aws_key},
      {"slack-bot-token", "a Slack bot token", {"xoxb-"}, false, slack_bot},
      {"slack-user-token", "a Slack user token", {"xoxp-", "xoxe-"}, false, slack_user},
      {"slack-app-token", "a Slack app token", {"xapp-"}, true, slack_app},
      {"gcp-api-key", "a Google API key", {"AIza"}, false, gcp_api_key},
      {"vault-service-token", "a HashiCorp Vault token", {"hvs."}, false, vault_token},
      {"huggingface-access-token",
       "a Hugging Face access token",
       {"hf_"},
       false,
       huggingface_token},
      {"anthropic-api-key", "an Anthropic API key", {"sk-ant-api03-"}, false, anthropic_key},
      {"jwt", "a JSON web token", {"ey"}, false, jwt},
      {"private-key", "a private key", {"-----begin"}, true, private_key},
  }};
  return kShapes;
}

// Shannon entropy in bits per character, as gitleaks computes it for its floor.
double entropy(std::string_view s) {
  std::array<std::size_t, 256> counts{};
  for (char c : s) {
    ++counts[static_cast<unsigned char>(c)];
  }
  double bits = 0;
  for (std::size_t n : counts) {
    if (n != 0) {
      double p = static_cast<double>(n) / static_cast<double>(s.size());
      bits -= p * std::log2(p);
    }
  }
  return bits;
}

std::string shown_part(const Shape& shape, std::string_view t, std::string_view lower,
                       std::size_t at, std::string_view keyword) {
  if (shape.kind == "private-key") {
    // The BEGIN line names the key's type and holds nothing secret.
    std::size_t end = lower.find("-----", lower.find("private key", at)) + 5;
    return std::string(t.substr(at, end - at));
  }
  return std::string(t.substr(at, keyword.size())) + "…";
}

}  // namespace

std::vector<TokenMatch> find_tokens(std::string_view text) {
  std::string lowered(text);
  std::transform(lowered.begin(), lowered.end(), lowered.begin(), [](char c) {
    return c >= 'A' && c <= 'Z' ? static_cast<char>(c - 'A' + 'a') : c;
  });
  const std::string_view lower = lowered;
  std::vector<TokenMatch> out;
  for (const Shape& shape : shapes()) {
    for (std::string_view keyword : shape.keywords) {
      if (keyword.empty()) {
        continue;
      }
      const std::string_view haystack = shape.fold_case ? lower : text;
      std::size_t at = haystack.find(keyword);
      while (at != std::string_view::npos) {
        std::size_t length = shape.match(text, lower, at);
        if (length != kNone &&
            (shape.kind == "private-key" || entropy(text.substr(at, length)) >= kEntropyFloor)) {
          out.push_back(
              TokenMatch{shape.kind, shape.label, at, shown_part(shape, text, lower, at, keyword)});
          at = haystack.find(keyword, at + length);
        } else {
          at = haystack.find(keyword, at + 1);
        }
      }
    }
  }
  std::stable_sort(out.begin(), out.end(),
                   [](const TokenMatch& a, const TokenMatch& b) { return a.offset < b.offset; });
  return out;
}

}  // namespace reviewer::credentials
