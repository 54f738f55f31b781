// Stop signals (util/stop_signals.hpp): SIGINT, SIGTERM and a hangup are recorded, not fatal, and a hangup
// the program was started to ignore (nohup) stays ignored.
#include <signal.h>

#include <doctest/doctest.h>

#include <proofline/util/stop_signals.hpp>

namespace proofline {

TEST_CASE("util/stop signals/a hangup asks to stop as SIGTERM does") {
  route_stop_signals();
  const int before = stop_signal_count();
  REQUIRE(::raise(SIGHUP) == 0);
  CHECK(stop_signal() == SIGHUP);
  CHECK(stop_signal_count() == before + 1);
  REQUIRE(::raise(SIGTERM) == 0);
  CHECK(stop_signal() == SIGTERM);
  CHECK(stop_signal_count() == before + 2);
}

TEST_CASE("util/stop signals/a hangup ignored as under nohup stays ignored") {
  const bool set = ::signal(SIGHUP, SIG_IGN) != SIG_ERR;
  REQUIRE(set);
  route_stop_signals();
  const int before = stop_signal_count();
  REQUIRE(::raise(SIGHUP) == 0);  // ignored: the test goes on
  CHECK(stop_signal_count() == before);
  struct sigaction now {};
  REQUIRE(::sigaction(SIGHUP, nullptr, &now) == 0);
  const bool ignored = now.sa_handler == SIG_IGN;
  CHECK(ignored);
}

}  // namespace proofline
