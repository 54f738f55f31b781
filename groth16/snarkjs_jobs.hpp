// The pieces a batch tool needs to prove circom witnesses with a snarkjs key and leave snarkjs's files behind
// (batch_prove --zkey KEY.zkey --wtns A.wtns B.wtns ... --out DIR): one job per witness file, checked against
// the key before anything is proved, and the outputs DIR/A.proof.json and DIR/A.public.json.
#pragma once

#include <cstdint>
#include <filesystem>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include <proofline/arith/curves.hpp>
#include <proofline/arith/fr.hpp>
#include <proofline/groth16/constraint_system.hpp>
#include <proofline/groth16/proof.hpp>
#include <proofline/groth16/proving_key.hpp>
#include <proofline/groth16/verifying_key.hpp>
#include <proofline/groth16/zkey.hpp>

namespace proofline::groth16 {

/// A .zkey loaded for sharing: what a pipeline key spec takes (pk, cs, vk), named after the file.
template <class Curve>
struct BasicSnarkjsKey {
  std::string name;  ///< the file name without ".zkey"
  ZkeyHeader header;
  std::shared_ptr<const BasicProvingKey<Curve>> pk;
  std::shared_ptr<const BasicConstraintSystem<Curve>> cs;
  std::shared_ptr<const BasicVerifyingKey<Curve>> vk;
};
using SnarkjsKey = BasicSnarkjsKey<Bls12_381>;
/// A key of the curve its file names.
using AnySnarkjsKey = std::variant<BasicSnarkjsKey<Bls12_381>, BasicSnarkjsKey<Bn254>>;

/// read_zkey(path, options), split into shared parts (BLS12-381: a key of the other curve is refused).
SnarkjsKey load_snarkjs_key(const std::filesystem::path& zkey, const ZkeyOptions& options = {});
/// read_any_zkey(path, options), split into shared parts: the curve from the file.
AnySnarkjsKey load_any_snarkjs_key(const std::filesystem::path& zkey, const ZkeyOptions& options = {});

struct WtnsJob {
  std::filesystem::path wtns;
  std::string name;  ///< the file name without ".wtns": "A" for dir/A.wtns
};

/// "A" for ".../A.wtns"; a name without that extension is kept whole.
std::string wtns_job_name(const std::filesystem::path& wtns);

/// One job per file, in order. Checks each file in full (check_wtns: the key's `curve`, every value below r,
/// z[0] = 1), against the key (`num_variables` values), and that no two files give the same name (their
/// outputs would overwrite each other). Throws Error(bad_input, "<file>: <what is wrong>") naming `key_name`
/// on a mismatch.
std::vector<WtnsJob> plan_wtns_jobs(std::span<const std::filesystem::path> files, std::uint64_t num_variables,
                                    std::string_view key_name, CurveId curve = CurveId::bls12_381);

struct SnarkjsOutputs {
  std::filesystem::path proof;          ///< DIR/<name>.proof.json
  std::filesystem::path public_inputs;  ///< DIR/<name>.public.json
};

SnarkjsOutputs snarkjs_output_paths(const std::filesystem::path& dir, std::string_view name);

/// Writes both files (snarkjs's formats, atomically) and returns their paths. Throws Error(io).
SnarkjsOutputs write_snarkjs_outputs(const std::filesystem::path& dir, std::string_view name,
                                     const Proof& proof, std::span<const Fr> public_inputs);
/// The same for a BN254 proof (its proof.json names curve "bn128").
SnarkjsOutputs write_snarkjs_outputs(const std::filesystem::path& dir, std::string_view name,
                                     const BasicProof<Bn254>& proof,
                                     std::span<const bn254::Fr> public_inputs);

}  // namespace proofline::groth16
