// A disk cache of known-trapdoor keys (tests and benchmarks ONLY, see setup.hpp): setup of a 2^20 key takes
// minutes on a small machine, loading it from the native format takes a second.
//
// A key file is named by what determines it and records its curve:
// - BLS12-381: "<circuit name>.<convention>.t<trapdoor seed>[.g].n<log2 n>.plkey" (".g" for a random γ), in
//   the native format (BLS12-381's only), which records digest(cs);
// - BN254: "<circuit name>.bn254.t<trapdoor seed>[.g].n<log2 n>.c<digest(cs), 16 hex digits>.zkey", a snarkjs
//   .zkey (native files are BLS12-381's; BN254 keys are in snarkjs's H convention, the only one its domains
//   have), whose header names the curve; a .zkey has no field for the digest, so the name carries it.
// A cached key is used only for the very circuit and curve it was made for (a file of the other curve at
// the path is not a key of this one: it is made again); a missing, stale or corrupt file is (re)made and
// written atomically.
#pragma once

#include <cstdint>
#include <filesystem>
#include <string_view>

#include <proofline/groth16/constraint_system.hpp>
#include <proofline/groth16/setup.hpp>

namespace proofline::groth16 {

struct KeyCacheRequest {
  std::filesystem::path directory;  ///< created if missing
  std::string_view circuit_name;    ///< e.g. synthetic_circuit_name(options); [A-Za-z0-9._-] only
  std::uint64_t trapdoor_seed = 1;
  bool random_gamma = false;
};

std::filesystem::path key_cache_path(const KeyCacheRequest& request, HConvention convention,
                                     unsigned log_domain_size);

/// The keys of cs for trapdoor_from_seed(trapdoor_seed, random_gamma) and options (convention, domain, fixed
/// base, timings: the timings are left untouched when the key is loaded), from the cache or made and cached.
/// `loaded` (optional) tells which happened.
KeyPair load_or_setup(const ConstraintSystem& cs, const KeyCacheRequest& request,
                      const SetupOptions& options = {}, bool* loaded = nullptr);

std::filesystem::path bn254_key_cache_path(const KeyCacheRequest& request, unsigned log_domain_size,
                                           std::uint64_t circuit_digest);

/// The same for BN254 (options.convention must be snarkjs's, BN254's only one).
BasicKeyPair<Bn254> load_or_setup(const BasicConstraintSystem<Bn254>& cs, const KeyCacheRequest& request,
                                  const BasicSetupOptions<Bn254>& options = {}, bool* loaded = nullptr);

}  // namespace proofline::groth16
