// Command-line options, declared once for the programs and benchmarks: each registration names an option, the
// placeholder of its value, its help text and where the value goes. parse() fills the targets, and --help is
// generated from the same registrations. Values come as `--name VALUE` or `--name=VALUE`. Every bad input is
// one OptionError naming the option and the problem ("--count: 'x' is not a number"), which a program prints
// after its name on one line and turns into exit code 2 (exit_bad_options).
#pragma once

#include <chrono>
#include <concepts>
#include <cstdint>
#include <cstdio>
#include <exception>
#include <filesystem>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <proofline/util/error.hpp>
#include <proofline/util/size.hpp>

namespace proofline {

/// The exit code of a program given options or input it cannot use.
inline constexpr int exit_bad_options = 2;

/// A bad option or argument; what() is the whole message to print after the program's name.
class OptionError : public Error {
 public:
  explicit OptionError(const std::string& message) : Error(Errc::invalid_argument, message) {}
};

/// The values an option accepts, inclusive, and why (printed beside a value outside them).
template <class T>
struct Bounds {
  T min;
  T max;
  std::string why = {};
};

/// Thread counts: `min` up to 4x the hardware threads. More than that is a typo, not a configuration.
Bounds<std::uint64_t> thread_bounds(std::uint64_t min = 1);

/// Sizes of buffers and budgets: 1 byte to 1 PiB.
inline Bounds<std::uint64_t> size_bounds() {
  return {1, PiB};
}

template <class T>
using Choices = std::vector<std::pair<std::string, T>>;

// ---- single values, for handlers of their own; each throws OptionError naming `option` -------------------

/// A duration: a whole number in `unit`, or with its own ("500ms", "30s"), within `bounds` (milliseconds).
std::chrono::milliseconds parse_duration_option(std::string_view option, std::string_view text,
                                                std::chrono::milliseconds unit,
                                                const Bounds<std::uint64_t>& bounds);
/// Decimal digits only (no sign, no spaces), within `bounds`.
std::uint64_t parse_unsigned_option(std::string_view option, std::string_view text,
                                    const Bounds<std::uint64_t>& bounds);
/// An optional '-' and decimal digits, within `bounds`.
std::int64_t parse_signed_option(std::string_view option, std::string_view text,
                                 const Bounds<std::int64_t>& bounds);
/// A finite decimal number ("2.5", "1e3"), within `bounds`.
double parse_real_option(std::string_view option, std::string_view text, const Bounds<double>& bounds);
/// A size as parse_size reads it ("64G", "512M", "4096"), within `bounds`.
std::uint64_t parse_size_option(std::string_view option, std::string_view text,
                                const Bounds<std::uint64_t>& bounds = size_bounds());
/// "a,b,c" -> {"a", "b", "c"}; an empty list or an empty item is an error.
std::vector<std::string_view> split_option_list(std::string_view option, std::string_view text);

/// Refuses (OptionError naming `option`) an output file that could not be written: its folder missing, a
/// folder in its place, or a place no output goes (util/atomic_file.hpp's output_path_problem). For tools
/// that write their results after running: told before the run, not after.
void check_output_file_option(std::string_view option, const std::filesystem::path& path);
/// "--zkey-check: expected full, curve or trusted, got 'x'".
[[noreturn]] void throw_bad_choice(std::string_view option, std::string_view text,
                                   const std::vector<std::string_view>& names);

template <std::integral T>
T parse_integer_option(std::string_view option, std::string_view text, const Bounds<T>& bounds) {
  if constexpr (std::is_signed_v<T>) {
    return static_cast<T>(parse_signed_option(option, text, {bounds.min, bounds.max, bounds.why}));
  } else {
    return static_cast<T>(parse_unsigned_option(option, text, {bounds.min, bounds.max, bounds.why}));
  }
}

template <class T>
T parse_choice_option(std::string_view option, std::string_view text, const Choices<T>& choices) {
  std::vector<std::string_view> names;
  for (const auto& [name, value] : choices) {
    if (name == text) return value;
    names.push_back(name);
  }
  throw_bad_choice(option, text, names);
}

// ---- the parser -------------------------------------------------------------------------------------------

class OptionParser {
 public:
  using Handler = std::function<void(std::string_view value)>;

  /// `usage` is the first line of the help text ("usage: batch_prove [options]"); `about` follows it.
  OptionParser(std::string program, std::string usage, std::string about = {});

  const std::string& program() const noexcept { return program_; }

  /// Starts a titled group of options in the help text.
  OptionParser& group(std::string title);
  /// Text printed after the options in the help text.
  OptionParser& epilog(std::string text);

  // The general forms. A handler runs once per occurrence; a proofline::Error (or other exception) it throws
  // becomes an OptionError prefixed with the option's name.

  OptionParser& value(std::string name, std::string placeholder, std::string help, Handler handler);
  /// One or more values: the arguments after the option up to the next one that starts with "--".
  OptionParser& values(std::string name, std::string placeholder, std::string help, Handler handler);
  OptionParser& flag(std::string name, std::string help, std::function<void()> action);
  /// An argument that is not an option, required and not empty (each names a file), in the order registered.
  OptionParser& positional(std::string placeholder, std::string help, std::string& target);

  // Typed forms: a later occurrence replaces an earlier one (lists included).

  OptionParser& flag(std::string name, std::string help, bool& target);
  OptionParser& text(std::string name, std::string placeholder, std::string help, std::string& target);
  OptionParser& path(std::string name, std::string placeholder, std::string help,
                     std::optional<std::filesystem::path>& target);
  /// A path taken at most once, where a later one silently replacing the first would surprise (one key a
  /// run): a second occurrence is an OptionError, "given twice (A, B): `why`".
  OptionParser& path_once(std::string name, std::string placeholder, std::string help,
                          std::optional<std::filesystem::path>& target, std::string why);
  OptionParser& size(std::string name, std::string placeholder, std::string help, std::uint64_t& target,
                     Bounds<std::uint64_t> bounds = size_bounds());
  OptionParser& real(std::string name, std::string placeholder, std::string help, double& target,
                     Bounds<double> bounds);
  OptionParser& text_list(std::string name, std::string placeholder, std::string help,
                          std::vector<std::string>& target);

  template <std::integral T>
  OptionParser& integer(std::string name, std::string placeholder, std::string help, T& target,
                        Bounds<T> bounds) {
    const std::string option = name;
    return value(std::move(name), std::move(placeholder), std::move(help),
                 [option, &target, bounds = std::move(bounds)](std::string_view text) {
                   target = parse_integer_option<T>(option, text, bounds);
                 });
  }

  template <std::integral T>
  OptionParser& integer_list(std::string name, std::string placeholder, std::string help,
                             std::vector<T>& target, Bounds<T> bounds) {
    const std::string option = name;
    return value(std::move(name), std::move(placeholder), std::move(help),
                 [option, &target, bounds = std::move(bounds)](std::string_view text) {
                   std::vector<T> items;
                   for (const std::string_view item : split_option_list(option, text))
                     items.push_back(parse_integer_option<T>(option, item, bounds));
                   target = std::move(items);
                 });
  }

  /// The placeholder is the choices joined by '|'.
  template <class T>
  OptionParser& choice(std::string name, std::string help, T& target, Choices<T> choices) {
    const std::string option = name;
    std::string placeholder = join_choice_names(choices);
    return value(std::move(name), std::move(placeholder), std::move(help),
                 [option, &target, choices = std::move(choices)](std::string_view text) {
                   target = parse_choice_option(option, text, choices);
                 });
  }

  template <class T>
  OptionParser& choice_list(std::string name, std::string placeholder, std::string help,
                            std::vector<T>& target, Choices<T> choices) {
    const std::string option = name;
    return value(std::move(name), std::move(placeholder), std::move(help),
                 [option, &target, choices = std::move(choices)](std::string_view text) {
                   std::vector<T> items;
                   for (const std::string_view item : split_option_list(option, text))
                     items.push_back(parse_choice_option(option, item, choices));
                   target = std::move(items);
                 });
  }

  /// Fills the targets from argv[1..argc). Returns false after printing the help text to `help_out` for
  /// --help or -h (the program then exits 0); throws OptionError for anything it cannot use.
  bool parse(int argc, const char* const* argv, std::FILE* help_out = stdout);

  /// The help text: usage, about, the options by group, epilog.
  std::string help() const;

 private:
  enum class Kind { flag, value, values };
  struct Option {
    std::string name, placeholder, help;
    Kind kind = Kind::value;
    Handler handler;  // flags get ""
    std::size_t group = 0;
  };
  struct Positional {
    std::string placeholder, help;
    std::string* target = nullptr;
  };

  template <class T>
  static std::string join_choice_names(const Choices<T>& choices) {
    std::string out;
    for (const auto& [name, value] : choices) out += (out.empty() ? "" : "|") + name;
    return out;
  }

  OptionParser& add(Option option);
  const Option* find(std::string_view name) const;
  int take(const Option& option, std::optional<std::string_view> inline_value, int at, int argc,
           const char* const* argv) const;
  void assign_positionals(const std::vector<std::string_view>& arguments) const;
  void append_option_help(std::string& out, const Option& option) const;

  std::string program_, usage_, about_, epilog_;
  std::vector<std::string> groups_{std::string("options")};
  std::vector<Option> options_;
  std::vector<Positional> positionals_;
};

/// What main does with an OptionError (or another error in its input): prints "program: message" on stderr
/// and returns exit_bad_options.
int report_bad_options(std::string_view program, const std::exception& error);

/// What main does with any other error: prints "program: message" on stderr and returns 1.
int report_failure(std::string_view program, const std::exception& error);

/// "program: message" on stderr, the message as one printable line (util/text.hpp printable_line).
void print_error_line(std::string_view program, std::string_view message);

/// A whole main: `parse()` gives the options (std::optional, none after --help: exit 0), `run(options)` the
/// exit status. An OptionError is one line and exit code 2; any other exception one line and exit code 1.
template <class Parse, class Run>
int run_with_options(std::string_view program, Parse&& parse, Run&& run) {
  try {
    auto options = std::forward<Parse>(parse)();
    if (!options) return 0;
    return std::forward<Run>(run)(std::move(*options));
  } catch (const OptionError& e) {
    return report_bad_options(program, e);
  } catch (const std::exception& e) {
    return report_failure(program, e);
  }
}

}  // namespace proofline
