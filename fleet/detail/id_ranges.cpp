#include <proofline/fleet/detail/id_ranges.hpp>

#include <charconv>

#include <proofline/util/error.hpp>
#include <proofline/util/text.hpp>

namespace proofline::fleet::detail {

namespace {

/// More ids than this in one range is a typo, not a submission.
constexpr std::int64_t max_range_size = 1'000'000;

std::int64_t parse_id(std::string_view text, std::string_view item) {
  std::int64_t id = 0;
  const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), id);
  if (text.empty() || error != std::errc() || end != text.data() + text.size() || id <= 0)
    throw Error(Errc::invalid_argument, "expected a job id (a positive number) or FIRST..LAST, got " +
                                            quote_for_message(item, 80, '\''));
  return id;
}

}  // namespace

std::string format_id_ranges(std::span<const std::int64_t> ids) {
  std::string out;
  for (std::size_t first = 0; first < ids.size();) {
    std::size_t last = first;
    while (last + 1 < ids.size() && ids[last + 1] == ids[last] + 1) ++last;
    if (!out.empty()) out += ',';
    out += std::to_string(ids[first]);
    if (last > first) out += ".." + std::to_string(ids[last]);
    first = last + 1;
  }
  return out;
}

std::vector<std::int64_t> parse_id_ranges(std::string_view text) {
  std::vector<std::int64_t> ids;
  while (true) {
    const std::size_t comma = text.find(',');
    const std::string_view item = text.substr(0, comma);
    const std::size_t dots = item.find("..");
    if (dots == std::string_view::npos) {
      ids.push_back(parse_id(item, item));
    } else {
      const std::int64_t first = parse_id(item.substr(0, dots), item);
      const std::int64_t last = parse_id(item.substr(dots + 2), item);
      if (last < first || last - first >= max_range_size)
        throw Error(Errc::invalid_argument, "the range " + quote_for_message(item, 80, '\'') +
                                                " is backwards or holds more than a million ids");
      for (std::int64_t id = first; id <= last; ++id) ids.push_back(id);
    }
    if (comma == std::string_view::npos) return ids;
    text.remove_prefix(comma + 1);
  }
}

}  // namespace proofline::fleet::detail
