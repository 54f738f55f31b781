// Names for things read from files (a key from its .zkey): the file's stem, or, where that is taken (snarkjs
// names every final key circuit_final.zkey), the stem with as many of the file's folders as tell it apart.
// The C ABI names the keys it loads this way, and `proofline serve` the keys it serves.
#pragma once

#include <filesystem>
#include <string>
#include <vector>

namespace proofline {

/// The names a thing read from `file` may take, in order: the stem, then the stem under one folder, two, ...,
/// of its absolute path, and last that whole path ("/keys/a/circuit_final.zkey": "circuit_final",
/// "a/circuit_final", "keys/a/circuit_final", "/keys/a/circuit_final.zkey"). Distinct files have distinct
/// last names.
std::vector<std::string> names_from_path(const std::filesystem::path& file);

}  // namespace proofline
