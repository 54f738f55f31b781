// The known-trapdoor key cache: the second request loads what the first one wrote, and a stale or corrupt
// file is made again rather than used.
#include <doctest/doctest.h>

#include <proofline/groth16/key_cache.hpp>
#include <proofline/groth16/native_file.hpp>
#include <proofline/util/error.hpp>

#include "groth16/helpers.hpp"

using namespace proofline;
using namespace proofline::groth16;

TEST_CASE("groth16/key_cache/reuses, refreshes and repairs cached keys") {
  test::TempDir dir;
  const SyntheticOptions options{.log_size = 7, .num_public = 2, .seed = 31};
  const auto circuit = make_synthetic_circuit(options);
  const std::string name = synthetic_circuit_name(options);
  const KeyCacheRequest request{.directory = dir / "cache", .circuit_name = name, .trapdoor_seed = 4};
  const SetupOptions setup{.convention = HConvention::snarkjs};

  bool loaded = true;
  const KeyPair made = load_or_setup(circuit.cs, request, setup, &loaded);
  CHECK_FALSE(loaded);
  const auto path = key_cache_path(request, HConvention::snarkjs, 7);
  CHECK(path.filename().string() == name + ".snarkjs.t4.n7.plkey");
  REQUIRE(std::filesystem::exists(path));

  const KeyPair again = load_or_setup(circuit.cs, request, setup, &loaded);
  CHECK(loaded);
  CHECK(again.vk == made.vk);
  CHECK(std::equal(again.pk.h_query.begin(), again.pk.h_query.end(), made.pk.h_query.begin()));
  CHECK(again.pk.delta2 == made.pk.delta2);

  // Another circuit under the same name: the digest differs, so the key is made again.
  const auto other = make_synthetic_circuit({.log_size = 7, .num_public = 2, .seed = 32});
  const KeyPair remade = load_or_setup(other.cs, request, setup, &loaded);
  CHECK_FALSE(loaded);
  CHECK(load_proving_key(path).value.circuit_digest == digest(other.cs));
  CHECK(remade.vk.ic.size() == 3);

  // A corrupt file is replaced.
  auto bytes = test::read_bytes(path);
  bytes[bytes.size() - 10] ^= 0xff;
  test::write_bytes(path, bytes);
  load_or_setup(other.cs, request, setup, &loaded);
  CHECK_FALSE(loaded);
  CHECK_NOTHROW(load_proving_key(path));

  // Different trapdoor seeds and conventions live in different files.
  CHECK(key_cache_path(
            {.directory = dir.path(), .circuit_name = name, .trapdoor_seed = 5, .random_gamma = true},
            HConvention::generator7, 7)
            .filename()
            .string() == name + ".generator7.t5.g.n7.plkey");
  CHECK_THROWS_AS(
      key_cache_path({.directory = dir.path(), .circuit_name = "../escape"}, HConvention::snarkjs, 7), Error);
  CHECK_THROWS_AS(key_cache_path({.directory = dir.path(), .circuit_name = ""}, HConvention::snarkjs, 7),
                  Error);
}
