// What an embedding program can get wrong, and what it gets back: a clear error, never a hang and never a
// proof reported good that does not verify. A key that the host budget holds only after the running jobs
// are done, drain/shutdown/add_key/remove_key from a callback, chains of jobs submitted from callbacks into
// a full queue, a, b, c from a callback that are not A·z, B·z, C·z, a proving key and constraint system of
// two circuits of one shape, exceptions from a witness callback, a witness callback that catches a refused
// write and returns, and enum values that name nothing.
#include <atomic>
#include <functional>
#include <memory>
#include <mutex>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include "helpers.hpp"

namespace proofline::graph::test {

namespace {

/// A second circuit of the same shape as circuit(8) (other matrices, other trapdoor).
const Circuit& twin_circuit() {
  static const auto twin = test_support::make_synthetic_keys(8, 901, 902);
  return *twin;
}

Job memory_job(KeyHandle key, const Circuit& c, std::uint64_t seed) {
  Job j;
  j.key = key;
  j.witness = MemoryWitness{std::make_shared<const std::vector<Fr>>(c.witness(seed))};
  return j;
}

}  // namespace

TEST_CASE("pipeline/mistakes/a key the host budget holds only beside idle keys ends without a hang") {
  const Circuit& c = circuit(10);
  // Room for one key and a slot, not for a second key beside them while the first one's jobs run.
  TestConfig config = cpu_config();
  const std::uint64_t key_bytes = c.pk->query_bytes() + c.cs->size_bytes();
  config.host_budget = key_bytes + key_bytes / 4;
  Pipeline p(config);
  const KeyHandle first = p.add_key(c.spec("first"));
  std::vector<Submission> jobs;
  for (std::uint64_t seed = 1; seed <= 4; ++seed) jobs.push_back(p.submit(job(c, first, seed)));
  std::atomic<int> outcome{0};  // 1 registered, 2 refused with out_of_budget
  std::thread second([&] {
    try {
      p.add_key(c.spec("second"));
      outcome = 1;
    } catch (const Error& e) {
      CHECK(e.code() == Errc::out_of_budget);
      outcome = 2;
    }
  });
  for (Submission& s : jobs) CHECK(await(s, 60s).ok());  // the queued jobs are not blocked behind it
  CHECK(eventually([&] { return outcome.load() != 0; }, 60s));
  second.join();  // registered once the jobs were done, or refused naming the budget: either, not a hang
}

TEST_CASE("pipeline/mistakes/drain and shutdown from a result callback throw instead of waiting for ever") {
  const Circuit& c = circuit(8);
  TestConfig config = cpu_config();
  Pipeline p(config);
  const KeyHandle key = p.add_key(c.spec("k"));
  std::promise<std::string> drained, shut;
  Job j = job(c, key, 1);
  j.on_result = [&](const JobResult&) {
    try {
      p.drain();
      drained.set_value("returned");
    } catch (const Error& e) {
      drained.set_value(e.what());
    }
    try {
      p.shutdown();
      shut.set_value("returned");
    } catch (const Error& e) {
      shut.set_value(e.what());
    }
  };
  Submission s = p.submit(std::move(j));
  CHECK(await(s).ok());
  CHECK(drained.get_future().get().find("cannot be called from a result or witness callback") !=
        std::string::npos);
  CHECK(shut.get_future().get().find("cannot be called from a result or witness callback") !=
        std::string::npos);
  Submission after = p.submit(job(c, key, 2));  // the pipeline is whole and still open
  CHECK(await(after).ok());
}

TEST_CASE("pipeline/mistakes/calls that wait for jobs throw inside result and witness callbacks") {
  const Circuit& c = circuit(8);
  Pipeline p(cpu_config());
  const KeyHandle key = p.add_key(c.spec("k"));
  std::vector<std::string> said;
  std::mutex said_mutex;
  const auto attempt = [&](const char* what, const std::function<void()>& call) {
    std::string outcome = std::string(what) + ": returned";
    try {
      call();
    } catch (const Error& e) {
      outcome = std::string(what) + ": " + e.what();
    }
    std::lock_guard lock(said_mutex);
    said.push_back(outcome);
  };
  const auto waiting_calls = [&] {
    attempt("add_key", [&] { p.add_key(c.spec("another")); });
    attempt("remove_key", [&] { p.remove_key(key); });
    attempt("drain", [&] { p.drain(); });
  };
  Job in_witness = job(c, key, 1);
  in_witness.witness =
      WitnessCallback{[&](const WitnessTarget& target) {
                        waiting_calls();
                        groth16::synthetic_witness_into(*c.cs, c.options, 1, target.z.unchecked());
                      },
                      WitnessCallback::Fills::witness};
  Submission witnessed = p.submit(std::move(in_witness));
  CHECK(await(witnessed, 60s).ok());
  Job in_result = job(c, key, 2);
  in_result.on_result = [&](const JobResult&) { waiting_calls(); };
  Submission resulted = p.submit(std::move(in_result));
  CHECK(await(resulted, 60s).ok());
  p.drain();
  REQUIRE(said.size() == 6);
  for (const std::string& outcome : said) {
    CAPTURE(outcome);
    CHECK(outcome.find("cannot be called from a result or witness callback") != std::string::npos);
  }
  Submission after = p.submit(job(c, key, 3));  // the key is still registered
  CHECK(await(after, 60s).ok());
}

TEST_CASE("pipeline/mistakes/chains of jobs submitted from callbacks into a full queue do not deadlock") {
  const Circuit& c = circuit(8);
  TestConfig config = cpu_config();
  config.max_threads = 1;
  config.synthesis_concurrency = 1;
  config.queue_capacity = 1;
  Pipeline p(config);
  const KeyHandle key = p.add_key(c.spec("k"));
  constexpr int chained = 12;
  std::atomic<int> done{0}, failed{0}, submitted{0};
  std::mutex chain_mutex;
  std::vector<Submission> chain;
  // Every result and every witness callback submits another job (blocking submit) until `chained` ran: the
  // queue holds one job, the pipeline one thread, so a submit that waited for room would wait for itself.
  std::function<Job()> next = [&] {
    Job j = job(c, key, static_cast<std::uint64_t>(submitted.load()));
    const WitnessCallback inner = std::get<WitnessCallback>(j.witness);
    j.witness = WitnessCallback{[&, inner](const WitnessTarget& target) {
                                  if (submitted.fetch_add(1) < chained) {
                                    std::lock_guard lock(chain_mutex);
                                    chain.push_back(p.submit(next()));
                                  }
                                  inner.fill(target);
                                },
                                WitnessCallback::Fills::witness};
    j.on_result = [&](const JobResult& r) {
      (r.ok() ? done : failed).fetch_add(1);
      if (submitted.fetch_add(1) < chained) {
        std::lock_guard lock(chain_mutex);
        chain.push_back(p.submit(next()));
      }
    };
    return j;
  };
  Submission first = p.submit(next());
  CHECK(await(first, 60s).ok());
  REQUIRE(eventually([&] { return submitted.load() >= chained && p.stats().queue_depth == 0; }, 60s));
  p.drain();
  std::lock_guard lock(chain_mutex);
  CHECK(failed.load() == 0);
  CHECK(done.load() == static_cast<int>(chain.size()) + 1);
  for (Submission& s : chain) CHECK(await(s, 60s).ok());
}

TEST_CASE("pipeline/mistakes/a, b, c from a callback that are not A·z, B·z, C·z fail the job") {
  const Circuit& c = circuit(8);
  Pipeline p(cpu_config());
  const KeyHandle key = p.add_key(c.spec("k"));
  const std::vector<Fr> z = c.witness(3);
  for (const bool consistent : {true, false}) {
    Job j;
    j.key = key;
    j.witness = WitnessCallback{[&](const WitnessTarget& t) {
                                  std::vector<Fr> a(t.a.size()), b(t.b.size()), cc(t.c.size());
                                  groth16::evaluate(*c.cs, std::span<const Fr>(z), a, b, cc);
                                  if (!consistent) {  // a·b = c on every row, but not the circuit's rows
                                    std::fill(a.begin(), a.end(), Fr::one());
                                    b = cc;
                                  }
                                  std::copy(z.begin(), z.end(), t.z.unchecked().begin());
                                  std::copy(a.begin(), a.end(), t.a.unchecked().begin());
                                  std::copy(b.begin(), b.end(), t.b.unchecked().begin());
                                  std::copy(cc.begin(), cc.end(), t.c.unchecked().begin());
                                },
                                WitnessCallback::Fills::witness_and_abc};
    Submission s = p.submit(std::move(j));
    const JobResult r = await(s);
    CAPTURE(consistent);
    if (consistent) {
      CHECK(r.ok());
      CHECK(r.verified);
    } else {
      REQUIRE_FALSE(r.ok());
      CHECK(r.error->code == Errc::bad_input);
      CHECK(r.error->message.find("are not A·z, B·z, C·z") != std::string::npos);
    }
  }
}

TEST_CASE("pipeline/mistakes/a proving key and a constraint system of two circuits fail the first job") {
  const Circuit& c = circuit(8);
  const Circuit& twin = twin_circuit();
  REQUIRE(twin.cs->num_variables == c.cs->num_variables);
  Pipeline p(cpu_config());
  // The twin's constraint system with this circuit's proving and verifying keys: same shape, every row of
  // the twin's witnesses satisfied, no proof that verifies.
  const KeyHandle mixed = p.add_key(KeySpec{"mixed", c.pk, twin.cs, c.vk});
  Submission s = p.submit(memory_job(mixed, twin, 4));
  const JobResult r = await(s);
  REQUIRE_FALSE(r.ok());
  CHECK(r.error->code == Errc::invalid_argument);
  CHECK(r.error->message.find("not all of the same circuit") != std::string::npos);
  // A key whose parts belong together proves, verified.
  const KeyHandle good = p.add_key(c.spec("good"));
  Submission g = p.submit(memory_job(good, c, 4));
  CHECK(await(g).ok());
}

TEST_CASE("pipeline/mistakes/a key name that is not one printable line is refused") {
  const Circuit& c = circuit(8);
  Pipeline p(cpu_config());
  for (const std::string name :
       {std::string("two\nlines"), std::string("esc\x1b[31m"), std::string("\xff\xfe")}) {
    CAPTURE(name);
    CHECK_THROWS_WITH_AS(p.add_key(c.spec(name)), doctest::Contains("has control characters"), Error);
  }
  CHECK(p.add_key(c.spec("alice/circuit \"final\" \u00e9")));  // quotes, slashes and UTF-8 are fine
}

TEST_CASE("pipeline/mistakes/a verifying key of another setup is refused, of another circuit fails the job") {
  const Circuit& c = circuit(8);
  Pipeline p(cpu_config());
  // Another trapdoor: alpha, beta and delta differ from the proving key's, refused at once.
  const Circuit& twin = twin_circuit();
  CHECK_THROWS_WITH_AS(
      p.add_key(KeySpec{"other-setup", c.pk, c.cs, twin.vk}),
      "add_key: key 'other-setup': the verifying key is not the proving key's: its alpha1 differs (a "
      "key of another setup or circuit)",
      Error);
  // The same trapdoor over another circuit of the shape: only the IC points differ, found by the first proof.
  const auto sibling = test_support::make_synthetic_keys(8, 903, 7 + 8);
  REQUIRE(*sibling->vk != *c.vk);
  REQUIRE(sibling->vk->delta2 == c.vk->delta2);
  const KeyHandle mixed = p.add_key(KeySpec{"other-circuit", c.pk, c.cs, sibling->vk});
  Submission s = p.submit(memory_job(mixed, c, 4));
  const JobResult r = await(s);
  REQUIRE_FALSE(r.ok());
  CHECK(r.error->message.find("proving key, constraint system and verifying key are not all of the same "
                              "circuit") != std::string::npos);
}

TEST_CASE("pipeline/mistakes/what a witness callback throws is the caller's bad input, with its message") {
  const Circuit& c = circuit(8);
  Pipeline p(cpu_config());
  const KeyHandle key = p.add_key(c.spec("k"));
  struct NotAnException {};
  const std::vector<std::pair<std::function<void()>, std::string>> throws{
      {[] { throw std::runtime_error("the database is gone"); },
       "the witness callback failed: the database is gone"},
      {[] { throw NotAnException{}; }, "not a std::exception"},
      {[] { throw Error(Errc::timeout, "too slow"); }, "too slow"},
  };
  for (const auto& [thrower, says] : throws) {
    Job j;
    j.key = key;
    j.witness = WitnessCallback{[thrower = thrower](const WitnessTarget&) { thrower(); }};
    Submission s = p.submit(std::move(j));
    const JobResult r = await(s);
    REQUIRE_FALSE(r.ok());
    CAPTURE(r.error->message);
    CHECK(r.error->message.find(says) != std::string::npos);
    CHECK(r.error->code == (says == "too slow" ? Errc::timeout : Errc::bad_input));
  }
}

TEST_CASE("pipeline/mistakes/a witness callback that catches a refused write and returns fails its job") {
  // As through the C ABI: the write it meant to make is not in the slot, so the job fails with the first
  // refusal's message even where everything was written after all.
  const Circuit& c = circuit(8);
  Pipeline p(cpu_config());
  const KeyHandle key = p.add_key(c.spec("k"));
  const auto caught = [](const auto& write) {
    try {
      write();
    } catch (const Error&) {
    }
  };
  struct Case {
    std::function<void(const WitnessTarget&)> mistakes;
    std::string says;
  };
  const std::vector<Case> cases{
      {[&](const WitnessTarget& t) { caught([&] { t.z[t.z.size()] = Fr::one(); }); },
       "returned normally after a refused write: z[" + std::to_string(c.cs->num_variables) +
           "] (1 elements) is out of range"},
      {[&](const WitnessTarget& t) { caught([&] { t.bn254_z[0] = bn254::Fr::one(); }); },
       "after a refused write: bn254_z (a BN254 view; the key is BLS12-381's: write z)[0]"},
      // The first of several, from any thread.
      {[&](const WitnessTarget& t) {
         caught([&] { t.z.write(t.z.size() - 1, std::vector<Fr>(2, Fr::one())); });
         std::thread helper([&] { caught([&] { t.z.at(t.z.size() + 1) = Fr::one(); }); });
         helper.join();
       },
       "after 2 refused writes, the first: z[" + std::to_string(c.cs->num_variables - 1) +
           "] (2 elements) is out of range"},
  };
  for (const Case& mistake : cases) {
    Job j = job(c, key, 5);
    const WitnessCallback whole = std::get<WitnessCallback>(j.witness);
    j.witness = WitnessCallback{[&, whole](const WitnessTarget& t) {
                                  mistake.mistakes(t);
                                  whole.fill(t);  // every value written after all
                                },
                                WitnessCallback::Fills::witness};
    Submission s = p.submit(std::move(j));
    const JobResult r = await(s);
    REQUIRE_FALSE(r.ok());
    CAPTURE(r.error->message);
    CHECK(r.error->code == Errc::bad_input);
    CHECK(r.error->stage == Stage::synthesis);
    CHECK(r.error->message.find(mistake.says) != std::string::npos);
  }
  // Refusals belong to their job: the next one proves.
  Submission after = p.submit(job(c, key, 6));
  CHECK(await(after).ok());
}

TEST_CASE("pipeline/mistakes/refused writes are summed up alike for C++ and C ABI callbacks") {
  // nodes::WitnessRefusals words the message of both (pl_witness_write notes its refusals in one too).
  nodes::WitnessRefusals refusals;
  CHECK(refusals.summary().empty());
  refusals.note("z[9] (1 elements) is out of range (size 9)");
  CHECK(refusals.summary() == "a refused write: z[9] (1 elements) is out of range (size 9)");
  refusals.note("a later one");
  CHECK(refusals.count() == 2);
  CHECK(refusals.summary() == "2 refused writes, the first: z[9] (1 elements) is out of range (size 9)");
  // A first message that did not fit in memory (noted empty) is said to be missing.
  nodes::WitnessRefusals dropped;
  dropped.note("");
  CHECK(dropped.summary() == "a refused write: its message did not fit in memory");
}

TEST_CASE("pipeline/mistakes/enum values that name nothing are refused") {
  TestConfig config = cpu_config();
  config.backend = static_cast<Backend>(7);
  CHECK_THROWS_WITH_AS(Pipeline{config}, doctest::Contains("is not a Backend"), Error);
  config = cpu_config();
  config.mode = static_cast<Mode>(9);
  CHECK_THROWS_WITH_AS(Pipeline{config}, doctest::Contains("is not a Mode"), Error);
  config = cpu_config();
  config.srs = static_cast<SrsPlacement>(5);
  CHECK_THROWS_WITH_AS(Pipeline{config}, doctest::Contains("is not an SrsPlacement"), Error);
}

TEST_CASE("pipeline/mistakes/a callback writing the other curve's view is told which view to write") {
  const Circuit& c = circuit(8);
  Pipeline p = make_pipeline(cpu_config());
  const KeyHandle key = p.add_key(c.spec("n8"));
  Job wrong = job(c, key, 1);
  wrong.witness = WitnessCallback{[](const WitnessTarget& target) { target.bn254_z[0] = bn254::Fr::one(); },
                                  WitnessCallback::Fills::witness};
  Submission s = p.submit(std::move(wrong));
  const JobResult r = await(s);
  REQUIRE(r.error);
  CHECK(r.error->message.find("bn254_z (a BN254 view; the key is BLS12-381's: write z)[0]") !=
        std::string::npos);
}

TEST_CASE("pipeline/mistakes/a moved-from pipeline throws instead of crashing") {
  const Circuit& c = circuit(8);
  Pipeline first = make_pipeline(cpu_config());
  const KeyHandle key = first.add_key(c.spec("n8"));
  Pipeline second(std::move(first));
  const auto refused = [](auto&& call) {
    try {
      call();
    } catch (const Error& e) {
      return e.code() == Errc::invalid_argument &&
             std::string(e.what()).find("moved from") != std::string::npos;
    }
    return false;
  };
  CHECK(refused([&] { first.submit(job(c, key, 1)); }));
  CHECK(refused([&] { first.try_submit(job(c, key, 1)); }));
  CHECK(refused([&] { first.add_key(c.spec("other")); }));
  CHECK(refused([&] { first.remove_key(key); }));
  CHECK(refused([&] { first.cancel(1); }));
  CHECK(refused([&] { first.cancel_queued(); }));
  CHECK(refused([&] { first.stats(); }));
  CHECK(refused([&] { first.drain(); }));
  CHECK(refused([&] { first.shutdown(); }));
  Submission after = second.submit(job(c, key, 2));
  CHECK(await(after).ok());  // the state went with the move
}

}  // namespace proofline::graph::test
