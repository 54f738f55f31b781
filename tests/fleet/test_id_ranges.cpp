#include <cstdint>
#include <vector>

#include <doctest/doctest.h>

#include <proofline/fleet/detail/id_ranges.hpp>
#include <proofline/util/error.hpp>

namespace proofline::fleet {

using Ids = std::vector<std::int64_t>;

TEST_CASE("fleet/ids/job ids print as ranges and read back to the same ids") {
  CHECK(detail::format_id_ranges(Ids{}).empty());
  CHECK(detail::format_id_ranges(Ids{7}) == "7");
  CHECK(detail::format_id_ranges(Ids{5, 6, 7, 8, 9, 12}) == "5..9,12");
  CHECK(detail::format_id_ranges(Ids{3, 4, 10, 2}) == "3..4,10,2");  // order kept: runs only
  for (const Ids& ids : {Ids{1}, Ids{5, 6, 7, 8, 9, 12}, Ids{3, 4, 10, 2}, Ids{9'000'000'000, 9'000'000'001}})
    CHECK(detail::parse_id_ranges(detail::format_id_ranges(ids)) == ids);
  CHECK(detail::parse_id_ranges("4..4") == Ids{4});
}

TEST_CASE("fleet/ids/what is not an id or a range is refused naming it") {
  for (const char* text : {"", "0", "-3", "x", "5..", "..5", "5..x", "9..5", "1..2000000", "5,,6", "5 ",
                           "1.5", "99999999999999999999"}) {
    CAPTURE(text);
    CHECK_THROWS_AS(detail::parse_id_ranges(text), Error);
  }
  try {
    detail::parse_id_ranges("5,7..x");
    FAIL("accepted");
  } catch (const Error& e) {
    CHECK(std::string(e.what()).find("'7..x'") != std::string::npos);
  }
}

}  // namespace proofline::fleet
