// Test support: a well-formedness check for the SVG writer (the subset of XML 1.0 it may emit: a declaration,
// elements, attributes, character data, entities, comments).
#pragma once

#include <map>
#include <string>
#include <string_view>

namespace proofline::test {

struct XmlSummary {
  std::string root;                     ///< name of the root element
  std::map<std::string, int> elements;  ///< count per element name
  std::map<std::string, int> classes;   ///< count per value of a class attribute
  std::string text;                     ///< all character data, entities decoded, concatenated
};

/// Throws std::runtime_error naming the offset of the first problem: mismatched or unclosed tags, an
/// unquoted or repeated attribute, a raw '<' or '&' in text or attribute values, an unknown entity, text or a
/// second element outside the root.
XmlSummary check_xml(std::string_view text);

}  // namespace proofline::test
