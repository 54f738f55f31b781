#include <proofline/util/path_names.hpp>

namespace proofline {

namespace fs = std::filesystem;

std::vector<std::string> names_from_path(const fs::path& file) {
  std::error_code ignored;
  fs::path full = fs::absolute(file, ignored);
  if (full.empty()) full = file;
  full = full.lexically_normal();
  std::vector<std::string> names;
  std::string name = full.stem().string();
  if (!name.empty()) names.push_back(name);
  for (fs::path folder = full.parent_path(); folder.has_relative_path(); folder = folder.parent_path()) {
    name = folder.filename().string() + "/" + name;
    names.push_back(name);
  }
  names.push_back(full.string());
  return names;
}

}  // namespace proofline
