// A worker's keys by file: a key file replaced while jobs use it is loaded again at once, the jobs started
// before keep the key they started with until they end; a load that fails says whether the file itself is
// wrong (the job fails for good) or this worker cannot load it (another worker may); a key the budgets cannot
// hold beside the others takes the place of idle ones.
#include <chrono>
#include <filesystem>
#include <fstream>
#include <string>
#include <thread>

#include <doctest/doctest.h>
#include <unistd.h>

#include <proofline/fleet/detail/key_cache.hpp>
#include <proofline/graph/pipeline.hpp>

namespace proofline::fleet {

namespace {

namespace fs = std::filesystem;
using detail::KeyCache;
using detail::KeyLookup;

const fs::path fixtures = PROOFLINE_SNARKJS_FIXTURES_DIR;

graph::Config cpu_config(std::uint64_t host_budget = 1ull << 30) {
  graph::Config config;
  config.backend = graph::Backend::cpu;
  config.max_threads = 2;
  config.host_budget = host_budget;
  return config;
}

/// Looks `path` up until its load ends.
KeyLookup loaded(KeyCache& keys, const std::string& path) {
  for (int i = 0; i < 600; ++i) {
    KeyLookup key = keys.lookup(path);
    if (key.state != KeyLookup::State::loading) return key;
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
  }
  FAIL("the key did not load in 30 s");
  return {};
}

class Folder {
 public:
  Folder() : path_(fs::temp_directory_path() / ("pl-key-cache-" + std::to_string(getpid()))) {
    fs::create_directories(path_);
  }
  ~Folder() { fs::remove_all(path_); }
  fs::path operator/(const std::string& name) const { return path_ / name; }

 private:
  fs::path path_;
};

/// Copies `from` over `to` and moves its modification time on, as a deployment replacing the key would.
void replace(const fs::path& from, const fs::path& to) {
  fs::copy_file(from, to, fs::copy_options::overwrite_existing);
  fs::last_write_time(to, fs::last_write_time(to) + std::chrono::seconds(5));
}

graph::JobResult prove(graph::Pipeline& pipeline, graph::KeyHandle key, const fs::path& wtns) {
  return pipeline.submit({.key = key, .witness = graph::WtnsFile{wtns.string()}}).result.get();
}

}  // namespace

TEST_CASE(
    "fleet/keys/a key file replaced while a job uses it: old jobs keep the old key, new ones get the new") {
  Folder folder;
  const std::string path = (folder / "circuit.zkey").string();
  replace(fixtures / "chain_16/circuit_final.zkey", path);
  graph::Pipeline pipeline(cpu_config());
  KeyCache keys(pipeline, {.point_check = groth16::PointCheck::on_curve}, [] {});

  const KeyLookup first = loaded(keys, path);
  REQUIRE(first.state == KeyLookup::State::ready);
  keys.acquire(first.serial);  // a job of the first key is running

  replace(fixtures / "chain_1024/circuit_final.zkey", path);
  const KeyLookup second = loaded(keys, path);
  REQUIRE(second.state == KeyLookup::State::ready);
  CHECK(second.serial != first.serial);
  CHECK(second.num_variables != first.num_variables);
  CHECK(keys.resident() == 2);

  // Both keys prove their own circuit's witnesses meanwhile.
  CHECK(prove(pipeline, first.handle, fixtures / "chain_16/witness.wtns").ok());
  CHECK(prove(pipeline, second.handle, fixtures / "chain_1024/witness.wtns").ok());

  keys.release(first.serial);  // the last job of the first key ended: it is unregistered
  CHECK(keys.resident() == 1);
  CHECK_THROWS_AS(prove(pipeline, first.handle, fixtures / "chain_16/witness.wtns"), Error);
  CHECK(keys.lookup(path).serial == second.serial);
}

TEST_CASE(
    "fleet/keys/a broken key file fails for good, a missing file or a budget too small only on this worker") {
  Folder folder;
  const fs::path source = fixtures / "chain_16/circuit_final.zkey";
  const std::string truncated = (folder / "truncated.zkey").string();
  fs::copy_file(source, truncated);
  fs::resize_file(truncated, fs::file_size(source) / 2);

  graph::Pipeline pipeline(cpu_config());
  KeyCache keys(pipeline, {.point_check = groth16::PointCheck::on_curve}, [] {});
  const KeyLookup broken = loaded(keys, truncated);
  CHECK(broken.state == KeyLookup::State::failed);
  CHECK(broken.permanent);
  const KeyLookup missing = loaded(keys, (folder / "not-mounted-here.zkey").string());
  CHECK(missing.state == KeyLookup::State::failed);
  CHECK_FALSE(missing.permanent);

  graph::Pipeline small(cpu_config(1024));
  KeyCache small_keys(small, {.point_check = groth16::PointCheck::on_curve}, [] {});
  const KeyLookup too_big = loaded(small_keys, source.string());
  CHECK(too_big.state == KeyLookup::State::failed);
  CHECK(too_big.error.find("host budget") != std::string::npos);
  CHECK_FALSE(too_big.permanent);
}

TEST_CASE("fleet/keys/a key that does not fit beside idle keys unregisters the least recently used of them") {
  Folder folder;
  const fs::path source = fixtures / "chain_1024/circuit_final.zkey";
  const std::string first = (folder / "first.zkey").string(), second = (folder / "second.zkey").string(),
                    third = (folder / "third.zkey").string();
  for (const std::string& path : {first, second, third}) fs::copy_file(source, path);

  // What one key and one pinned slot of its jobs take, from a pipeline with room to spare.
  std::uint64_t key_bytes = 0, slot_bytes = 0;
  {
    graph::Config roomy = cpu_config();
    roomy.prewarm = false;
    graph::Pipeline probe(roomy);
    KeyCache keys(probe, {.point_check = groth16::PointCheck::on_curve}, [] {});
    REQUIRE(loaded(keys, first).state == KeyLookup::State::ready);
    key_bytes = probe.stats().host_keys.bytes_resident;
    slot_bytes = probe.stats().slot_bytes;
  }
  // Room for two keys and two slots, not for three keys and one slot.
  REQUIRE(key_bytes > 2 * slot_bytes);
  graph::Config config = cpu_config(2 * key_bytes + 2 * slot_bytes);
  config.prewarm = false;
  graph::Pipeline pipeline(config);
  KeyCache keys(pipeline, {.point_check = groth16::PointCheck::on_curve}, [] {});

  const KeyLookup a = loaded(keys, first);
  REQUIRE(a.state == KeyLookup::State::ready);
  const KeyLookup b = loaded(keys, second);
  REQUIRE(b.state == KeyLookup::State::ready);
  keys.acquire(b.serial);  // the second key has a job: only the first is idle
  CHECK(keys.lookup(first).serial == a.serial);

  const KeyLookup c = loaded(keys, third);
  REQUIRE(c.state == KeyLookup::State::ready);
  CHECK(keys.resident() == 2);
  CHECK(prove(pipeline, c.handle, fixtures / "chain_1024/witness.wtns").ok());
  CHECK(keys.lookup(second).serial == b.serial);  // kept: its job still runs

  // With every other key busy there is nothing to give way: the load fails on this worker only, until one
  // of the busy keys' jobs ends (the worker's job waits for that rather than fail).
  keys.acquire(c.serial);
  const KeyLookup again = loaded(keys, first);
  CHECK(again.state == KeyLookup::State::failed);
  CHECK(again.out_of_budget);
  CHECK_FALSE(again.permanent);
  CHECK(keys.others_have_jobs(first));
  keys.release(b.serial);
  CHECK(keys.others_have_jobs(first));
  CHECK_FALSE(keys.others_have_jobs(third));   // the busy key's own jobs free nothing for it
  const KeyLookup room = loaded(keys, first);  // the second key, idle now, gives way
  CHECK(room.state == KeyLookup::State::ready);
  CHECK(prove(pipeline, room.handle, fixtures / "chain_1024/witness.wtns").ok());
  keys.release(c.serial);
  CHECK_FALSE(keys.others_have_jobs(first));
}

}  // namespace proofline::fleet
