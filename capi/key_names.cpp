#include <proofline/capi/detail/key_names.hpp>

#include <proofline/capi/detail/boundary.hpp>

namespace proofline::capi {

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
