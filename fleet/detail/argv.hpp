// The subcommands' arguments as the option parser takes them (argc/argv, with the command's name first).
#pragma once

#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace proofline::fleet::detail {

class Argv {
 public:
  Argv(std::string_view program, std::span<const std::string_view> args) {
    strings_.emplace_back(program);
    for (const std::string_view a : args) strings_.emplace_back(a);
    for (const std::string& s : strings_) pointers_.push_back(s.c_str());
    pointers_.push_back(nullptr);
  }
  int argc() const noexcept { return static_cast<int>(strings_.size()); }
  const char* const* argv() const noexcept { return pointers_.data(); }

 private:
  std::vector<std::string> strings_;
  std::vector<const char*> pointers_;
};

}  // namespace proofline::fleet::detail
