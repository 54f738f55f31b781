// Shared by the file-safety tests of the groth16 and snarkjs suites: readers given a FIFO must fail at once
// (checked on a thread with a deadline, so a regression fails the test instead of hanging it), and the
// permissions and kind of the files writers leave behind; and reading every point of a loaded key, so that a
// view into a file that has gone away shows.
#pragma once

#include <doctest/doctest.h>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <functional>
#include <future>
#include <string>
#include <vector>

#include <proofline/arith/fr.hpp>
#include <proofline/groth16/proving_key.hpp>
#include <proofline/util/error.hpp>

namespace proofline::file_safety_test {

struct Outcome {
  bool threw = false;
  Errc code = Errc::internal;
  std::string message;
};

inline Outcome outcome_of(const std::function<void()>& action) {
  try {
    action();
  } catch (const Error& e) {
    return {true, e.code(), e.what()};
  } catch (const std::exception& e) {
    return {true, Errc::internal, std::string("not a proofline::Error: ") + e.what()};
  }
  return {};
}

/// Makes a FIFO at `path` (nobody ever writes to it).
inline void make_fifo(const std::filesystem::path& path) {
  REQUIRE_MESSAGE(::mkfifo(path.c_str(), 0600) == 0, "mkfifo " << path << " failed");
}

/// Runs `action` on a thread and waits at most 5 s for it. An action still blocked on the FIFO at `fifo` then
/// fails the check and is released by opening the FIFO for writing, so the test fails instead of hanging.
inline Outcome outcome_within_deadline(const std::filesystem::path& fifo,
                                       const std::function<void()>& action) {
  auto result = std::async(std::launch::async, [&] { return outcome_of(action); });
  if (result.wait_for(std::chrono::seconds(5)) != std::future_status::ready) {
    FAIL_CHECK("still blocked on the FIFO " << fifo << " after 5 s");
    const int writer = ::open(fifo.c_str(), O_WRONLY | O_NONBLOCK | O_CLOEXEC);
    result.wait();
    if (writer >= 0) ::close(writer);
  }
  return result.get();
}

/// `action` must throw Error(bad_input) within 5 s (outcome_within_deadline). Returns the message.
inline std::string fifo_error(const std::filesystem::path& fifo, const std::function<void()>& action) {
  const Outcome outcome = outcome_within_deadline(fifo, action);
  CHECK_MESSAGE(outcome.threw, "no error for the FIFO " << fifo);
  CHECK_MESSAGE(outcome.code == Errc::bad_input,
                "error code " << to_string(outcome.code) << ": " << outcome.message);
  return outcome.message;
}

/// The permission bits of `path` (not following a link).
inline unsigned permissions_of(const std::filesystem::path& path) {
  struct stat info {};
  REQUIRE(::lstat(path.c_str(), &info) == 0);
  return static_cast<unsigned>(info.st_mode & 07777);
}

/// Sets the umask for a scope, so that permission checks do not depend on the caller's.
class ScopedUmask {
 public:
  explicit ScopedUmask(mode_t mask) : previous_(::umask(mask)) {}
  ~ScopedUmask() { ::umask(previous_); }
  ScopedUmask(const ScopedUmask&) = delete;
  ScopedUmask& operator=(const ScopedUmask&) = delete;

 private:
  mode_t previous_;
};

/// No byte a terminal would act on: C0 controls (ESC, BEL...) and DEL.
inline bool has_control_bytes(const std::string& text) {
  for (const char ch : text) {
    const auto c = static_cast<unsigned char>(ch);
    if (c < 0x20 || c == 0x7f) return true;
  }
  return false;
}

/// The public inputs of a full assignment z = (1, public..., private...).
inline std::vector<Fr> public_inputs(const std::vector<Fr>& z, std::uint64_t count) {
  return std::vector<Fr>(z.begin() + 1, z.begin() + 1 + static_cast<std::ptrdiff_t>(count));
}

template <class Array>
std::uint64_t infinity_count(const Array& points) {
  std::uint64_t count = 0;
  for (const auto& p : points) count += p.is_infinity() ? 1 : 0;
  return count;
}

/// Every query point of `pk` read once, so a view into a vanished file would fault here.
inline std::uint64_t touch_every_point(const groth16::ProvingKey& pk) {
  return infinity_count(pk.a_query) + infinity_count(pk.b1_query) + infinity_count(pk.b2_query) +
         infinity_count(pk.l_query) + infinity_count(pk.h_query);
}

}  // namespace proofline::file_safety_test
