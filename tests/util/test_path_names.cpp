// Names from a file's path (util/path_names.hpp): the stem first, then with more and more of its folders, the
// whole path last, so that two files always have some name apart.
#include <filesystem>
#include <string>
#include <vector>

#include <doctest/doctest.h>

#include <proofline/util/path_names.hpp>

namespace proofline {

TEST_CASE("util/path names/the stem, then with its folders, then the whole path") {
  CHECK(names_from_path("/keys/a/circuit_final.zkey") ==
        std::vector<std::string>{"circuit_final", "a/circuit_final", "keys/a/circuit_final",
                                 "/keys/a/circuit_final.zkey"});
  CHECK(names_from_path("/keys/./b/../a/k.zkey") ==
        std::vector<std::string>{"k", "a/k", "keys/a/k", "/keys/a/k.zkey"});
  // A relative path is taken from the current folder.
  const std::vector<std::string> relative = names_from_path("k.zkey");
  CHECK(relative.front() == "k");
  CHECK(relative.back() == (std::filesystem::current_path() / "k.zkey").lexically_normal().string());
}

}  // namespace proofline
