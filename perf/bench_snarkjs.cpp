// bench_snarkjs: proofline's side of the snarkjs comparison (perf/snarkjs_vs_proofline.sh runs snarkjs on the
// same key and witness in the same run): how long reading the .zkey takes at each point-check level, and the
// CPU prover's time per proof from .zkey + .wtns, split into synthesis, H and the five MSMs. Every proof is
// verified.
//
//   bench_snarkjs --zkey KEY.zkey --wtns W.wtns [--runs 3] [--json FILE] [--proof-out DIR]
//
// --proof-out writes the last proof as DIR/proof.json and DIR/public.json (so snarkjs can verify it too).
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <exception>
#include <fstream>
#include <string>
#include <vector>

#include <proofline/groth16/prover.hpp>
#include <proofline/groth16/snarkjs_jobs.hpp>
#include <proofline/groth16/verifier.hpp>
#include <proofline/groth16/wtns.hpp>
#include <proofline/groth16/zkey.hpp>

namespace {

using namespace proofline;
using namespace proofline::groth16;
using Clock = std::chrono::steady_clock;

double since(Clock::time_point start) {
  return std::chrono::duration<double>(Clock::now() - start).count();
}

int run(int argc, char** argv) {
  std::string zkey, wtns, json_path, proof_out;
  int runs = 3;
  for (int i = 1; i + 1 < argc; i += 2) {
    const std::string arg = argv[i];
    if (arg == "--zkey")
      zkey = argv[i + 1];
    else if (arg == "--wtns")
      wtns = argv[i + 1];
    else if (arg == "--runs")
      runs = std::max(1, std::stoi(argv[i + 1]));
    else if (arg == "--json")
      json_path = argv[i + 1];
    else if (arg == "--proof-out")
      proof_out = argv[i + 1];
    else
      throw std::runtime_error("unknown option " + arg);
  }
  if (zkey.empty() || wtns.empty()) {
    std::fputs(
        "usage: bench_snarkjs --zkey KEY.zkey --wtns W.wtns [--runs 3] [--json FILE] [--proof-out DIR]\n",
        stderr);
    return 2;
  }
  // The page cache is warm after the first read: measure the cheap levels first, then full, then the key we
  // use.
  double load_trusted = 0, load_curve = 0, load_full = 0;
  for (const auto& [level, out] :
       {std::pair{PointCheck::trusted, &load_trusted}, std::pair{PointCheck::on_curve, &load_curve}}) {
    const auto start = Clock::now();
    const ZkeyFile key = read_zkey(zkey, ZkeyOptions{.points = level});
    *out = since(start);
  }
  auto start = Clock::now();
  const ZkeyFile key = read_zkey(zkey, ZkeyOptions{.points = PointCheck::full});
  load_full = since(start);
  start = Clock::now();
  const std::vector<Fr> z = read_wtns(wtns);
  const double wtns_s = since(start);
  const PreparedVerifyingKey pvk = prepare(key.vk);
  const std::vector<Fr> inputs(z.begin() + 1, z.begin() + 1 + static_cast<std::ptrdiff_t>(key.pk.num_public));

  std::vector<ProveTimings> timings(static_cast<std::size_t>(runs));
  Proof proof;
  for (auto& t : timings) {
    proof = prove(key.pk, key.cs, z, ProveOptions{}, &t);
    if (!verify(pvk, inputs, proof)) throw std::runtime_error("a proof did not verify");
  }
  if (!proof_out.empty()) write_snarkjs_outputs(proof_out, "proofline", proof, inputs);
  std::vector<double> totals;
  for (const auto& t : timings) totals.push_back(t.total_s);
  std::sort(totals.begin(), totals.end());
  const double median = totals[totals.size() / 2];
  const ProveTimings& t = *std::min_element(
      timings.begin(), timings.end(), [](const auto& a, const auto& b) { return a.total_s < b.total_s; });
  std::printf(
      "bench_snarkjs: 2^%u domain, %llu variables: zkey read %.3f s (trusted) %.3f s (curve) %.3f s (full), "
      "wtns %.3f s; prove median %.3f s of %d (best: synth %.3f H %.3f A %.3f B1 %.3f B2 %.3f L %.3f "
      "H-MSM %.3f)\n",
      key.pk.log_domain_size, static_cast<unsigned long long>(key.pk.num_variables), load_trusted, load_curve,
      load_full, wtns_s, median, runs, t.synthesis_s, t.h_s, t.msm_a_s, t.msm_b1_s, t.msm_b2_s, t.msm_l_s,
      t.msm_h_s);
  if (!json_path.empty()) {
    std::ofstream out(json_path);
    out << "{\"log_domain\": " << key.pk.log_domain_size << ", \"num_variables\": " << key.pk.num_variables
        << ", \"zkey_read_trusted_s\": " << load_trusted << ", \"zkey_read_curve_s\": " << load_curve
        << ", \"zkey_read_full_s\": " << load_full << ", \"wtns_read_s\": " << wtns_s
        << ", \"prove_median_s\": " << median << ", \"prove_runs_s\": [";
    for (std::size_t i = 0; i < totals.size(); ++i) out << (i ? ", " : "") << timings[i].total_s;
    out << "], \"best\": {\"synthesis_s\": " << t.synthesis_s << ", \"h_s\": " << t.h_s
        << ", \"msm_a_s\": " << t.msm_a_s << ", \"msm_b1_s\": " << t.msm_b1_s
        << ", \"msm_b2_s\": " << t.msm_b2_s << ", \"msm_l_s\": " << t.msm_l_s
        << ", \"msm_h_s\": " << t.msm_h_s << "}}\n";
  }
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  try {
    return run(argc, argv);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "bench_snarkjs: %s\n", e.what());
    return 1;
  }
}
