// The names of a pipeline's keys. The pipeline needs each key's name to be its own (it appears in logs,
// traces and errors); a caller that names no key gets one from the file: its stem ("circuit_final"), or,
// where a key holds that already (snarkjs names every final key circuit_final.zkey), the stem with as many of
// the file's folders as tell it apart ("alice/circuit_final"). A name the caller gives is taken as given or
// refused.
#pragma once

#include <cstdint>
#include <filesystem>
#include <map>
#include <mutex>
#include <string>
#include <vector>

#include <proofline/util/path_names.hpp>

namespace proofline::capi {

/// The names a key read from `file` may take, in order (util/path_names.hpp).
using proofline::names_from_path;

/// The names held by a pipeline's registered keys (and those being registered), each with the file whose
/// path gave it (none for a name the caller gave, or "key-N").
class KeyNames {
 public:
  /// `name`, held from now on; PL_ERR_INVALID_ARGUMENT where a key holds it.
  std::string claim(const std::string& name);
  /// The first of names_from_path(file) no key holds, held from now on. PL_ERR_INVALID_ARGUMENT where a key
  /// of the same file holds one of the names before it: an unnamed key of that file is registered already,
  /// and no name would tell the two apart.
  std::string claim_from_path(const std::string& file);
  /// "key-N", for a key of neither name nor file: the next N whose name no key holds.
  std::string claim_numbered();
  /// Frees `name` for the keys registered after (its key was unregistered, or never was).
  void release(const std::string& name);

 private:
  std::mutex mutex_;
  std::map<std::string, std::string> held_;  // name -> the absolute path that gave it, or ""
  std::uint64_t numbered_ = 0;
};

}  // namespace proofline::capi
