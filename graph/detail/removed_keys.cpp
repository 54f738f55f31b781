#include <proofline/graph/detail/removed_keys.hpp>

#include <utility>

namespace proofline::graph::detail {

void RemovedKeyNames::add(std::uint64_t id, std::string name) noexcept {
  if (capacity_ == 0) return;
  while (order_.size() >= capacity_) {
    names_.erase(order_.front());
    order_.pop_front();
  }
  bool queued = false;
  try {
    order_.push_back(id);
    queued = true;
    if (!names_.emplace(id, std::move(name)).second) order_.pop_back();  // known already (ids are unique)
  } catch (...) {
    // Out of memory: this key's handle will be refused as never registered; order_ holds no id without a
    // name.
    if (queued) order_.pop_back();
  }
}

const std::string* RemovedKeyNames::find(std::uint64_t id) const {
  const auto it = names_.find(id);
  return it == names_.end() ? nullptr : &it->second;
}

}  // namespace proofline::graph::detail
