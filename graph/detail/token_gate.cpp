#include <proofline/graph/detail/token_gate.hpp>

namespace proofline::graph::detail {

TokenGate::Token TokenGate::mint_locked() {
  ++live_;
  if (!free_ids_.empty()) {
    const std::uint32_t id = free_ids_.back();
    free_ids_.pop_back();
    return Token{id};
  }
  return Token{next_id_++};
}

void TokenGate::retire_locked(Token token) {
  --live_;
  free_ids_.push_back(token.id);
}

std::vector<TokenGate::Token> TokenGate::grow(std::size_t target) {
  std::lock_guard lock(mutex_);
  target_ = target;
  dropped_ = false;
  std::vector<Token> out;
  while (live_ < target_) out.push_back(mint_locked());
  return out;
}

void TokenGate::on_return(Token token, std::size_t target, std::vector<Token>& out) {
  std::lock_guard lock(mutex_);
  target_ = target;
  if (live_ > target_) {
    retire_locked(token);
    return;
  }
  out.push_back(token);
  // Dropped tokens are minted again only by grow(), after a pause, so a lease that keeps failing cannot spin.
  if (dropped_) return;
  while (live_ < target_) out.push_back(mint_locked());
}

void TokenGate::drop(Token token) {
  std::lock_guard lock(mutex_);
  retire_locked(token);
  dropped_ = true;
  last_drop_ = std::chrono::steady_clock::now();
}

bool TokenGate::withdraw(Token token, std::size_t target) {
  std::lock_guard lock(mutex_);
  target_ = target;
  if (live_ <= target_) return false;
  retire_locked(token);
  return true;
}

std::size_t TokenGate::live() const {
  std::lock_guard lock(mutex_);
  return live_;
}

std::size_t TokenGate::target() const {
  std::lock_guard lock(mutex_);
  return target_;
}

bool TokenGate::starved(std::chrono::steady_clock::time_point* since) const {
  std::lock_guard lock(mutex_);
  if (since != nullptr) *since = last_drop_;
  return dropped_;
}

}  // namespace proofline::graph::detail
