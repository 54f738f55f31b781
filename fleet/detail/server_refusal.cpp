#include <proofline/fleet/detail/server_refusal.hpp>

#include <algorithm>

namespace proofline::fleet::detail {

namespace {

/// A SQLSTATE: five digits or upper-case letters.
bool is_sqlstate(std::string_view text) {
  return text.size() == 5 &&
         std::ranges::all_of(text, [](char c) { return (c >= '0' && c <= '9') || (c >= 'A' && c <= 'Z'); });
}

/// The line without the codes that follow a severity ("FATAL:  28P01: text" -> "FATAL:  text"); libpq puts
/// two spaces after the severity's colon, and the severity itself is in the server's language.
std::string without_codes(std::string_view line, std::vector<std::string>& sqlstates) {
  std::string out;
  std::size_t at = 0;
  while (true) {
    const std::size_t mark = line.find(":  ", at);
    if (mark == std::string_view::npos) break;
    const std::size_t code = mark + 3;
    out.append(line.substr(at, code - at));
    at = code;
    if (code + 7 <= line.size() && is_sqlstate(line.substr(code, 5)) && line.substr(code + 5, 2) == ": ") {
      sqlstates.emplace_back(line.substr(code, 5));
      at = code + 7;
    }
  }
  out.append(line.substr(at));
  return out;
}

}  // namespace

ServerRefusal read_server_refusal(std::string_view verbose_message) {
  ServerRefusal refusal;
  std::size_t begin = 0;
  while (begin < verbose_message.size()) {
    std::size_t end = verbose_message.find('\n', begin);
    if (end == std::string_view::npos) end = verbose_message.size();
    const std::string_view line = verbose_message.substr(begin, end - begin);
    // Where in the server's source the error was raised: libpq's label, not the server's words.
    if (!line.starts_with("LOCATION:  ")) {
      refusal.message += without_codes(line, refusal.sqlstates);
      if (end < verbose_message.size()) refusal.message += '\n';
    }
    begin = end + 1;
  }
  return refusal;
}

bool refuses_for_good(const std::vector<std::string>& sqlstates) {
  return std::ranges::any_of(sqlstates,
                             [](const std::string& s) { return s.starts_with("28") || s == "3D000"; });
}

}  // namespace proofline::fleet::detail
