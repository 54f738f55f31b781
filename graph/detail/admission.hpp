// Internal: the token side of admission. A token is the right to lease one pinned slot; the target is what
// the pool can hold under the host budget for the largest key's slot (capped by the configuration). Tokens
// follow the target by events only, never by a timer:
//   - a token coming home with its job is retired while there are more than the target (a key load trimmed
//     the pool), else it goes back to the token buffer;
//   - a token whose job could not lease a slot right now is parked (retired) until capacity comes back;
//   - capacity events (a slot returned to the pool, bytes released to the host budget, a key added or
//     removed) mint tokens up to the target, parked ones included.
#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <mutex>
#include <vector>

namespace proofline::graph::detail {

struct Token {
  std::uint32_t id = 0;
};

class Admission {
 public:
  /// `target` says how many tokens the pool holds now; called without this object's lock.
  explicit Admission(std::function<std::size_t()> target) : target_fn_(std::move(target)) {}

  /// Capacity may have grown: the tokens to mint now (none when there are as many as the target already).
  std::vector<Token> on_capacity();
  /// A token came home: appends it to `out` unless there are more tokens than the target (then retired).
  /// When `out` cannot grow it throws and changes nothing.
  void on_return(Token token, std::vector<Token>& out);
  /// A token that could not be handed back (on_return threw): retired, so a capacity event mints it again.
  void drop(Token token) noexcept;
  /// A capacity event happened (before its tokens are minted): leases that failed before it may not park.
  void note_capacity() noexcept { epoch_.fetch_add(1, std::memory_order_acq_rel); }
  /// The capacity events so far: read before a lease is tried, handed to park() if it fails.
  std::uint64_t epoch() const noexcept { return epoch_.load(std::memory_order_acquire); }
  /// Its job could not lease a slot right now: the token is retired until the next capacity event, and true.
  /// False (the token stays live: put it back) when a capacity event came since `seen`, since that event's
  /// tokens may have been minted before this one retired and nothing else might come to mint it again.
  bool park(Token token, std::uint64_t seen);
  /// A token taken out of the token buffer while the pipeline is quiet (drain): retired if there are more
  /// than the target, else false and the caller puts it back.
  bool withdraw(Token token);

  std::size_t live() const;
  std::size_t target() const;
  std::size_t parked() const;
  /// Leases that failed and parked their token, since the start.
  std::uint64_t parks() const;

 private:
  void make_room_locked(std::size_t mints);
  Token mint_locked() noexcept;
  void retire_locked(Token token) noexcept;

  const std::function<std::size_t()> target_fn_;
  mutable std::mutex mutex_;
  std::size_t live_ = 0;
  std::size_t target_ = 0;
  std::size_t parked_ = 0;
  std::uint64_t parks_ = 0;
  std::uint32_t next_id_ = 1;
  std::vector<std::uint32_t> free_ids_;
  std::atomic<std::uint64_t> epoch_{0};
};

}  // namespace proofline::graph::detail
