#include <proofline/graph/detail/admission.hpp>

namespace proofline::graph::detail {

void Admission::make_room_locked(std::size_t mints) {
  // Room in free_ids_ for every id there may be: retiring a token then never allocates (and never throws).
  free_ids_.reserve(next_id_ - 1 + mints);
}

Token Admission::mint_locked() noexcept {
  ++live_;
  if (!free_ids_.empty()) {
    const std::uint32_t id = free_ids_.back();
    free_ids_.pop_back();
    return Token{id};
  }
  return Token{next_id_++};
}

void Admission::retire_locked(Token token) noexcept {
  --live_;
  free_ids_.push_back(token.id);
}

std::vector<Token> Admission::on_capacity() {
  const std::size_t target = target_fn_();
  std::lock_guard lock(mutex_);
  target_ = target;
  const std::size_t mint = live_ < target_ ? target_ - live_ : 0;
  std::vector<Token> out;
  // Room first, so that a token minted is always handed out.
  make_room_locked(mint);
  out.reserve(mint);
  parked_ = 0;
  for (std::size_t i = 0; i < mint; ++i) out.push_back(mint_locked());
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
  // While tokens are parked, only a capacity event mints: a lease that keeps failing must not spin.
  const std::size_t mint = parked_ > 0 ? 0 : target_ - live_;
  // Room first: out of memory, this throws with nothing counted, and the caller still holds `token` (drop).
  make_room_locked(mint);
  out.reserve(out.size() + 1 + mint);
  out.push_back(token);
  for (std::size_t i = 0; i < mint; ++i) out.push_back(mint_locked());
}

void Admission::drop(Token token) noexcept {
  std::lock_guard lock(mutex_);
  retire_locked(token);
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
