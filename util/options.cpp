#include <proofline/util/options.hpp>

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <thread>

#include <proofline/util/atomic_file.hpp>
#include <proofline/util/text.hpp>

namespace proofline {

namespace {

constexpr std::size_t help_indent = 26;  // where help text starts, after "  --name PLACEHOLDER"
constexpr std::size_t help_width = 110;

std::string in_quotes(std::string_view text) {
  return quote_for_message(text, 80, '\'');
}

std::string with_why(std::string message, const std::string& why) {
  if (!why.empty()) message += " (" + why + ")";
  return message;
}

template <class T>
[[noreturn]] void throw_outside(std::string_view option, std::string_view text, const Bounds<T>& bounds) {
  // `text` parsed as a number, so it is digits and signs: shown as given.
  throw OptionError(with_why(std::string(option) + ": " + std::string(text) + " is outside " +
                                 std::to_string(bounds.min) + ".." + std::to_string(bounds.max),
                             bounds.why));
}

[[noreturn]] void throw_not_a_number(std::string_view option, std::string_view text) {
  throw OptionError(std::string(option) + ": " + in_quotes(text) + " is not a number");
}

/// A number in C's %g form without trailing zeros: 0.5, 1000, 1e+12.
std::string short_number(double value) {
  char buffer[32];
  std::snprintf(buffer, sizeof buffer, "%g", value);
  return buffer;
}

bool looks_like_option(std::string_view arg) {
  return arg.size() > 2 && arg.starts_with("--");
}

/// Appends `text` word-wrapped to help_width, starting at `column`, continuation lines indented by `indent`.
void append_wrapped(std::string& out, std::string_view text, std::size_t column, std::size_t indent) {
  std::size_t at = 0;
  bool first = true;
  while (at < text.size()) {
    const std::size_t end = std::min(text.find(' ', at), text.size());
    const std::string_view word = text.substr(at, end - at);
    if (!first && column + 1 + word.size() > help_width) {
      out += '\n';
      out.append(indent, ' ');
      column = indent;
    } else if (!first) {
      out += ' ';
      ++column;
    }
    out += word;
    column += word.size();
    first = false;
    at = end + 1;
  }
}

/// Appends `text` wrapped from the left margin, each of its lines a paragraph of its own, and a newline.
void append_paragraphs(std::string& out, std::string_view text) {
  std::size_t at = 0;
  while (at <= text.size()) {
    const std::size_t end = std::min(text.find('\n', at), text.size());
    append_wrapped(out, text.substr(at, end - at), 0, 0);
    out += '\n';
    at = end + 1;
  }
}

}  // namespace

Bounds<std::uint64_t> thread_bounds(std::uint64_t min) {
  const std::uint64_t hardware = std::max(1u, std::thread::hardware_concurrency());
  return {min, std::max(min, 4 * hardware),
          "at most 4x the " + std::to_string(hardware) + " hardware thread" + (hardware == 1 ? "" : "s")};
}

namespace {

/// An integer of type T in [bounds.min, bounds.max], the whole of `text`.
template <class T>
T parse_whole_integer(std::string_view option, std::string_view text, const Bounds<T>& bounds) {
  T value = 0;
  const auto [end, status] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (text.empty() || end != text.data() + text.size() ||
      (status != std::errc() && status != std::errc::result_out_of_range))
    throw_not_a_number(option, text);
  if (status == std::errc::result_out_of_range || value < bounds.min || value > bounds.max)
    throw_outside(option, text, bounds);
  return value;
}

}  // namespace

std::uint64_t parse_unsigned_option(std::string_view option, std::string_view text,
                                    const Bounds<std::uint64_t>& bounds) {
  return parse_whole_integer(option, text, bounds);
}

std::chrono::milliseconds parse_duration_option(std::string_view option, std::string_view text,
                                                std::chrono::milliseconds unit,
                                                const Bounds<std::uint64_t>& bounds) {
  std::string_view number = text;
  if (text.ends_with("ms")) {
    number.remove_suffix(2);
    unit = std::chrono::milliseconds(1);
  } else if (text.ends_with("s")) {
    number.remove_suffix(1);
    unit = std::chrono::seconds(1);
  }
  const auto per_unit = static_cast<std::uint64_t>(unit.count());
  // Bounded in the unit given, so that the product cannot overflow, then named in milliseconds.
  const std::uint64_t count =
      parse_whole_integer(option, number, Bounds<std::uint64_t>{0, bounds.max / per_unit, bounds.why});
  const std::uint64_t ms = count * per_unit;
  if (ms < bounds.min)
    throw OptionError(with_why(std::string(option) + ": " + std::string(text) + " is outside " +
                                   std::to_string(bounds.min) + ".." + std::to_string(bounds.max) + " ms",
                               bounds.why));
  return std::chrono::milliseconds(ms);
}

std::int64_t parse_signed_option(std::string_view option, std::string_view text,
                                 const Bounds<std::int64_t>& bounds) {
  return parse_whole_integer(option, text, bounds);
}

double parse_real_option(std::string_view option, std::string_view text, const Bounds<double>& bounds) {
  double value = 0;
  const auto [end, status] =
      std::from_chars(text.data(), text.data() + text.size(), value, std::chars_format::general);
  if (text.empty() || end != text.data() + text.size() || status == std::errc::invalid_argument ||
      std::isnan(value))
    throw_not_a_number(option, text);
  if (status == std::errc::result_out_of_range || !(value >= bounds.min && value <= bounds.max))
    throw OptionError(with_why(std::string(option) + ": " + std::string(text) + " is outside " +
                                   short_number(bounds.min) + ".." + short_number(bounds.max),
                               bounds.why));
  return value;
}

std::uint64_t parse_size_option(std::string_view option, std::string_view text,
                                const Bounds<std::uint64_t>& bounds) {
  std::uint64_t bytes = 0;
  try {
    bytes = parse_size(text);
  } catch (const Error& e) {
    throw OptionError(std::string(option) + ": " + e.what());
  }
  if (bytes > bounds.max)
    throw OptionError(with_why(std::string(option) + ": " + std::string(text) + " is absurd (more than " +
                                   format_size(bounds.max) + ")",
                               bounds.why));
  if (bytes < bounds.min)
    throw OptionError(
        with_why(std::string(option) + ": " + std::string(text) + " is less than " + format_size(bounds.min),
                 bounds.why));
  return bytes;
}

std::vector<std::string_view> split_option_list(std::string_view option, std::string_view text) {
  if (text.empty()) throw OptionError(std::string(option) + ": an empty list");
  std::vector<std::string_view> items;
  std::size_t start = 0;
  while (start <= text.size()) {
    const std::size_t comma = std::min(text.find(',', start), text.size());
    if (comma == start) throw OptionError(std::string(option) + ": an empty item in " + in_quotes(text));
    items.push_back(text.substr(start, comma - start));
    start = comma + 1;
  }
  return items;
}

void throw_bad_choice(std::string_view option, std::string_view text,
                      const std::vector<std::string_view>& names) {
  std::string expected;
  for (std::size_t i = 0; i < names.size(); ++i) {
    if (i > 0) expected += i + 1 == names.size() ? " or " : ", ";
    expected += names[i];
  }
  throw OptionError(std::string(option) + ": expected " + expected + ", got " + in_quotes(text));
}

// ---- OptionParser
// -------------------------------------------------------------------------------------------

OptionParser::OptionParser(std::string program, std::string usage, std::string about)
    : program_(std::move(program)), usage_(std::move(usage)), about_(std::move(about)) {}

OptionParser& OptionParser::group(std::string title) {
  groups_.push_back(std::move(title));
  return *this;
}

OptionParser& OptionParser::epilog(std::string text) {
  epilog_ = std::move(text);
  return *this;
}

OptionParser& OptionParser::add(Option option) {
  if (!looks_like_option(option.name) || find(option.name) != nullptr || option.name == "--help")
    throw Error(Errc::internal,
                program_ + ": option " + in_quotes(option.name) + " registered twice or misnamed");
  option.group = groups_.size() - 1;
  options_.push_back(std::move(option));
  return *this;
}

OptionParser& OptionParser::value(std::string name, std::string placeholder, std::string help,
                                  Handler handler) {
  return add(
      Option{std::move(name), std::move(placeholder), std::move(help), Kind::value, std::move(handler)});
}

OptionParser& OptionParser::values(std::string name, std::string placeholder, std::string help,
                                   Handler handler) {
  return add(
      Option{std::move(name), std::move(placeholder), std::move(help), Kind::values, std::move(handler)});
}

OptionParser& OptionParser::flag(std::string name, std::string help, std::function<void()> action) {
  return add(Option{
      std::move(name), {}, std::move(help), Kind::flag, [action = std::move(action)](std::string_view) {
        action();
      }});
}

OptionParser& OptionParser::flag(std::string name, std::string help, bool& target) {
  return flag(std::move(name), std::move(help), [&target] { target = true; });
}

OptionParser& OptionParser::positional(std::string placeholder, std::string help, std::string& target) {
  positionals_.push_back(Positional{std::move(placeholder), std::move(help), &target});
  return *this;
}

OptionParser& OptionParser::text(std::string name, std::string placeholder, std::string help,
                                 std::string& target) {
  return value(std::move(name), std::move(placeholder), std::move(help),
               [&target](std::string_view text) { target = std::string(text); });
}

namespace {

/// A path option's value: an empty one names no file (a shell variable left unset, most likely).
std::filesystem::path path_value(std::string_view text) {
  if (text.empty()) throw Error(Errc::invalid_argument, "the path is empty");
  return std::filesystem::path(text);
}

}  // namespace

OptionParser& OptionParser::path(std::string name, std::string placeholder, std::string help,
                                 std::optional<std::filesystem::path>& target) {
  return value(std::move(name), std::move(placeholder), std::move(help),
               [&target](std::string_view text) { target = path_value(text); });
}

OptionParser& OptionParser::path_once(std::string name, std::string placeholder, std::string help,
                                      std::optional<std::filesystem::path>& target, std::string why) {
  return value(std::move(name), std::move(placeholder), std::move(help),
               [&target, why = std::move(why)](std::string_view text) {
                 if (target)
                   throw Error(Errc::invalid_argument,
                               "given twice (" + target->string() + ", " + std::string(text) + "): " + why);
                 target = path_value(text);
               });
}

OptionParser& OptionParser::size(std::string name, std::string placeholder, std::string help,
                                 std::uint64_t& target, Bounds<std::uint64_t> bounds) {
  const std::string option = name;
  return value(std::move(name), std::move(placeholder), std::move(help),
               [option, &target, bounds = std::move(bounds)](std::string_view text) {
                 target = parse_size_option(option, text, bounds);
               });
}

OptionParser& OptionParser::real(std::string name, std::string placeholder, std::string help, double& target,
                                 Bounds<double> bounds) {
  const std::string option = name;
  return value(std::move(name), std::move(placeholder), std::move(help),
               [option, &target, bounds = std::move(bounds)](std::string_view text) {
                 target = parse_real_option(option, text, bounds);
               });
}

OptionParser& OptionParser::text_list(std::string name, std::string placeholder, std::string help,
                                      std::vector<std::string>& target) {
  const std::string option = name;
  return value(std::move(name), std::move(placeholder), std::move(help),
               [option, &target](std::string_view text) {
                 std::vector<std::string> items;
                 for (const std::string_view item : split_option_list(option, text)) items.emplace_back(item);
                 target = std::move(items);
               });
}

const OptionParser::Option* OptionParser::find(std::string_view name) const {
  for (const Option& option : options_)
    if (option.name == name) return &option;
  return nullptr;
}

bool OptionParser::parse(int argc, const char* const* argv, std::FILE* help_out) {
  std::vector<std::string_view> arguments;
  bool options_ended = false;
  for (int i = 1; i < argc; ++i) {
    const std::string_view arg = argv[i];
    if (options_ended || !arg.starts_with("-") || arg == "-") {
      arguments.push_back(arg);
    } else if (arg == "--") {
      options_ended = true;
    } else if (arg == "--help" || arg == "-h") {
      std::fputs(help().c_str(), help_out);
      return false;
    } else {
      const std::size_t eq = arg.find('=');
      const std::string_view name = arg.substr(0, eq);
      const Option* option = find(name);
      if (option == nullptr) throw OptionError("unknown option " + in_quotes(name) + " (see --help)");
      std::optional<std::string_view> inline_value;
      if (eq != std::string_view::npos) inline_value = arg.substr(eq + 1);
      i = take(*option, inline_value, i, argc, argv);
    }
  }
  assign_positionals(arguments);
  return true;
}

/// Runs `option`'s handler on its value(s) at argv[at] onwards; returns the index of the last argument used.
int OptionParser::take(const Option& option, std::optional<std::string_view> inline_value, int at, int argc,
                       const char* const* argv) const {
  std::vector<std::string_view> values;
  if (option.kind == Kind::flag) {
    if (inline_value) throw OptionError(option.name + " takes no value");
    values.emplace_back();
  } else if (inline_value) {
    values.push_back(*inline_value);
  } else if (at + 1 < argc && !looks_like_option(argv[at + 1])) {
    values.emplace_back(argv[++at]);
  }
  if (option.kind == Kind::values)
    while (at + 1 < argc && !looks_like_option(argv[at + 1])) values.emplace_back(argv[++at]);
  if (values.empty()) throw OptionError(option.name + " needs a value");
  for (const std::string_view value : values) {
    try {
      option.handler(value);
    } catch (const OptionError&) {
      throw;
    } catch (const std::exception& e) {
      throw OptionError(option.name + ": " + e.what());
    }
  }
  return at;
}

void OptionParser::assign_positionals(const std::vector<std::string_view>& arguments) const {
  if (positionals_.empty() && !arguments.empty())
    throw OptionError("unexpected argument " + in_quotes(arguments.front()) + " (see --help)");
  if (arguments.size() != positionals_.size()) {
    std::string names;
    for (const Positional& p : positionals_) names += (names.empty() ? "" : " ") + p.placeholder;
    throw OptionError("expected " + std::to_string(positionals_.size()) + " argument" +
                      (positionals_.size() == 1 ? "" : "s") + " (" + names + "), got " +
                      std::to_string(arguments.size()));
  }
  // Every positional names a file: an empty one is a script's unset variable, never "no file".
  for (std::size_t i = 0; i < arguments.size(); ++i) {
    if (arguments[i].empty()) throw OptionError(positionals_[i].placeholder + " is empty (a path is needed)");
    *positionals_[i].target = std::string(arguments[i]);
  }
}

void OptionParser::append_option_help(std::string& out, const Option& option) const {
  std::string spec = "  " + option.name;
  if (!option.placeholder.empty()) spec += " " + option.placeholder;
  out += spec;
  if (spec.size() + 2 > help_indent) {
    out += '\n';
    out.append(help_indent, ' ');
  } else {
    out += std::string(help_indent - spec.size(), ' ');
  }
  append_wrapped(out, option.help, help_indent, help_indent);
  out += '\n';
}

std::string OptionParser::help() const {
  std::string out = usage_ + "\n";
  if (!about_.empty()) {
    out += "\n";
    append_paragraphs(out, about_);
  }
  if (!positionals_.empty()) {
    out += "\narguments\n";
    for (const Positional& p : positionals_)
      append_option_help(out, Option{p.placeholder, {}, p.help, Kind::value, {}, 0});
  }
  out += "\n";
  for (std::size_t group = 0; group < groups_.size(); ++group) {
    const bool any = std::any_of(options_.begin(), options_.end(),
                                 [group](const Option& option) { return option.group == group; });
    if (!any) continue;
    if (!groups_[group].empty()) out += groups_[group] + "\n";
    for (const Option& option : options_)
      if (option.group == group) append_option_help(out, option);
  }
  out += "\n";
  append_option_help(out, Option{"--help", {}, "this text", Kind::flag, {}, 0});
  if (!epilog_.empty()) {
    out += "\n";
    append_paragraphs(out, epilog_);
  }
  return out;
}

int report_bad_options(std::string_view program, const std::exception& error) {
  print_error_line(program, error.what());
  return exit_bad_options;
}

int report_failure(std::string_view program, const std::exception& error) {
  print_error_line(program, error.what());
  return 1;
}

void print_error_line(std::string_view program, std::string_view message) {
  // Messages carry paths and values from the user: whatever they hold, the line stays one printable line.
  const std::string line = printable_line(message);
  std::fprintf(stderr, "%.*s: %s\n", static_cast<int>(program.size()), program.data(), line.c_str());
}

void check_output_file_option(std::string_view option, const std::filesystem::path& path) {
  namespace fs = std::filesystem;
  const std::string name = std::string(option) + " " + quote_for_message(path.string(), 120, '\'');
  const fs::path folder = path.has_parent_path() ? path.parent_path() : fs::path(".");
  std::error_code error;
  if (!fs::is_directory(folder, error))
    throw OptionError(name + ": there is no folder " + quote_for_message(folder.string(), 120, '\''));
  if (fs::is_directory(path, error)) throw OptionError(name + ": a folder is there");
  if (const std::optional<std::string> problem = output_path_problem(path))
    throw OptionError(name + ": " + *problem);
}

}  // namespace proofline
