// bench_snarkjs: proofline's side of the snarkjs comparison (perf/snarkjs_vs_proofline.sh runs snarkjs on the
// same key and witness in the same run): how long reading the .zkey takes at each point-check level, and the
// CPU prover's time per proof from .zkey + .wtns, split into synthesis, H and the five MSMs. The curve (bn128
// or bls12381) is the key's: the first, trusted read takes it from the file's header and the rest runs as a
// template over that curve. Every proof is verified.
//
//   bench_snarkjs --zkey KEY.zkey --wtns W.wtns [--runs 3] [--json FILE] [--proof-out DIR] [--no-key-cache]
//
// --proof-out writes the last proof as DIR/proofline.proof.json and DIR/proofline.public.json (so snarkjs can
// verify it too). --no-key-cache makes the full read check every subgroup again, as a first load of the key
// does, instead of finding the record a previous full read left (key_check.hpp).
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <exception>
#include <fstream>
#include <optional>
#include <stdexcept>
#include <string>
#include <variant>
#include <vector>

#include <proofline/arith/curves.hpp>
#include <proofline/groth16/prover.hpp>
#include <proofline/groth16/snarkjs_jobs.hpp>
#include <proofline/groth16/snarkjs_json.hpp>
#include <proofline/groth16/verifier.hpp>
#include <proofline/groth16/wtns.hpp>
#include <proofline/groth16/zkey.hpp>
#include <proofline/util/options.hpp>

namespace {

using namespace proofline;
using namespace proofline::groth16;
using Clock = std::chrono::steady_clock;

double since(Clock::time_point start) {
  return std::chrono::duration<double>(Clock::now() - start).count();
}

struct Options {
  std::string zkey, wtns, json_path, proof_out;
  int runs = 3;
  bool no_key_cache = false;
};

/// The options; none after printing --help. Throws OptionError for anything unusable.
std::optional<Options> parse_options(int argc, char** argv) {
  Options o;
  OptionParser cli(
      "bench_snarkjs",
      "usage: bench_snarkjs --zkey KEY.zkey --wtns W.wtns [--runs 3] [--json FILE] [--proof-out DIR] "
      "[--no-key-cache]",
      "proofline's .zkey read times and CPU prove time per proof from .zkey + .wtns (bn128 or "
      "bls12381, as the key says), every proof verified.");
  cli.text("--zkey", "KEY.zkey", "a snarkjs Groth16 key for bn128 or bls12381 (required)", o.zkey);
  cli.text("--wtns", "W.wtns", "its witness (required)", o.wtns);
  cli.integer("--runs", "N", "timed proofs (default 3)", o.runs, Bounds<int>{1, 1000});
  cli.text("--json", "FILE", "write the figures as JSON too", o.json_path);
  cli.text("--proof-out", "DIR",
           "write the last proof as DIR/proofline.proof.json and DIR/proofline.public.json", o.proof_out);
  cli.flag("--no-key-cache",
           "full read: check every subgroup, ignoring (and not writing) checked-key records", o.no_key_cache);
  if (!cli.parse(argc, argv)) return std::nullopt;
  if (o.zkey.empty() || o.wtns.empty()) throw OptionError("--zkey and --wtns are required");
  if (!o.json_path.empty()) check_output_file_option("--json", o.json_path);
  if (!o.proof_out.empty()) check_output_file_option("--proof-out", o.proof_out + "/proofline.proof.json");
  return o;
}

/// The key's curve, from a read at the trusted level (header points and sizes still checked in full), and
/// that read's seconds.
struct CurveRead {
  CurveId curve = CurveId::bls12_381;
  double trusted_s = 0;
};

CurveRead read_curve(const std::string& path) {
  const auto start = Clock::now();
  const AnyZkeyFile key = read_any_zkey(path, ZkeyOptions{.points = PointCheck::trusted});
  return {std::holds_alternative<BasicZkeyFile<Bn254>>(key) ? CurveId::bn254 : CurveId::bls12_381,
          since(start)};
}

/// Seconds to read the key at each point-check level. The page cache is warm after the first read: the cheap
/// levels first, then full, which gives the key proved with.
template <class Curve>
struct KeyReads {
  double trusted_s = 0, curve_s = 0, full_s = 0;
  BasicZkeyFile<Curve> key;
};

template <class Curve>
KeyReads<Curve> read_key(const Options& o, double trusted_s) {
  KeyReads<Curve> reads;
  reads.trusted_s = trusted_s;
  auto start = Clock::now();
  (void)read_zkey<Curve>(o.zkey, ZkeyOptions{.points = PointCheck::on_curve});
  reads.curve_s = since(start);
  ZkeyOptions full{.points = PointCheck::full};
  full.key_check.use_cache = !o.no_key_cache;
  start = Clock::now();
  reads.key = read_zkey<Curve>(o.zkey, full);
  reads.full_s = since(start);
  return reads;
}

struct Proving {
  double wtns_s = 0;
  std::vector<ProveTimings> runs;
  double median_s = 0;
  ProveTimings best;
};

/// `runs` proofs, each verified; the last one written to `proof_out` when given.
template <class Curve>
Proving prove_runs(const Options& o, const BasicZkeyFile<Curve>& key) {
  using Fr = typename Curve::Fr;
  Proving p;
  const auto start = Clock::now();
  const std::vector<Fr> z = read_wtns<Fr>(o.wtns);
  p.wtns_s = since(start);
  const BasicPreparedVerifyingKey<Curve> pvk = prepare(key.vk);
  const std::vector<Fr> inputs(z.begin() + 1, z.begin() + 1 + static_cast<std::ptrdiff_t>(key.pk.num_public));
  p.runs.resize(static_cast<std::size_t>(o.runs));
  BasicProof<Curve> proof;
  for (auto& t : p.runs) {
    proof = prove(key.pk, key.cs, z, BasicProveOptions<Curve>{}, &t);
    if (!verify(pvk, inputs, proof)) throw std::runtime_error("a proof did not verify");
  }
  if (!o.proof_out.empty()) {
    const SnarkjsOutputs paths = snarkjs_output_paths(o.proof_out, "proofline");
    write_snarkjs_public(paths.public_inputs, inputs);
    write_snarkjs_proof(paths.proof, proof);
  }
  std::vector<double> totals;
  for (const auto& t : p.runs) totals.push_back(t.total_s);
  std::sort(totals.begin(), totals.end());
  const std::size_t n = totals.size();  // the middle run, or the mean of the two middle ones
  p.median_s = n % 2 == 1 ? totals[n / 2] : 0.5 * (totals[n / 2 - 1] + totals[n / 2]);
  p.best = *std::min_element(p.runs.begin(), p.runs.end(),
                             [](const auto& a, const auto& b) { return a.total_s < b.total_s; });
  return p;
}

template <class Curve>
void print(const KeyReads<Curve>& r, const Proving& p) {
  const ProveTimings& t = p.best;
  std::printf(
      "bench_snarkjs: %s, 2^%u domain, %llu variables: zkey read %.3f s (trusted) %.3f s (curve) %.3f s "
      "(full%s), "
      "wtns %.3f s; prove median %.3f s of %zu (best: synth %.3f H %.3f A %.3f B1 %.3f B2 %.3f L %.3f "
      "H-MSM %.3f)\n",
      std::string(Curve::name).c_str(), r.key.pk.log_domain_size,
      static_cast<unsigned long long>(r.key.pk.num_variables), r.trusted_s, r.curve_s, r.full_s,
      r.key.key_check.from_cache ? ", subgroups from the cache" : "", p.wtns_s, p.median_s, p.runs.size(),
      t.synthesis_s, t.h_s, t.msm_a_s, t.msm_b1_s, t.msm_b2_s, t.msm_l_s, t.msm_h_s);
}

template <class Curve>
void write_json(const std::string& path, const KeyReads<Curve>& r, const Proving& p) {
  std::ofstream out(path);
  const KeyCheckReport& kc = r.key.key_check;
  out << "{\"curve\": \"" << Curve::snarkjs_name << "\", \"log_domain\": " << r.key.pk.log_domain_size
      << ", \"num_variables\": " << r.key.pk.num_variables << ", \"zkey_read_trusted_s\": " << r.trusted_s
      << ", \"zkey_read_curve_s\": " << r.curve_s << ", \"zkey_read_full_s\": " << r.full_s
      << ", \"key_check\": {\"subgroups_checked\": " << (kc.subgroups_checked ? "true" : "false")
      << ", \"from_cache\": " << (kc.from_cache ? "true" : "false") << ", \"check_s\": " << kc.check_seconds
      << "}, \"wtns_read_s\": " << p.wtns_s << ", \"prove_median_s\": " << p.median_s
      << ", \"prove_runs_s\": [";
  for (std::size_t i = 0; i < p.runs.size(); ++i) out << (i ? ", " : "") << p.runs[i].total_s;
  const ProveTimings& t = p.best;
  out << "], \"best\": {\"synthesis_s\": " << t.synthesis_s << ", \"h_s\": " << t.h_s
      << ", \"msm_a_s\": " << t.msm_a_s << ", \"msm_b1_s\": " << t.msm_b1_s
      << ", \"msm_b2_s\": " << t.msm_b2_s << ", \"msm_l_s\": " << t.msm_l_s << ", \"msm_h_s\": " << t.msm_h_s
      << "}}\n";
  if (!out) throw std::runtime_error("cannot write " + path);
}

template <class Curve>
int run_curve(const Options& o, double trusted_s) {
  const KeyReads<Curve> reads = read_key<Curve>(o, trusted_s);
  const Proving proving = prove_runs(o, reads.key);
  print(reads, proving);
  if (!o.json_path.empty()) write_json(o.json_path, reads, proving);
  return 0;
}

int run(const Options& o) {
  const CurveRead first = read_curve(o.zkey);
  return with_curve(first.curve, [&]<class Curve>() { return run_curve<Curve>(o, first.trusted_s); });
}

}  // namespace

int main(int argc, char** argv) {
  return run_with_options(
      "bench_snarkjs", [&] { return parse_options(argc, argv); }, run);
}
