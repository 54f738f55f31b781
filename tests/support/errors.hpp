// The proofline::Error that an action throws, for tests of refusals: a failed check instead of an escaped
// exception or a silent pass when the action throws something else or nothing.
#pragma once

#include <doctest/doctest.h>

#include <exception>
#include <functional>
#include <string>

#include <proofline/util/error.hpp>

namespace proofline::test_support {

/// The code of the Error that `action` throws; Errc::internal and a failed check when it throws none.
inline Errc error_code(const std::function<void()>& action) {
  try {
    action();
  } catch (const Error& e) {
    return e.code();
  }
  FAIL("no proofline::Error was thrown");
  return Errc::internal;
}

/// The message of the Error that `action` must throw with code `expected`; "" and a failed check when it
/// throws nothing or something else, and a failed check when the code differs.
inline std::string error_message(Errc expected, const std::function<void()>& action) {
  try {
    action();
  } catch (const Error& e) {
    CHECK_MESSAGE(e.code() == expected, "error code " << to_string(e.code()) << ": " << e.what());
    return e.what();
  } catch (const std::exception& e) {
    FAIL("not a proofline::Error: " << e.what());
    return {};
  }
  FAIL("no proofline::Error was thrown");
  return {};
}

}  // namespace proofline::test_support
