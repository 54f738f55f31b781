#include "trace/xml_check.hpp"

#include <cctype>
#include <set>
#include <stdexcept>
#include <vector>

namespace proofline::test {

namespace {

class Checker {
 public:
  explicit Checker(std::string_view text) : s_(text) {}

  XmlSummary run() {
    if (s_.substr(0, 5) == "<?xml") {
      const std::size_t end = s_.find("?>");
      if (end == std::string_view::npos) fail("unterminated declaration");
      pos_ = end + 2;
    }
    int roots = 0;
    std::vector<std::string> open;
    while (pos_ < s_.size()) {
      if (s_[pos_] != '<') {
        const std::string data = character_data('<');
        if (open.empty() && data.find_first_not_of(" \t\r\n") != std::string::npos)
          fail("text outside the root");
        summary_.text += data;
        continue;
      }
      if (s_.substr(pos_, 4) == "<!--") {
        const std::size_t end = s_.find("-->", pos_ + 4);
        if (end == std::string_view::npos) fail("unterminated comment");
        pos_ = end + 3;
        continue;
      }
      if (s_.substr(pos_, 2) == "</") {
        pos_ += 2;
        const std::string name = read_name();
        skip_space();
        expect('>');
        if (open.empty() || open.back() != name) fail("closing tag </" + name + "> does not match");
        open.pop_back();
        continue;
      }
      ++pos_;
      const std::string name = read_name();
      if (open.empty() && ++roots > 1) fail("a second root element <" + name + ">");
      if (open.empty()) summary_.root = name;
      ++summary_.elements[name];
      std::set<std::string> attributes;
      for (;;) {
        const std::size_t before = pos_;
        skip_space();
        if (s_.substr(pos_, 2) == "/>") {
          pos_ += 2;
          break;
        }
        if (peek() == '>') {
          ++pos_;
          open.push_back(name);
          break;
        }
        if (pos_ == before) fail("expected space before an attribute");
        const std::string attribute = read_name();
        if (!attributes.insert(attribute).second) fail("repeated attribute " + attribute);
        skip_space();
        expect('=');
        skip_space();
        const char quote = peek();
        if (quote != '"' && quote != '\'') fail("unquoted attribute value");
        ++pos_;
        const std::string value = character_data(quote);
        expect(quote);
        if (attribute == "class") ++summary_.classes[value];
      }
    }
    if (!open.empty()) fail("<" + open.back() + "> is never closed");
    if (roots == 0) fail("no root element");
    return summary_;
  }

 private:
  [[noreturn]] void fail(const std::string& why) const {
    throw std::runtime_error("malformed XML at offset " + std::to_string(pos_) + ": " + why);
  }
  char peek() const { return pos_ < s_.size() ? s_[pos_] : '\0'; }
  void expect(char c) {
    if (peek() != c) fail(std::string("expected '") + c + "'");
    ++pos_;
  }
  void skip_space() {
    while (pos_ < s_.size() && std::isspace(static_cast<unsigned char>(s_[pos_]))) ++pos_;
  }
  std::string read_name() {
    const std::size_t start = pos_;
    while (pos_ < s_.size() && (std::isalnum(static_cast<unsigned char>(s_[pos_])) || s_[pos_] == '-' ||
                                s_[pos_] == '_' || s_[pos_] == ':' || s_[pos_] == '.'))
      ++pos_;
    if (pos_ == start) fail("expected a name");
    return std::string(s_.substr(start, pos_ - start));
  }
  // Text up to `stop` (not consumed), with entities decoded.
  std::string character_data(char stop) {
    std::string out;
    while (pos_ < s_.size() && s_[pos_] != stop) {
      const char c = s_[pos_];
      if (c == '<') fail("raw '<' in text");
      const unsigned char u = static_cast<unsigned char>(c);
      if (u < 0x20 && c != '\t' && c != '\n' && c != '\r') fail("control character");
      if (c != '&') {
        out.push_back(c);
        ++pos_;
        continue;
      }
      const std::size_t end = s_.find(';', pos_);
      if (end == std::string_view::npos || end - pos_ > 10) fail("raw '&' in text");
      const std::string_view entity = s_.substr(pos_ + 1, end - pos_ - 1);
      if (entity == "amp")
        out.push_back('&');
      else if (entity == "lt")
        out.push_back('<');
      else if (entity == "gt")
        out.push_back('>');
      else if (entity == "quot")
        out.push_back('"');
      else if (entity == "apos")
        out.push_back('\'');
      else if (entity.size() > 1 && entity[0] == '#')
        out.push_back('?');
      else
        fail("unknown entity &" + std::string(entity) + ";");
      pos_ = end + 1;
    }
    if (pos_ >= s_.size() && stop != '<') fail("unexpected end inside a tag");
    return out;
  }

  std::string_view s_;
  std::size_t pos_ = 0;
  XmlSummary summary_;
};

}  // namespace

XmlSummary check_xml(std::string_view text) {
  return Checker(text).run();
}

}  // namespace proofline::test
