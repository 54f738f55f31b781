#include <doctest/doctest.h>

#include <string>
#include <vector>

#include <proofline/util/error.hpp>
#include <proofline/util/size.hpp>

using namespace proofline;

TEST_CASE("util/size/parses units") {
  CHECK(parse_size("4096") == 4096);
  CHECK(parse_size("512M") == 512 * MiB);
  CHECK(parse_size("64G") == 64 * GiB);
  CHECK(parse_size("64gib") == 64 * GiB);
  CHECK(parse_size("1.5G") == 3 * GiB / 2);
  CHECK(parse_size("2KB") == 2048);
  CHECK(parse_size("1T") == 1024 * GiB);
  CHECK(parse_size("1P") == PiB);
  CHECK(parse_size("1.K") == 1024);
  CHECK(parse_size(".5K") == 512);
}

TEST_CASE("util/size/rejects nonsense with a clear error") {
  // "." and ".G" once escaped as std::stod's invalid_argument ("stod"), and a 400-digit number as its
  // out_of_range.
  const std::string huge(400, '9');
  for (const std::string& text :
       std::vector<std::string>{"", "G", "12X", "1.2.3G", "1.5", "99999999999T", ".", ".G", "-1G", " 1G",
                                "1G ", "1GG", "0x10", huge}) {
    CAPTURE(text);
    try {
      parse_size(text);
      FAIL("accepted an invalid size");
    } catch (const Error& e) {
      CHECK(e.code() == Errc::invalid_argument);
      // Quoted as given, a long one cut at 80 bytes with its length.
      const std::string shown =
          text.size() <= 80 ? "'" + text + "'" : "'" + text.substr(0, 80) + "'... (400 bytes)";
      CHECK(std::string(e.what()).find(shown + " is not a size") == 0);
    }
  }
}

TEST_CASE("util/size/an unknown unit is quoted like the rest of the text: escaped and cut") {
  const auto message = [](const std::string& text) {
    try {
      parse_size(text);
    } catch (const Error& e) {
      return std::string(e.what());
    }
    return std::string("accepted");
  };
  CHECK(message("12X") == "'12X' is not a size: unknown unit 'X' (use K, M, G, T or P)");
  // A terminal escape in the unit once reached the message raw.
  CHECK(message("2\x1b[2J") ==
        "'2\\u001b[2J' is not a size: unknown unit '\\u001b[2J' (use K, M, G, T or P)");
  const std::string long_unit = "1" + std::string(100, 'x');
  CHECK(message(long_unit).find("unknown unit '" + std::string(20, 'x') + "'... (100 bytes) (use") !=
        std::string::npos);
}

TEST_CASE("util/size/formats for people") {
  CHECK(format_size(17) == "17 B");
  CHECK(format_size(512 * MiB) == "512.00 MiB");
  CHECK(format_size(3 * GiB / 2) == "1.50 GiB");
  CHECK(format_size(PiB) == "1.00 PiB");
}
