// Internal: the names of the keys removed most recently, by id, so that a call racing a key's removal is told
// that the key was removed (naming it) rather than that its handle is unknown. A long-running service that
// adds and removes keys for ever keeps only the last `capacity` of them: an older removed key's handle is
// then refused as never registered.
#pragma once

#include <cstddef>
#include <cstdint>
#include <deque>
#include <string>
#include <unordered_map>

namespace proofline::graph::detail {

class RemovedKeyNames {
 public:
  explicit RemovedKeyNames(std::size_t capacity) : capacity_(capacity) {}

  /// Remembers `name` for the key `id` just removed (ids are never reused), forgetting the oldest removed
  /// key's name when `capacity` are held already. Out of memory, the name is not remembered.
  void add(std::uint64_t id, std::string name) noexcept;
  /// The name of the removed key `id`, or nullptr when it was never removed or has been forgotten since.
  const std::string* find(std::uint64_t id) const;
  std::size_t size() const noexcept { return names_.size(); }
  std::size_t capacity() const noexcept { return capacity_; }

 private:
  std::size_t capacity_;
  std::unordered_map<std::uint64_t, std::string> names_;
  std::deque<std::uint64_t> order_;  ///< the ids in names_, oldest removal first
};

}  // namespace proofline::graph::detail
