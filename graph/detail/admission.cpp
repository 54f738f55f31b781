#include <proofline/graph/detail/admission.hpp>

namespace proofline::graph::detail {

Token Admission::mint_locked() {
  ++live_;
  if (!free_ids_.empty()) {
    const std::uint32_t id = free_ids_.back();
    free_ids_.pop_back();
    return Token{id};
  }
  return Token{next_id_++};
}

void Admission::retire_locked(Token token) {
  --live_;
  free_ids_.push_back(token.id);
}

std::vector<Token> Admission::on_capacity() {
  const std::size_t target = target_fn_();
  std::lock_guard lock(mutex_);
  target_ = target;
  parked_ = 0;
  std::vector<Token> out;
  while (live_ < target_) out.push_back(mint_locked());
  return out;
}

void Admission::on_return(Token token, std::vector<Token>& out) {
  const std::size_t target = target_fn_();
  std::lock_guard lock(mutex_);
  target_ = target;
  if (live_ > target_) {
    retire_locked(token);
    return;
  }
  out.push_back(token);
  // While tokens are parked, only a capacity event mints: a lease that keeps failing must not spin.
  if (parked_ > 0) return;
  while (live_ < target_) out.push_back(mint_locked());
}

bool Admission::park(Token token, std::uint64_t seen) {
  std::lock_guard lock(mutex_);
  if (epoch_.load(std::memory_order_acquire) != seen) return false;
  retire_locked(token);
  ++parked_;
  ++parks_;
  return true;
}

bool Admission::withdraw(Token token) {
  const std::size_t target = target_fn_();
  std::lock_guard lock(mutex_);
  target_ = target;
  if (live_ <= target_) return false;
  retire_locked(token);
  return true;
}

std::size_t Admission::live() const {
  std::lock_guard lock(mutex_);
  return live_;
}

std::size_t Admission::target() const {
  std::lock_guard lock(mutex_);
  return target_;
}

std::uint64_t Admission::parks() const {
  std::lock_guard lock(mutex_);
  return parks_;
}

std::size_t Admission::parked() const {
  std::lock_guard lock(mutex_);
  return parked_;
}

}  // namespace proofline::graph::detail
