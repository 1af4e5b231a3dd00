#include "core/expr/parser.h"

#include <algorithm>
#include <limits>

#include "core/expr/lexer.h"
#include "core/expr/text_case.h"

namespace reviewer::expr {
namespace {

constexpr std::size_t kUnbounded = std::numeric_limits<std::size_t>::max();

const std::vector<FunctionSignature>& language_functions() {
  static const std::vector<FunctionSignature> kFunctions = {
      {"contains", 2, 2}, {"startswith", 2, 2}, {"endswith", 2, 2}, {"format", 1, 255},
      {"join", 1, 2},     {"tojson", 1, 1},     {"fromjson", 1, 1}, {"case", 3, kUnbounded}};
  return kFunctions;
}

// A parse error carries the message GitHub's parser gives; thrown inside this file only.
struct Stop {
  util::Refusal error;
};

class Parser {
 public:
  Parser(std::vector<Token> tokens, const Scope& scope)
      : tokens_(std::move(tokens)), scope_(scope) {}

  std::unique_ptr<Node> run() {
    if (at_end()) {
      throw Stop{error("Unexpected end of expression", tokens_.back())};
    }
    auto expr = expression();
    if (!at_end()) {
      throw unexpected(peek());
    }
    return expr;
  }

 private:
  static util::Refusal error(const std::string& what, const Token& t) {
    const std::string shown = t.type == TokenType::kEof      ? "EOF"
                              : t.type == TokenType::kString ? t.text
                                                             : t.lexeme;
    return util::Refusal{
        "expression-invalid",
        what + ": '" + shown + "' (at character " + std::to_string(t.offset + 1) + ")",
        std::nullopt};
  }
  static Stop unexpected(const Token& t) { return Stop{error("Unexpected symbol", t)}; }

  // Depth is counted where GitHub's parser counts it, so the same texts are too deep.
  struct Depth {
    explicit Depth(Parser& p) : p_(p) {
      if (++p_.depth_ > kMaxDepth) {
        throw Stop{error("Exceeded max expression depth " + std::to_string(kMaxDepth), p_.peek())};
      }
    }
    ~Depth() { --p_.depth_; }
    Depth(const Depth&) = delete;
    Depth& operator=(const Depth&) = delete;
    Parser& p_;
  };

  static std::unique_ptr<Node> make(Node::Type type, std::size_t offset) {
    auto n = std::make_unique<Node>();
    n->type = type;
    n->offset = offset;
    return n;
  }

  std::unique_ptr<Node> expression() {
    Depth depth(*this);
    return logical(TokenType::kOr);
  }

  // || over && over equality; both collect their operands in one node.
  std::unique_ptr<Node> logical(TokenType op) {
    auto operand = [&] { return op == TokenType::kOr ? logical(TokenType::kAnd) : equality(); };
    auto expr = operand();
    if (!check(op)) {
      return expr;
    }
    Depth depth(*this);
    auto node = make(op == TokenType::kOr ? Node::Type::kOr : Node::Type::kAnd, peek().offset);
    node->args.push_back(std::move(expr));
    while (match(op)) {
      node->args.push_back(operand());
    }
    return node;
  }

  std::unique_ptr<Node> equality() {
    auto expr = comparison();
    while (check(TokenType::kEqualEqual) || check(TokenType::kBangEqual)) {
      const Token& t = next();
      expr = binary(std::move(expr), t,
                    t.type == TokenType::kEqualEqual ? Node::Op::kEq : Node::Op::kNe, comparison());
    }
    return expr;
  }

  std::unique_ptr<Node> comparison() {
    auto expr = unary();
    for (;;) {
      Node::Op op;
      if (check(TokenType::kGreater)) {
        op = Node::Op::kGt;
      } else if (check(TokenType::kGreaterEqual)) {
        op = Node::Op::kGe;
      } else if (check(TokenType::kLess)) {
        op = Node::Op::kLt;
      } else if (check(TokenType::kLessEqual)) {
        op = Node::Op::kLe;
      } else {
        return expr;
      }
      const Token& t = next();
      expr = binary(std::move(expr), t, op, unary());
    }
  }

  static std::unique_ptr<Node> binary(std::unique_ptr<Node> left, const Token& t, Node::Op op,
                                      std::unique_ptr<Node> right) {
    auto n = make(Node::Type::kCompare, t.offset);
    n->op = op;
    n->args.push_back(std::move(left));
    n->args.push_back(std::move(right));
    return n;
  }

  std::unique_ptr<Node> unary() {
    if (!check(TokenType::kBang)) {
      return index();
    }
    const std::size_t offset = next().offset;
    Depth depth(*this);
    auto n = make(Node::Type::kNot, offset);
    n->args.push_back(unary());
    return n;
  }

  std::unique_ptr<Node> index() {
    auto expr = call();
    if (expr->type != Node::Type::kGroup && expr->type != Node::Type::kCall &&
        expr->type != Node::Type::kContext) {
      return expr;
    }
    std::vector<std::unique_ptr<Depth>> depths;
    for (;;) {
      if (check(TokenType::kLeftBracket)) {
        const std::size_t offset = next().offset;
        auto n = make(Node::Type::kIndex, offset);
        n->args.push_back(std::move(expr));
        if (match(TokenType::kStar)) {
          n->star = true;
        } else {
          n->args.push_back(expression());
        }
        if (!match(TokenType::kRightBracket)) {
          throw unexpected(peek());
        }
        depths.push_back(std::make_unique<Depth>(*this));
        expr = std::move(n);
      } else if (check(TokenType::kDot)) {
        const std::size_t offset = next().offset;
        depths.push_back(std::make_unique<Depth>(*this));
        auto n = make(Node::Type::kIndex, offset);
        n->args.push_back(std::move(expr));
        if (check(TokenType::kIdentifier)) {
          const Token& name = next();
          auto key = make(Node::Type::kLiteral, name.offset);
          key->literal = Value::string(name.lexeme);
          n->args.push_back(std::move(key));
        } else if (match(TokenType::kStar)) {
          n->star = true;
        } else {
          throw unexpected(peek());
        }
        expr = std::move(n);
      } else {
        return expr;
      }
    }
  }

  std::unique_ptr<Node> call() {
    if (!check(TokenType::kIdentifier)) {
      return primary();
    }
    const Token& name = next();
    const std::string lowered = lower(name.lexeme);
    if (!match(TokenType::kLeftParen)) {
      if (std::find(scope_.contexts.begin(), scope_.contexts.end(), lowered) ==
          scope_.contexts.end()) {
        throw Stop{error("Unrecognized named-value", name)};
      }
      auto n = make(Node::Type::kContext, name.offset);
      n->name = name.lexeme;
      return n;
    }
    auto n = make(Node::Type::kCall, name.offset);
    n->name = lowered;
    while (!match(TokenType::kRightParen)) {
      n->args.push_back(expression());
      if (!check(TokenType::kRightParen) && !match(TokenType::kComma)) {
        throw unexpected(peek());
      }
    }
    check_call(name, lowered, n->args.size());
    return n;
  }

  void check_call(const Token& name, const std::string& lowered, std::size_t count) const {
    const FunctionSignature* f = nullptr;
    for (const auto* list : {&language_functions(), &scope_.functions}) {
      for (const auto& candidate : *list) {
        if (candidate.name == lowered) {
          f = &candidate;
          break;
        }
      }
      if (f != nullptr) {
        break;
      }
    }
    if (f == nullptr) {
      throw Stop{error("Unrecognized function", name)};
    }
    if (count < f->min_args) {
      throw Stop{error("Too few parameters supplied", name)};
    }
    if (count > f->max_args) {
      throw Stop{error("Too many parameters supplied", name)};
    }
    if (lowered == "case" && count % 2 == 0) {
      throw Stop{
          error("Even number of parameters supplied, requires an odd number of parameters", name)};
    }
  }

  std::unique_ptr<Node> primary() {
    if (at_end()) {
      throw Stop{error("Unexpected end of expression", previous())};
    }
    const Token& t = peek();
    auto literal = [&](Value v) {
      next();
      auto n = make(Node::Type::kLiteral, t.offset);
      n->literal = std::move(v);
      return n;
    };
    switch (t.type) {
      case TokenType::kFalse:
        return literal(Value::boolean(false));
      case TokenType::kTrue:
        return literal(Value::boolean(true));
      case TokenType::kNull:
        return literal(Value());
      case TokenType::kNumber:
        return literal(Value::number(t.number));
      case TokenType::kString:
        return literal(Value::string(t.text));
      case TokenType::kLeftParen: {
        next();
        auto n = make(Node::Type::kGroup, t.offset);
        n->args.push_back(expression());
        if (at_end()) {
          throw Stop{error("Unexpected end of expression", previous())};
        }
        if (!match(TokenType::kRightParen)) {
          throw unexpected(peek());
        }
        return n;
      }
      default:
        throw unexpected(t);
    }
  }

  bool at_end() const { return tokens_[at_].type == TokenType::kEof; }
  const Token& peek() const { return tokens_[at_]; }
  const Token& previous() const { return tokens_[at_ == 0 ? 0 : at_ - 1]; }
  bool check(TokenType type) const { return !at_end() && peek().type == type; }
  const Token& next() {
    if (!at_end()) {
      ++at_;
    }
    return previous();
  }
  bool match(TokenType type) {
    if (check(type)) {
      next();
      return true;
    }
    return false;
  }

  std::vector<Token> tokens_;
  const Scope& scope_;
  std::size_t at_ = 0;
  int depth_ = 0;
};

}  // namespace

std::vector<FunctionSignature> status_functions() {
  return {{"success", 0, 0}, {"always", 0, 0}, {"cancelled", 0, 0}, {"failure", 0, 0}};
}

FunctionSignature hash_files_function() { return {"hashfiles", 1, 255}; }

util::Result<std::unique_ptr<Node>> parse(std::string_view text, const Scope& scope) {
  auto tokens = lex(text);
  if (!tokens) {
    return tokens.error();
  }
  try {
    return Parser(std::move(*tokens), scope).run();
  } catch (const Stop& stop) {
    return stop.error;
  }
}

}  // namespace reviewer::expr
