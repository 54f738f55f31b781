// Job ids as a person reads and types them: "5..9,12" for 5, 6, 7, 8, 9 and 12. submit prints the ids it
// queued this way and `wait --ids` reads them back (ids of one submission need not be consecutive: another
// submission may insert between its rows).
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace proofline::fleet::detail {

/// Consecutive runs of the ids (in the order given) as FIRST..LAST, others alone, joined by commas.
std::string format_id_ranges(std::span<const std::int64_t> ids);

/// The ids of "ID" and "FIRST..LAST" items joined by commas, in order. Throws Error(invalid_argument) naming
/// the item for anything else: not a positive decimal id, a range backwards or of more than a million ids.
std::vector<std::int64_t> parse_id_ranges(std::string_view text);

}  // namespace proofline::fleet::detail
