#include <proofline/capi/detail/key_names.hpp>

#include <proofline/capi/detail/boundary.hpp>

namespace proofline::capi {

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

std::string KeyNames::claim(const std::string& name) {
  std::lock_guard lock(mutex_);
  if (!held_.emplace(name, "").second)
    throw_status(PL_ERR_INVALID_ARGUMENT, "a key named '" + name +
                                              "' is registered already (keys need names of their own: give "
                                              "this one another)");
  return name;
}

std::string KeyNames::claim_from_path(const std::string& file) {
  const std::vector<std::string> names = names_from_path(file);
  const std::string& source = names.back();
  std::lock_guard lock(mutex_);
  for (const std::string& name : names) {
    const auto [it, fresh] = held_.emplace(name, source);
    if (fresh) return name;
    if (it->second == source)
      throw_status(PL_ERR_INVALID_ARGUMENT, file + ": a key of this file is registered already, as '" + name +
                                                "': give this one a name of its own (pl_key_options.name)");
  }
  throw_status(PL_ERR_INVALID_ARGUMENT, file +
                                            ": keys registered already hold every name its path gives: "
                                            "give this one a name of its own (pl_key_options.name)");
}

std::string KeyNames::claim_numbered() {
  std::lock_guard lock(mutex_);
  for (;;) {
    std::string name = "key-" + std::to_string(++numbered_);
    if (held_.emplace(name, "").second) return name;
  }
}

void KeyNames::release(const std::string& name) {
  std::lock_guard lock(mutex_);
  held_.erase(name);
}

}  // namespace proofline::capi
