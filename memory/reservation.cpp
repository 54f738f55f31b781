#include <proofline/memory/reservation.hpp>

#include <utility>

#include <proofline/memory/budget.hpp>
#include <proofline/util/error.hpp>
#include <proofline/util/size.hpp>

namespace proofline::memory {

namespace {

[[noreturn]] void too_few(const char* what, std::uint64_t wanted, std::uint64_t held) {
  throw Error(Errc::invalid_argument, std::string("Reservation::") + what + ": asked for " +
                                          format_size(wanted) + " but it holds only " + format_size(held));
}

}  // namespace

Reservation::Reservation(Reservation&& other) noexcept
    : budget_(std::exchange(other.budget_, nullptr)), bytes_(std::exchange(other.bytes_, 0)) {}

Reservation& Reservation::operator=(Reservation&& other) noexcept {
  if (this != &other) {
    reset();
    budget_ = std::exchange(other.budget_, nullptr);
    bytes_ = std::exchange(other.bytes_, 0);
  }
  return *this;
}

Reservation::~Reservation() {
  reset();
}

void Reservation::reset() noexcept {
  if (budget_ != nullptr && bytes_ > 0) budget_->release_bytes(bytes_);
  bytes_ = 0;
}

void Reservation::release(std::uint64_t bytes) {
  if (bytes > bytes_) too_few("release", bytes, bytes_);
  if (bytes == 0) return;
  budget_->release_bytes(bytes);
  bytes_ -= bytes;
}

bool Reservation::try_grow(std::uint64_t bytes) {
  if (budget_ == nullptr)
    throw Error(Errc::invalid_argument, "Reservation::try_grow: the reservation has no budget");
  if (bytes == 0) return true;
  return budget_->try_grow(*this, bytes);
}

void Reservation::grow(std::uint64_t bytes) {
  grow(bytes, ReserveOptions{});
}

void Reservation::grow(std::uint64_t bytes, const ReserveOptions& options) {
  if (budget_ == nullptr)
    throw Error(Errc::invalid_argument, "Reservation::grow: the reservation has no budget");
  if (bytes == 0) return;
  merge(budget_->reserve(bytes, options));
}

Reservation Reservation::split(std::uint64_t bytes) {
  if (bytes > bytes_) too_few("split", bytes, bytes_);
  bytes_ -= bytes;
  return Reservation(budget_, bytes);
}

void Reservation::merge(Reservation&& other) {
  if (&other == this || other.bytes_ == 0) {
    if (budget_ == nullptr) budget_ = other.budget_;
    return;
  }
  if (bytes_ > 0 && budget_ != other.budget_) {
    throw Error(Errc::invalid_argument, "Reservation::merge: the reservations belong to different budgets");
  }
  budget_ = other.budget_;
  bytes_ += std::exchange(other.bytes_, 0);
}

}  // namespace proofline::memory
