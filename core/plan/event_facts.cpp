#include "core/plan/event_facts.h"

#include <fcntl.h>

#include <algorithm>
#include <initializer_list>
#include <optional>

#include "core/expr/json_value.h"
#include "core/expr/text_case.h"
#include "core/util/file_read.h"
#include "core/util/text.h"

namespace reviewer::plan {
namespace {

// A webhook payload nests a few levels (pull_request.head.repo.owner); deeper is not an event.
constexpr int kMaxDepth = 16;

bool known_field(std::string_view key) {
  return std::any_of(std::begin(kEventFields), std::end(kEventFields),
                     [&](std::string_view f) { return expr::lower(f) == expr::lower(key); });
}

// The string at `path` inside `v`, or nullptr when any step is missing or not of that kind.
const std::string* string_at(const expr::Value* v, std::initializer_list<std::string_view> path) {
  for (std::string_view key : path) {
    if (v == nullptr || v->kind() != expr::Kind::kObject) {
      return nullptr;
    }
    v = v->as_object().find(key);
  }
  return v != nullptr && v->kind() == expr::Kind::kString ? &v->as_string() : nullptr;
}

// event.number as GitHub writes it: a positive integer.
std::optional<std::string> pull_number(const expr::Value* event) {
  const expr::Value* n = event->as_object().find("number");
  if (n == nullptr || n->kind() != expr::Kind::kNumber) {
    return std::nullopt;
  }
  const double d = n->as_number();
  if (!(d >= 1 && d <= 9007199254740991.0) || d != static_cast<double>(static_cast<long long>(d))) {
    return std::nullopt;
  }
  return std::to_string(static_cast<long long>(d));
}

class Reader {
 public:
  Reader(const std::string& base, const std::string& where) : base_(base), where_(where) {}

  util::Result<expr::Object> read(std::string_view json) {
    if (json.size() > kMaxEventFileBytes) {
      return invalid("is " + std::to_string(json.size()) + " bytes, over the " +
                     std::to_string(kMaxEventFileBytes) + "-byte bound");
    }
    auto parsed = expr::parse_json(json, kMaxDepth);
    if (!parsed) {
      return invalid("is not JSON within " + std::to_string(kMaxDepth) +
                     " levels: " + parsed.error().message);
    }
    if (parsed->kind() != expr::Kind::kObject) {
      return invalid("must be a JSON object of github context fields");
    }
    const expr::Object& given = parsed->as_object();
    for (const auto& [key, value] : given.entries()) {
      if (!known_field(key)) {
        return invalid("names " + util::quote(key) +
                       ", which is not a field a host may describe; the fields are event, "
                       "repository, repository_id, repository_owner, repository_owner_id, "
                       "repositoryUrl, head_ref, sha, ref, ref_name, ref_type, actor, actor_id, "
                       "triggering_actor");
      }
      const bool object = expr::lower(key) == "event";
      if (value.kind() != (object ? expr::Kind::kObject : expr::Kind::kString)) {
        return invalid(util::quote(key) + " must be " + (object ? "an object" : "a string"));
      }
    }
    expr::Object out = given;
    if (const expr::Value* event = given.find("event")) {
      auto filled = from_payload(*event, out);
      if (!filled) {
        return filled.refusals();
      }
      out = std::move(*filled);
    }
    if (auto owner = check_owner(out); !owner) {
      return owner.refusals();
    }
    if (const std::size_t n = event_facts_json(out).size(); n > kMaxEventBytes) {
      return invalid("is " + std::to_string(n) + " bytes as compact JSON, over the " +
                     std::to_string(kMaxEventBytes) + "-byte bound of the assignment");
    }
    return out;
  }

 private:
  util::Refusal invalid(const std::string& what) const {
    return util::refusal("event-invalid", "the event description " + where_ + " " + what);
  }
  util::Refusal mismatch(const std::string& what) const {
    return util::refusal("event-mismatch", "the event description " + where_ + ": " + what);
  }

  // Sets `field` to `derived` unless the description gave it; a given value must agree.
  util::Status fill(expr::Object& out, const std::string& field, const std::string& derived,
                    const std::string& source) const {
    const expr::Value* given = out.find(field);
    if (given == nullptr) {
      out = out.with(field, expr::Value::string(derived));
      return util::ok_status();
    }
    if (given->as_string() != derived) {
      return mismatch(field + " is " + util::quote(given->as_string()) + " but " + source + " is " +
                      util::quote(derived));
    }
    return util::ok_status();
  }

  util::Result<expr::Object> from_payload(const expr::Value& event, expr::Object out) const {
    const expr::Value* pr = event.as_object().find("pull_request");
    if (pr == nullptr || pr->kind() != expr::Kind::kObject) {
      return invalid(
          "has an event without a pull_request object: the review is of a "
          "pull_request event");
    }
    if (const std::string* b = string_at(pr, {"base", "ref"}); b != nullptr && *b != base_) {
      return mismatch("event.pull_request.base.ref is " + util::quote(*b) +
                      " but the review's base is " + util::quote(base_));
    }
    struct Derived {
      const char* field;
      const std::string* value;
      const char* source;
    };
    const Derived derived[] = {
        {"repository", string_at(&event, {"repository", "full_name"}),
         "event.repository.full_name"},
        {"repository_owner", string_at(&event, {"repository", "owner", "login"}),
         "event.repository.owner.login"},
        {"head_ref", string_at(pr, {"head", "ref"}), "event.pull_request.head.ref"},
    };
    for (const auto& d : derived) {
      if (d.value != nullptr) {
        if (auto s = fill(out, d.field, *d.value, d.source); !s) {
          return s.refusals();
        }
      }
    }
    if (auto n = pull_number(&event)) {
      for (const auto& [field, value] :
           {std::pair<std::string, std::string>{"ref", "refs/pull/" + *n + "/merge"},
            {"ref_name", *n + "/merge"}}) {
        if (auto s = fill(out, field, value, "event.number " + *n + "'s merge ref"); !s) {
          return s.refusals();
        }
      }
    }
    return out;
  }

  // `repository` is OWNER/NAME; its owner and repository_owner name the same account (filled
  // from it when left out, as GitHub's repository_owner is the owner part).
  util::Status check_owner(expr::Object& out) const {
    const expr::Value* repo = out.find("repository");
    if (repo == nullptr) {
      return util::ok_status();
    }
    const std::string& r = repo->as_string();
    const auto slash = r.find('/');
    if (slash == 0 || slash == std::string::npos || slash + 1 == r.size() ||
        r.find('/', slash + 1) != std::string::npos) {
      return invalid("has repository " + util::quote(r) + ", which is not OWNER/NAME");
    }
    const expr::Value* owner = out.find("repository_owner");
    if (owner != nullptr && expr::lower(owner->as_string()) != expr::lower(r.substr(0, slash))) {
      return mismatch("repository_owner is " + util::quote(owner->as_string()) +
                      " but repository is " + util::quote(r));
    }
    if (owner == nullptr) {
      out = out.with("repository_owner", expr::Value::string(r.substr(0, slash)));
    }
    return util::ok_status();
  }

  const std::string& base_;
  const std::string& where_;
};

}  // namespace

util::Result<expr::Object> read_event_facts(std::string_view json, const std::string& base,
                                            const std::string& where) {
  return Reader(base, where).read(json);
}

util::Result<expr::Object> read_event_file(const std::string& path, const std::string& base) {
  // The host's own file, named by whoever runs the review: a link to it is as good as it.
  auto text = util::read_regular_file(AT_FDCWD, path, {kMaxEventFileBytes, true});
  if (!text) {
    return util::refusal("event-invalid", "cannot read the event description " + util::quote(path) +
                                              ": " + text.error().message);
  }
  return read_event_facts(*text, base, util::quote(path));
}

std::string event_facts_json(const expr::Object& facts) {
  return expr::to_compact_json(expr::Value::object(facts));
}

}  // namespace reviewer::plan
