// A long-running service adds and removes keys for ever: what the pipeline keeps per removed key stays
// bounded. It remembers the names of the last kRemovedKeyNamesKept keys removed (to tell a call racing a
// removal that the key was removed, naming it), forgetting the oldest first; a forgotten key's handle is
// refused as never registered.
#include <cstdint>
#include <string>
#include <vector>

#include <proofline/graph/detail/removed_keys.hpp>

#include "helpers.hpp"

namespace proofline::graph::test {

namespace {

/// What submit says of `key`, a handle the pipeline does not hold.
std::string refusal(Pipeline& p, const Circuit& c, KeyHandle key) {
  try {
    p.submit(job(c, key, 1));
  } catch (const Error& e) {
    CHECK(e.code() == Errc::invalid_argument);
    return e.what();
  }
  FAIL("the submit was accepted");
  return {};
}

}  // namespace

TEST_CASE("pipeline/keys/removed key names are kept for the last kRemovedKeyNamesKept removals only") {
  CHECK(testing::Hooks{}.removed_key_names == kRemovedKeyNamesKept);
  detail::RemovedKeyNames names(kRemovedKeyNamesKept);
  const std::uint64_t removals = 3 * kRemovedKeyNamesKept + 5;
  for (std::uint64_t id = 1; id <= removals; ++id) {
    names.add(id, "key-" + std::to_string(id));
    REQUIRE(names.size() == std::min<std::uint64_t>(id, kRemovedKeyNamesKept));
  }
  // The oldest are forgotten first; the last kRemovedKeyNamesKept are all still there, each with its name.
  const std::uint64_t oldest_kept = removals - kRemovedKeyNamesKept + 1;
  CHECK(names.find(1) == nullptr);
  CHECK(names.find(oldest_kept - 1) == nullptr);
  for (const std::uint64_t id :
       {oldest_kept, oldest_kept + 1, removals / 2 + kRemovedKeyNamesKept, removals}) {
    const std::string* name = names.find(id);
    REQUIRE(name != nullptr);
    CHECK(*name == "key-" + std::to_string(id));
  }
  CHECK(names.find(removals + 1) == nullptr);  // never removed
  detail::RemovedKeyNames none(0);             // a capacity of 0 remembers nothing
  none.add(1, "k");
  CHECK(none.size() == 0);
  CHECK(none.find(1) == nullptr);
}

TEST_CASE("pipeline/keys/a key removed before the last kept removals is refused as never registered") {
  const Circuit& c = circuit(8);
  constexpr std::size_t kept = 3;
  testing::Hooks hooks;
  hooks.removed_key_names = kept;
  Pipeline p = testing::make_pipeline(cpu_config(), hooks);
  std::vector<KeyHandle> removed;
  for (int i = 0; i < 5; ++i) {
    const KeyHandle key = p.add_key(c.spec("churn-" + std::to_string(i)));
    Submission s = p.submit(job(c, key, static_cast<std::uint64_t>(i)));
    CHECK(await(s).ok());
    p.remove_key(key);
    removed.push_back(key);
  }
  for (std::size_t i = 0; i < removed.size(); ++i) {
    const std::string said = refusal(p, c, removed[i]);
    CAPTURE(said);
    const std::string id = std::to_string(removed[i].id());
    if (i + kept >= removed.size()) {  // among the last `kept` removed: named
      CHECK(said.find("key 'churn-" + std::to_string(i) + "' (key " + id + ") was removed") !=
            std::string::npos);
    } else {  // forgotten: as a handle never registered
      CHECK(said.find("unknown key " + id + " (no key of that id was registered") != std::string::npos);
      CHECK(said.find("churn-") == std::string::npos);
    }
  }
  // remove_key says the same, and the pipeline still proves with a key added after all that.
  CHECK_THROWS_WITH_AS(p.remove_key(removed.front()), doctest::Contains("unknown key"), Error);
  CHECK_THROWS_WITH_AS(p.remove_key(removed.back()), doctest::Contains("was removed"), Error);
  const KeyHandle last = p.add_key(c.spec("after"));
  Submission s = p.submit(job(c, last, 9));
  CHECK(await(s).ok());
  p.drain();
  check_idle(p);
}

TEST_CASE(
    "pipeline/keys/a handle is refused by a pipeline that did not issue it, however keys are numbered") {
  const Circuit& c = circuit(8);
  Pipeline a = testing::make_pipeline(cpu_config(), {});
  Pipeline b = testing::make_pipeline(cpu_config(), {});
  const KeyHandle of_a = a.add_key(c.spec("a-key"));
  const KeyHandle of_b = b.add_key(c.spec("b-key"));
  CHECK(of_a != of_b);
  const std::string said = refusal(b, c, of_a);
  CHECK_MESSAGE(said.find("unknown key " + std::to_string(of_a.id())) != std::string::npos, said);
  CHECK(said.find("b-key") == std::string::npos);
  // A pipeline moved over another: the handles of the one replaced are unknown to it too.
  a = std::move(b);
  CHECK(refusal(a, c, of_a).find("unknown key") != std::string::npos);
  Submission s = a.submit(job(c, of_b, 2));
  CHECK(await(s).ok());
}

TEST_CASE(
    "pipeline/keys/a key added and removed again and again pins one set of slots, and its removal unpins "
    "it") {
  const Circuit& small = circuit(6);
  const Circuit& large = circuit(9);
  Pipeline p = testing::make_pipeline(cpu_config(), {});
  const KeyHandle kept = p.add_key(small.spec("kept"));
  Submission first = p.submit(job(small, kept, 1));
  CHECK(await(first).ok());
  const PoolStats alone = p.stats().pool;
  REQUIRE(alone.bytes_pinned > 0);

  std::uint64_t with_large = 0;
  for (int round = 0; round < 12; ++round) {
    CAPTURE(round);
    const KeyHandle key = p.add_key(large.spec("large"));
    Submission s = p.submit(job(large, key, static_cast<std::uint64_t>(round)));
    CHECK(await(s).ok());
    const PoolStats stats = p.stats().pool;
    if (round == 0) with_large = stats.bytes_pinned;
    CHECK(stats.bytes_pinned == with_large);  // the same slots every round, no new set beside the old
    p.remove_key(key);
    // The largest key's slots go with it; the kept key's stay.
    CHECK(p.stats().pool.bytes_pinned <= alone.bytes_pinned);
  }
  CHECK(with_large > alone.bytes_pinned);

  // A key of the same shape as one still registered finds the slots already pinned: nothing new is pinned.
  const KeyHandle twin = p.add_key(small.spec("twin"));
  const std::uint64_t pins = p.stats().pool.pin_calls;
  for (int round = 0; round < 4; ++round) {
    const KeyHandle again = p.add_key(small.spec("twin-" + std::to_string(round)));
    Submission s = p.submit(job(small, again, 2));
    CHECK(await(s).ok());
    p.remove_key(again);
  }
  CHECK(p.stats().pool.pin_calls == pins);
  p.remove_key(twin);
  p.remove_key(kept);
  p.drain();
  CHECK(p.stats().pool.bytes_pinned == 0);  // no key left: nothing idle stays pinned
}

}  // namespace proofline::graph::test
