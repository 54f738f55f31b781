// Witness callbacks: the caller's fill function writes into the job's pinned slot through pl_witness_write,
// which checks the bounds (graph::CheckedSpan's extent) and the values before anything is written, and
// records what was written: a callback that returns PL_OK having left part of a vector unwritten fails its
// job, since the reused slot holds another job's values there. It also records the first write it refused:
// a callback that returns PL_OK after one fails its job with that refusal's message (the write it meant to
// make did not happen, and whatever it did instead is not what it meant), as graph's synthesis fails a C++
// callback that returns normally after one of its CheckedSpan writes was refused.
#include <proofline/capi/detail/witness_target.hpp>

#include <array>
#include <exception>
#include <iterator>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <type_traits>
#include <unordered_map>
#include <utility>

#include <proofline/capi/detail/boundary.hpp>
#include <proofline/capi/detail/registry.hpp>
#include <proofline/capi/detail/scalars.hpp>

namespace proofline::capi {

namespace {

/// The ranges of one vector written so far, merged: [begin, end) by begin. Callbacks write in order or in
/// large pieces, so the map stays small.
class Written {
 public:
  void add(std::size_t begin, std::size_t end) {
    auto next = runs_.upper_bound(begin);
    if (next != runs_.begin()) {
      const auto previous = std::prev(next);
      if (previous->second >= begin) {
        begin = previous->first;
        end = std::max(end, previous->second);
        next = runs_.erase(previous);
      }
    }
    while (next != runs_.end() && next->first <= end) {
      end = std::max(end, next->second);
      next = runs_.erase(next);
    }
    runs_.emplace_hint(next, begin, end);
  }
  /// The first range of [0, size) not written, if any.
  std::optional<std::pair<std::size_t, std::size_t>> first_gap(std::size_t size) const {
    std::size_t covered = 0;
    for (const auto& [begin, end] : runs_) {
      if (begin > covered) return std::pair{covered, begin};
      covered = std::max(covered, end);
    }
    if (covered < size) return std::pair{covered, size};
    return std::nullopt;
  }

 private:
  std::map<std::size_t, std::size_t> runs_;
};

struct Target {
  std::uint64_t id = next_handle_id();  ///< what the caller is given: never reused, never dereferenced
  const graph::WitnessTarget* target = nullptr;
  bool fills_abc = false;
  std::mutex failure_mutex;
  std::string failure;              ///< pl_witness_fail's message
  bool failed = false;              ///< pl_witness_fail was called
  nodes::WitnessRefusals refusals;  ///< pl_witness_write calls refused; the first's status and message
  std::mutex written_mutex;
  std::array<Written, 4> written;  ///< by pl_vector
};

/// The targets of the callbacks running now, by the id their callers were given as the pointer. A write from
/// the callback's own thread finds its target without a lock; one from another thread (a callback that
/// fills in parallel) looks it up here, and holds it for the call.
class LiveTargets {
 public:
  static LiveTargets& instance() {
    static LiveTargets* live = new LiveTargets;  // never destroyed: callbacks may run during exit
    return *live;
  }
  void add(const std::shared_ptr<Target>& target) {
    std::lock_guard lock(mutex_);
    targets_.emplace(target->id, target);
  }
  void remove(const Target& target) {
    std::lock_guard lock(mutex_);
    targets_.erase(target.id);
  }
  std::shared_ptr<Target> find(std::uint64_t id) const {
    std::lock_guard lock(mutex_);
    const auto it = targets_.find(id);
    return it == targets_.end() ? nullptr : it->second;
  }

 private:
  mutable std::mutex mutex_;
  std::unordered_map<std::uint64_t, std::shared_ptr<Target>> targets_;
};

/// The target of the witness callback running on this thread.
thread_local Target* current_target = nullptr;

/// Keeps the target found for one call alive (only a lookup from another thread needs it).
struct FoundTarget {
  Target* target = nullptr;
  std::shared_ptr<Target> held;
};

FoundTarget target_of(const pl_witness_target* handle) {
  const std::uint64_t id = id_of(handle);
  if (handle != nullptr && current_target != nullptr && id == current_target->id) return {current_target, {}};
  std::shared_ptr<Target> found = handle == nullptr ? nullptr : LiveTargets::instance().find(id);
  if (!found)
    throw_status(PL_ERR_INVALID_HANDLE,
                 "target is not the one a running witness callback was given (it is valid only during "
                 "the callback)");
  Target* target = found.get();
  return {target, std::move(found)};
}

/// The slot's vectors in the field of F: BLS12-381's views or BN254's (only the key's curve's are set).
template <class F>
const graph::CheckedSpan<F>& view(const graph::WitnessTarget& t, std::int32_t vector) {
  if constexpr (std::is_same_v<F, Fr>)
    return vector == PL_VECTOR_Z ? t.z : vector == PL_VECTOR_A ? t.a : vector == PL_VECTOR_B ? t.b : t.c;
  else
    return vector == PL_VECTOR_Z   ? t.bn254_z
           : vector == PL_VECTOR_A ? t.bn254_a
           : vector == PL_VECTOR_B ? t.bn254_b
                                   : t.bn254_c;
}

/// Refuses what a callback may not write: an unknown vector, or a, b, c when the pipeline evaluates them.
void check_vector(const Target& t, std::int32_t vector) {
  if (vector < PL_VECTOR_Z || vector > PL_VECTOR_C)
    throw_status(PL_ERR_INVALID_ARGUMENT, "vector = " + std::to_string(vector) + " is not a pl_vector");
  if (vector != PL_VECTOR_Z && !t.fills_abc)
    throw_status(PL_ERR_INVALID_ARGUMENT,
                 "this job's callback fills z only (PL_FILLS_WITNESS): the pipeline evaluates a, b and c");
}

std::size_t vector_size(const Target& t, std::int32_t vector) {
  if (t.target->curve == CurveId::bn254) return view<bn254::Fr>(*t.target, vector).size();
  return view<Fr>(*t.target, vector).size();
}

const char* vector_name(std::int32_t vector) {
  return vector == PL_VECTOR_Z ? "z" : vector == PL_VECTOR_A ? "a" : vector == PL_VECTOR_B ? "b" : "c";
}

/// A callback that returned PL_OK must have written every entry of the vectors it fills.
void check_all_written(Target& t) {
  std::lock_guard lock(t.written_mutex);
  for (std::int32_t vector = PL_VECTOR_Z; vector <= (t.fills_abc ? PL_VECTOR_C : PL_VECTOR_Z); ++vector)
    if (const auto gap = t.written[static_cast<std::size_t>(vector)].first_gap(vector_size(t, vector)))
      throw Error(Errc::bad_input, "the witness callback returned PL_OK but did not write " +
                                       std::string(vector_name(vector)) + "[" + std::to_string(gap->first) +
                                       ", " + std::to_string(gap->second) + ") (of " +
                                       std::to_string(vector_size(t, vector)) + " values)");
}

/// Checks and writes `count` scalars to vector[offset, offset + count) of `t`, and records the range written.
void write_scalars(Target& t, std::int32_t vector, std::size_t offset, const std::uint8_t* scalars,
                   std::size_t count) {
  check_vector(t, vector);
  if (count == 0) return;
  require(scalars, "scalars");
  const std::size_t size = vector_size(t, vector);
  if (offset > size || count > size - offset)
    throw_status(PL_ERR_INVALID_ARGUMENT, std::string(vector_name(vector)) + "[" + std::to_string(offset) +
                                              ", " + std::to_string(offset) + " + " + std::to_string(count) +
                                              ") is out of range (size " + std::to_string(size) + ")");
  const auto write = [&]<class F>(const graph::CheckedSpan<F>& span) {
    const std::size_t bad = first_non_canonical<F>(scalars, count);
    if (bad != count)
      throw_status(PL_ERR_BAD_INPUT, "scalar " + std::to_string(bad) + " (" + vector_name(vector) + "[" +
                                         std::to_string(offset + bad) + "]) " +
                                         not_below_r(curve_of_scalar<F>()));
    scalars_to_fr(scalars, span.unchecked().subspan(offset, count));
  };
  if (t.target->curve == CurveId::bn254)
    write(view<bn254::Fr>(*t.target, vector));
  else
    write(view<Fr>(*t.target, vector));
  std::lock_guard lock(t.written_mutex);
  t.written[static_cast<std::size_t>(vector)].add(offset, offset + count);
}

/// Notes a refused pl_witness_write on its target: "<its status> from <its message>", the first one's kept
/// for the job.
void note_refusal(Target& t, pl_status status, const char* message) noexcept {
  std::string noted;
  try {
    if (t.refusals.count() == 0) noted = std::string(pl_status_name(status)) + " from " + message;
  } catch (...) {
    // Out of memory: the count still fails the job, with a message of its own.
  }
  t.refusals.note(noted.c_str());
}

/// What the job says when its callback returned `status` without calling pl_witness_fail.
std::string returned_message(pl_status status) {
  if (std::string_view(pl_status_name(status)) != "PL_UNKNOWN")
    return std::string("the witness callback returned ") + pl_status_name(status);
  return "the witness callback returned " + std::to_string(static_cast<std::int32_t>(status)) +
         ", which is no pl_status";
}

/// The job's error when its callback returned `status` (not PL_OK): the message of pl_witness_fail, else
/// the status and the first refused write, if any.
Error failure_of(Target& t, pl_status status) {
  std::lock_guard lock(t.failure_mutex);
  if (t.failed && !t.failure.empty()) return Error(callback_errc(status), t.failure);
  const std::string refused = t.refusals.summary();
  if (refused.empty()) return Error(callback_errc(status), returned_message(status));
  return Error(callback_errc(status), returned_message(status) + " after " + refused);
}

/// A callback that returned PL_OK after calling pl_witness_fail, or after a write was refused, fails its job
/// all the same (PL_ERR_BAD_INPUT): what it wrote is not what it meant to write.
void check_nothing_refused(Target& t) {
  std::lock_guard lock(t.failure_mutex);
  if (t.failed)
    throw Error(Errc::bad_input, "the witness callback returned PL_OK after pl_witness_fail" +
                                     (t.failure.empty() ? std::string() : ": " + t.failure));
  if (const std::string refused = t.refusals.summary(); !refused.empty())
    throw Error(Errc::bad_input, "the witness callback returned PL_OK after " + refused);
}

}  // namespace

void run_witness_fn(pl_witness_fn fill, void* user_data, bool fills_abc, const graph::WitnessTarget& target) {
  auto view = std::make_shared<Target>();
  view->target = &target;
  view->fills_abc = fills_abc;
  LiveTargets::instance().add(view);
  pl_status status = PL_OK;
  {
    CallbackScope scope;
    Target* const outer = std::exchange(current_target, view.get());
    std::string thrown;  // what a C++ callback threw, for the job's message
    try {
      status = fill(handle_of<pl_witness_target>(view->id), user_data);
    } catch (const std::exception& e) {
      thrown = std::string("the witness callback failed: ") + e.what();
    } catch (...) {
      thrown = "the witness callback threw something that is not a std::exception";
    }
    current_target = outer;
    LiveTargets::instance().remove(*view);
    // The caller's failure, as graph's synthesis reports what a C++ API callback throws.
    if (!thrown.empty()) throw Error(Errc::bad_input, thrown);
  }
  if (status != PL_OK) throw failure_of(*view, status);
  check_nothing_refused(*view);
  check_all_written(*view);
}

}  // namespace proofline::capi

using namespace proofline;
using namespace proofline::capi;

extern "C" {

PL_API pl_status pl_witness_sizes(const pl_witness_target* target, uint64_t* z_length, uint64_t* abc_length,
                                  uint64_t* num_public) {
  return guarded("pl_witness_sizes", [&] {
    const FoundTarget found = target_of(target);
    const Target& t = *found.target;
    if (z_length != nullptr) *z_length = vector_size(t, PL_VECTOR_Z);
    if (abc_length != nullptr) *abc_length = t.fills_abc ? vector_size(t, PL_VECTOR_A) : 0;
    if (num_public != nullptr) *num_public = t.target->num_public;
    return PL_OK;
  });
}

PL_API pl_status pl_witness_write(pl_witness_target* target, int32_t vector, size_t offset,
                                  const uint8_t* scalars, size_t count) {
  return guarded("pl_witness_write", [&] {
    const FoundTarget found = target_of(target);
    // A refusal is this thread's message as usual, and its target's too: the job fails with it if the
    // callback returns PL_OK all the same.
    const pl_status status = guarded("pl_witness_write", [&] {
      write_scalars(*found.target, vector, offset, scalars, count);
      return PL_OK;
    });
    if (status != PL_OK) note_refusal(*found.target, status, last_error_message());
    return status;
  });
}

PL_API pl_status pl_witness_stop_requested(const pl_witness_target* target, int32_t* stop) {
  return guarded("pl_witness_stop_requested", [&] {
    const FoundTarget found = target_of(target);
    if (stop == nullptr) throw Error(Errc::invalid_argument, "pl_witness_stop_requested: stop is null");
    *stop = found.target->target->stop_requested() ? 1 : 0;
    return PL_OK;
  });
}

PL_API pl_status pl_witness_fail(pl_witness_target* target, const char* message) {
  return guarded("pl_witness_fail", [&] {
    const FoundTarget found = target_of(target);
    std::lock_guard lock(found.target->failure_mutex);
    found.target->failure = message == nullptr ? "the witness callback failed" : message;
    found.target->failed = true;
    return PL_OK;
  });
}

}  // extern "C"
