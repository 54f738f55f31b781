// Handles as ids: every object a C caller holds is in a registry under an id that is never reused, and the
// opaque pointer the caller sees is that id. A NULL, foreign, wrong-type or released handle is therefore
// not found (PL_ERR_INVALID_HANDLE) instead of being dereferenced, in every build, and a call that found an
// object holds a shared_ptr to it, so a concurrent release cannot free it under the call.
#pragma once

#include <atomic>
#include <cstdint>
#include <memory>
#include <mutex>
#include <string>
#include <unordered_map>
#include <utility>

#include <proofline/capi/detail/boundary.hpp>

namespace proofline::capi {

/// Ids shared by every registry, so a handle of one type is never a valid handle of another.
std::uint64_t next_handle_id() noexcept;

template <class Object>
class Registry {
 public:
  /// The process-wide registry of one type. Never destroyed: handles a program did not release at exit
  /// stay alive instead of being torn down after the threading runtime.
  static Registry& instance() {
    static Registry* registry = new Registry;
    return *registry;
  }

  std::uint64_t add(std::shared_ptr<Object> object) {
    const std::uint64_t id = next_handle_id();
    std::lock_guard lock(mutex_);
    objects_.emplace(id, std::move(object));
    return id;
  }

  std::shared_ptr<Object> find(std::uint64_t id) const {
    std::lock_guard lock(mutex_);
    const auto it = objects_.find(id);
    return it == objects_.end() ? nullptr : it->second;
  }

  /// Removes the entry and returns its object (null when there was none).
  std::shared_ptr<Object> take(std::uint64_t id) {
    std::lock_guard lock(mutex_);
    const auto it = objects_.find(id);
    if (it == objects_.end()) return nullptr;
    std::shared_ptr<Object> object = std::move(it->second);
    objects_.erase(it);
    return object;
  }

 private:
  Registry() = default;
  mutable std::mutex mutex_;
  std::unordered_map<std::uint64_t, std::shared_ptr<Object>> objects_;
};

template <class Handle>
std::uint64_t id_of(const Handle* handle) noexcept {
  return static_cast<std::uint64_t>(reinterpret_cast<std::uintptr_t>(handle));
}

template <class Handle>
Handle* handle_of(std::uint64_t id) noexcept {
  return reinterpret_cast<Handle*>(static_cast<std::uintptr_t>(id));
}

/// The object behind `handle`, or PL_ERR_INVALID_HANDLE naming the argument.
template <class Object, class Handle>
std::shared_ptr<Object> lookup(const Handle* handle, const char* argument) {
  std::shared_ptr<Object> object =
      handle == nullptr ? nullptr : Registry<Object>::instance().find(id_of(handle));
  if (!object)
    throw_status(PL_ERR_INVALID_HANDLE,
                 std::string(argument) + (handle == nullptr ? " is NULL"
                                                            : " is not a live handle "
                                                              "(released, or never "
                                                              "returned by proofline)"));
  return object;
}

/// Removes `handle` from its registry and returns its object, or PL_ERR_INVALID_HANDLE.
template <class Object, class Handle>
std::shared_ptr<Object> take(const Handle* handle, const char* argument) {
  std::shared_ptr<Object> object =
      handle == nullptr ? nullptr : Registry<Object>::instance().take(id_of(handle));
  if (!object)
    throw_status(
        PL_ERR_INVALID_HANDLE,
        std::string(argument) + (handle == nullptr ? " is NULL" : " is not a live handle (released twice?)"));
  return object;
}

}  // namespace proofline::capi
