#include <proofline/fleet/detail/conninfo.hpp>

#include <cstdlib>
#include <fstream>

#include <proofline/util/error.hpp>

namespace proofline::fleet::detail {

std::string resolve_conninfo(const std::optional<std::filesystem::path>& url_file) {
  if (url_file) {
    std::ifstream in(*url_file);
    if (!in) throw Error(Errc::io, url_file->string() + ": cannot read the database URL file");
    std::string line;
    std::getline(in, line);
    while (!line.empty() && (line.back() == '\r' || line.back() == ' ' || line.back() == '\t'))
      line.pop_back();
    if (line.empty()) throw Error(Errc::bad_input, url_file->string() + ": the database URL file is empty");
    return line;
  }
  if (const char* url = std::getenv(db_url_variable); url != nullptr && *url != '\0') return url;
  return "";
}

}  // namespace proofline::fleet::detail
