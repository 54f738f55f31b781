#include <proofline/fleet/detail/conninfo.hpp>

#include <libpq-fe.h>

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <initializer_list>
#include <memory>
#include <sstream>

#include <proofline/groth16/json.hpp>
#include <proofline/util/error.hpp>
#include <proofline/util/options.hpp>

namespace proofline::fleet::detail {

namespace {

bool blank(char c) {
  return c == ' ' || c == '\t' || c == '\r' || c == '\n';
}

std::string trim(std::string_view text) {
  while (!text.empty() && blank(text.front())) text.remove_prefix(1);
  while (!text.empty() && blank(text.back())) text.remove_suffix(1);
  return std::string(text);
}

/// The first non-blank line of a URL file, without a UTF-8 byte-order mark, surrounding blanks, or one pair
/// of shell quotes around the whole of it (as in a file written for `export PROOFLINE_DB_URL="..."`).
std::string url_of_file(const std::filesystem::path& file) {
  // Read as every input is: a FIFO, folder or device is refused at once instead of waited on.
  std::string text;
  try {
    text = groth16::json::read_text_file(file, std::uint64_t{1} << 20, "a database URL file");
  } catch (const Error& e) {
    throw OptionError(std::string(e.what()) + " (the database URL file)");
  }
  std::istringstream in(text);
  std::string line;
  for (bool first = true; std::getline(in, line); first = false) {
    if (first && line.starts_with("\xEF\xBB\xBF")) line.erase(0, 3);
    line = trim(line);
    if (line.size() >= 2 && (line.front() == '"' || line.front() == '\'') && line.back() == line.front())
      line = trim(std::string_view(line).substr(1, line.size() - 2));
    if (!line.empty()) return line;
  }
  throw OptionError(file.string() + ": the database URL file has no URL (every line is blank)");
}

}  // namespace

std::string without_quoted_text(std::string_view message) {
  std::string out;
  bool quoted = false;
  for (const char c : message) {
    if (c == '"') {
      if (!quoted) out += "\"(withheld)\"";
      quoted = !quoted;
    } else if (!quoted) {
      out += c;
    }
  }
  return trim(out);
}

namespace {

/// Values libpq checks only when it connects, then quoting them in its message: a password typed where the
/// port goes (postgresql://user@host:password/db) would be printed. Checked here, their values withheld.
void check_values(const PQconninfoOption* options) {
  const auto one_of = [](std::string_view value, std::initializer_list<std::string_view> allowed) {
    return std::find(allowed.begin(), allowed.end(), value) != allowed.end();
  };
  const auto integers = [](std::string_view value) {  // a comma-separated list, items may be empty
    for (const char c : value)
      if (c != ',' && (c < '0' || c > '9')) return false;
    return true;
  };
  for (const PQconninfoOption* o = options; o && o->keyword; ++o) {
    if (o->val == nullptr) continue;
    const std::string_view keyword = o->keyword, value = o->val;
    bool ok = true;
    if (keyword == "port" || keyword == "connect_timeout" || keyword.starts_with("keepalives"))
      ok = integers(value);
    else if (keyword == "sslmode")
      ok = one_of(value, {"disable", "allow", "prefer", "require", "verify-ca", "verify-full"});
    else if (keyword == "gssencmode" || keyword == "channel_binding")
      ok = one_of(value, {"disable", "prefer", "require"});
    else if (keyword == "target_session_attrs")
      ok = one_of(value, {"any", "read-write", "read-only", "primary", "standby", "prefer-standby"});
    if (!ok)
      throw OptionError("the database URL's " + std::string(keyword) +
                        " is not a value libpq accepts (the value is withheld: it may hold the password)");
  }
}

}  // namespace

void check_conninfo(const std::string& conninfo) {
  char* error = nullptr;
  const std::unique_ptr<PQconninfoOption, void (*)(PQconninfoOption*)> parsed(
      PQconninfoParse(conninfo.c_str(), &error), PQconninfoFree);
  if (parsed) return check_values(parsed.get());
  // libpq quotes the offending part of the URL, which may be the password: say what is wrong, not where.
  const std::string reason = error ? without_quoted_text(error) : "out of memory";
  PQfreemem(error);
  throw OptionError("the database URL cannot be parsed: " + reason +
                    " (the quoted part is withheld: it may hold the password)");
}

std::string without_secrets(std::string message, const std::string& conninfo) {
  const auto replace_all = [&](const std::string& secret) {
    if (secret.empty()) return;
    for (std::size_t at = message.find(secret); at != std::string::npos; at = message.find(secret, at + 10))
      message.replace(at, secret.size(), "(withheld)");
  };
  replace_all(conninfo);
  const std::unique_ptr<PQconninfoOption, void (*)(PQconninfoOption*)> parsed(
      PQconninfoParse(conninfo.c_str(), nullptr), PQconninfoFree);
  for (const PQconninfoOption* o = parsed.get(); o && o->keyword; ++o)
    if (std::string_view(o->keyword) == "password" && o->val) replace_all(o->val);
  return message;
}

std::string resolve_conninfo(const std::optional<std::filesystem::path>& url_file) {
  std::string conninfo;
  if (url_file)
    conninfo = url_of_file(*url_file);
  else if (const char* url = std::getenv(db_url_variable); url != nullptr)
    conninfo = trim(url);
  check_conninfo(conninfo);
  return conninfo;
}

}  // namespace proofline::fleet::detail
