// Internal: how many pinned-slot tokens exist. A token is the right to lease one slot; the target is what
// the pool can hold under the host budget for the largest key's slot (capped by the configuration). The
// count follows the target lazily: a token coming home is withheld while there are more than the target
// (an SRS/PCE load trimmed the pool), and new tokens are minted when there are fewer (the pool may grow).
// Kept apart from the graph wiring so that it could move to oneTBB's resource_limiter later.
#pragma once

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <mutex>
#include <vector>

namespace proofline::graph::detail {

class TokenGate {
 public:
  struct Token {
    std::uint32_t id = 0;
  };

  /// Sets the target; returns the tokens to mint now (none when there are as many or more already).
  std::vector<Token> grow(std::size_t target);
  /// A token came home: appends it to `out` unless there are more tokens than `target` (then it is
  /// withheld), plus newly minted ones while there are fewer.
  void on_return(Token token, std::size_t target, std::vector<Token>& out);
  /// The holder could not lease a slot with it right now: the token is withheld until the next grow(), so
  /// that the job can wait in the queue instead of spinning through admission.
  void drop(Token token);
  /// A token taken out of the token buffer while the pipeline is quiet (Core::settle_tokens): retired if
  /// there are more than `target`, else false and the caller puts it back.
  bool withdraw(Token token, std::size_t target);

  std::size_t live() const;
  std::size_t target() const;
  /// Tokens were dropped since the last grow(), and when the last one was.
  bool starved(std::chrono::steady_clock::time_point* since = nullptr) const;

 private:
  Token mint_locked();
  void retire_locked(Token token);

  mutable std::mutex mutex_;
  std::size_t live_ = 0;
  std::size_t target_ = 0;
  std::uint32_t next_id_ = 1;
  std::vector<std::uint32_t> free_ids_;
  bool dropped_ = false;
  std::chrono::steady_clock::time_point last_drop_{};
};

}  // namespace proofline::graph::detail
