// Keys named from their files: snarkjs names every final key circuit_final.zkey, so keys of several circuits,
// each in its own folder, share a file name. A key the caller does not name takes the stem, or where a key
// holds that already, the stem under as many of its folders as tell it apart; a name the caller gives wins,
// and is refused only where a key holds it. Only the same file twice, unnamed, is refused.
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include <proofline/capi/detail/objects.hpp>
#include <proofline/capi/detail/registry.hpp>

#include "capi_test_support.hpp"

namespace proofline::capi_test {

namespace {

namespace fs = std::filesystem;

/// The name the pipeline knows `key` by, as pl_key_name tells it (checked against the handle's own).
std::string name_of(const pl_key* key) {
  std::size_t needed = 0;
  CHECK(pl_key_name(key, nullptr, 0, &needed) == PL_ERR_BUFFER_TOO_SMALL);
  std::string name(needed, '\0');
  PL_REQUIRE_OK(pl_key_name(key, name.data(), name.size(), &needed));
  CHECK(name.back() == '\0');
  name.pop_back();
  CHECK(name == capi::lookup<capi::Key>(key, "key")->name);
  return name;
}

/// The fixture's key copied to `dir/circuit_final.zkey` (folders made), and its path.
std::string key_copy(const fs::path& dir) {
  fs::create_directories(dir);
  const fs::path file = dir / "circuit_final.zkey";
  fs::copy_file(fixture("circuit_final.zkey"), file, fs::copy_options::overwrite_existing);
  return file.string();
}

pl_key* add_file(pl_pipeline* pipeline, const std::string& path, const char* name = nullptr) {
  pl_key_options options{sizeof(pl_key_options), name, PL_POINTS_ON_CURVE};
  pl_key* key = nullptr;
  PL_REQUIRE_OK(pl_key_add_zkey_file(pipeline, path.c_str(), &options, &key));
  return key;
}

pl_key* add_memory(pl_pipeline* pipeline, const std::vector<char>& image, const char* name = nullptr) {
  pl_key_options options{sizeof(pl_key_options), name, PL_POINTS_ON_CURVE};
  pl_key* key = nullptr;
  PL_REQUIRE_OK(pl_key_add_zkey_memory(pipeline, image.data(), image.size(), &options, &key));
  return key;
}

/// The fixture's witness proved with `key`, and the proof verified.
void proves(const Prover& p, pl_key* key) {
  pl_job* job = nullptr;
  PL_REQUIRE_OK(pl_submit_wtns(p.pipeline, key, fixture("witness.wtns").c_str(), nullptr, &job));
  PL_REQUIRE_OK(pl_job_wait(job, -1));
  CHECK(pl_job_outcome(job) == PL_OK);
  CHECK(proof_verifies(job, p.vk));
  PL_REQUIRE_OK(pl_job_release(job));
}

struct TempDir {
  fs::path path = fs::temp_directory_path() / ("proofline-capi-names-" + std::to_string(::getpid()));
  TempDir() { fs::remove_all(path); }
  ~TempDir() { fs::remove_all(path); }
};

}  // namespace

TEST_CASE("capi/key names/keys of the same file name in other folders take their folders' names") {
  TempDir tmp;
  Prover p;  // the fixture's chain_16/circuit_final.zkey
  CHECK(name_of(p.key) == "circuit_final");
  pl_key* alice = add_file(p.pipeline, key_copy(tmp.path / "alice"));
  pl_key* bob = add_file(p.pipeline, key_copy(tmp.path / "bob"));
  pl_key* deeper = add_file(p.pipeline, key_copy(tmp.path / "more" / "alice"));
  CHECK(name_of(alice) == "alice/circuit_final");
  CHECK(name_of(bob) == "bob/circuit_final");
  CHECK(name_of(deeper) == "more/alice/circuit_final");
  proves(p, alice);
  proves(p, deeper);

  // The same file again, unnamed: no name would tell the two apart. Refused, naming it and how to name it.
  const std::string again = (tmp.path / "alice" / "circuit_final.zkey").string();
  pl_key* refused = nullptr;
  CHECK(pl_key_add_zkey_file(p.pipeline, again.c_str(), nullptr, &refused) == PL_ERR_INVALID_ARGUMENT);
  CHECK(refused == nullptr);
  const std::string said = pl_last_error_message();
  CHECK(said.find(again + ": a key of this file is registered already, as 'alice/circuit_final'") !=
        std::string::npos);
  CHECK(said.find("pl_key_options.name") != std::string::npos);
  // Named, it registers; a name a key holds is refused, even one derived from a path.
  pl_key* named = add_file(p.pipeline, again, "alice-again");
  CHECK(name_of(named) == "alice-again");
  pl_key_options taken{sizeof(pl_key_options), "bob/circuit_final", PL_POINTS_ON_CURVE};
  CHECK(pl_key_add_zkey_file(p.pipeline, again.c_str(), &taken, &refused) == PL_ERR_INVALID_ARGUMENT);
  CHECK(std::string(pl_last_error_message()).find("'bob/circuit_final' is registered already") !=
        std::string::npos);

  // A released key's name is free again.
  PL_REQUIRE_OK(pl_key_release(bob));
  bob = add_file(p.pipeline, key_copy(tmp.path / "bob"));
  CHECK(name_of(bob) == "bob/circuit_final");
  for (pl_key* key : {alice, bob, deeper, named}) PL_REQUIRE_OK(pl_key_release(key));
}

TEST_CASE("capi/key names/a name the caller gives wins over one from a file, and over key-N") {
  TempDir tmp;
  pl_config config = cpu_config();
  pl_pipeline* pipeline = nullptr;
  PL_REQUIRE_OK(pl_pipeline_create(&config, &pipeline));
  pl_key* named = add_file(pipeline, key_copy(tmp.path / "a"), "circuit_final");
  pl_key* from_file = add_file(pipeline, key_copy(tmp.path / "b"));
  CHECK(name_of(named) == "circuit_final");
  CHECK(name_of(from_file) == "b/circuit_final");

  std::ifstream in(fixture("circuit_final.zkey"), std::ios::binary);
  const std::vector<char> image{std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
  pl_key* first = add_memory(pipeline, image);
  pl_key* second_named = add_memory(pipeline, image, "key-2");
  pl_key* third = add_memory(pipeline, image);
  CHECK(name_of(first) == "key-1");
  CHECK(name_of(second_named) == "key-2");
  CHECK(name_of(third) == "key-3");
  for (pl_key* key : {named, from_file, first, second_named, third}) PL_REQUIRE_OK(pl_key_release(key));
  PL_REQUIRE_OK(pl_pipeline_destroy(pipeline));
}

}  // namespace proofline::capi_test
