// The known-trapdoor key cache, on either curve: the second request loads what the first one wrote, a stale
// or corrupt file (or one of the other curve) is made again rather than used.
#include <doctest/doctest.h>

#include <variant>

#include <proofline/groth16/key_cache.hpp>
#include <proofline/groth16/native_file.hpp>
#include <proofline/groth16/synthetic.hpp>
#include <proofline/groth16/zkey.hpp>
#include <proofline/groth16/zkey_writer.hpp>
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

TEST_CASE("groth16/key_cache/bn254 keys are cached as bn128 zkeys and never mistaken for the other curve's") {
  test::TempDir dir;
  const SyntheticOptions options{.log_size = 7, .num_public = 2, .seed = 31};
  const auto circuit = make_synthetic_circuit<Bn254>(options);
  const std::string name = synthetic_circuit_name(options);
  const KeyCacheRequest request{.directory = dir / "cache", .circuit_name = name, .trapdoor_seed = 4};

  bool loaded = true;
  const BasicKeyPair<Bn254> made = load_or_setup(circuit.cs, request, {}, &loaded);
  CHECK_FALSE(loaded);
  const auto path = bn254_key_cache_path(request, 7, digest(circuit.cs));
  CHECK(path.filename().string().starts_with(name + ".bn254.t4.n7.c"));
  CHECK(path.extension() == ".zkey");
  REQUIRE(std::filesystem::exists(path));
  // The file records its curve: the reader of either curve finds bn128 in it.
  CHECK(std::holds_alternative<BasicZkeyFile<Bn254>>(read_any_zkey(path)));

  const BasicKeyPair<Bn254> again = load_or_setup(circuit.cs, request, {}, &loaded);
  CHECK(loaded);
  CHECK(again.vk == made.vk);
  CHECK(std::equal(again.pk.h_query.begin(), again.pk.h_query.end(), made.pk.h_query.begin()));
  CHECK(std::equal(again.pk.b2_query.begin(), again.pk.b2_query.end(), made.pk.b2_query.begin()));
  CHECK(again.pk.delta2 == made.pk.delta2);

  // Another circuit under the same name has another digest, hence another file: made, not loaded.
  const auto other = make_synthetic_circuit<Bn254>({.log_size = 7, .num_public = 2, .seed = 32});
  load_or_setup(other.cs, request, {}, &loaded);
  CHECK_FALSE(loaded);
  CHECK(bn254_key_cache_path(request, 7, digest(other.cs)) != path);

  // The BLS12-381 key of the same circuit name and seed lives in its own file and is made, not taken from
  // the BN254 one; a BLS12-381 key put where the BN254 key belongs is not returned for a BN254 request.
  const auto bls_circuit = make_synthetic_circuit(options);
  const KeyPair bls =
      load_or_setup(bls_circuit.cs, request, SetupOptions{.convention = HConvention::snarkjs}, &loaded);
  CHECK_FALSE(loaded);
  write_zkey(path, bls.pk, bls.vk, bls_circuit.cs);
  const BasicKeyPair<Bn254> remade = load_or_setup(circuit.cs, request, {}, &loaded);
  CHECK_FALSE(loaded);
  CHECK(remade.vk == made.vk);
  CHECK(std::holds_alternative<BasicZkeyFile<Bn254>>(read_any_zkey(path)));

  // A corrupt file is replaced.
  auto bytes = test::read_bytes(path);
  bytes[bytes.size() - 100] ^= 0xff;
  test::write_bytes(path, bytes);
  load_or_setup(circuit.cs, request, {}, &loaded);
  CHECK_FALSE(loaded);
  load_or_setup(circuit.cs, request, {}, &loaded);
  CHECK(loaded);

  // Only snarkjs's H convention exists for BN254 keys.
  CHECK_THROWS_AS(
      load_or_setup(circuit.cs, request, BasicSetupOptions<Bn254>{.convention = HConvention::generator7}),
      Error);
}
