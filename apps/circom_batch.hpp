// Proving circom jobs with a snarkjs key through the pipeline: the shared core of `proofline prove`,
// `proofline batch` and `batch_prove --zkey`. Each witness comes from a .wtns file or is computed in-process
// from input JSON into the job's pinned slot; each proof is verified with the key's vk (when asked) and
// written, proof.json and public.json atomically, as soon as it is made. A bad witness or input fails its own
// job (a message naming the file and the problem) while the others are proven, unless fail_fast refuses the
// whole batch before proving.
#pragma once

#include <cstdint>
#include <filesystem>
#include <functional>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include <proofline/circom/generator_build.hpp>
#include <proofline/graph/config.hpp>
#include <proofline/graph/pipeline.hpp>
#include <proofline/groth16/zkey.hpp>
#include <proofline/util/log.hpp>

#include "circom_jobs.hpp"

namespace proofline::apps {

struct CircomBatch {
  std::string program = "proofline";  ///< prefixes every message
  std::filesystem::path zkey;
  groth16::PointCheck zkey_check = groth16::PointCheck::full;
  std::optional<std::filesystem::path>
      circuit;  ///< circom's CIRCUIT_cpp/ or CIRCUIT_js/, for jobs from input JSON
  circom::BuildOptions build;
  std::vector<CircomJobSpec> jobs;
  /// When set, makes the jobs once the key has been read (batch_prove names a broken key before a collision).
  std::function<std::vector<CircomJobSpec>()> make_jobs;
  graph::Config config;
  bool fail_fast = false;
  /// A witness or input found unusable before proving (not a .wtns, not JSON, unknown, missing or mis-sized
  /// signals) is unusable input, exit 2, instead of a failed job; inputs are checked against the circuit's
  /// signals, without running it, before proving. For proofline prove's one job: a circuit that the input
  /// does not satisfy still fails the job (exit 1).
  bool refuse_unusable = false;
  bool progress = true;
  bool quiet = false;         ///< no summary line (proofline prove)
  bool full_summary = false;  ///< the pipeline's report summary on stdout (batch_prove)
  log::Level log_level = log::Level::warn;
  std::optional<std::pair<graph::Stage, std::uint64_t>> fault;  ///< --inject-fault STAGE:I
  std::optional<std::filesystem::path> manifest;  ///< where the jobs were read from: no output may replace it
  std::optional<std::filesystem::path> report, trace;
  /// Register the key, print the memory plan (its JSON into `report`) and prove nothing (batch_prove --plan).
  bool plan_only = false;
};

/// 0 when every job gave a proof (verified, with config.verify) and it was written, 1 when some failed (each
/// named on stderr, then a summary), 128 + signal when stopped. Throws UnusableInput for a key, circuit,
/// option or output found unusable before the first proof (and, with fail_fast or refuse_unusable, a bad
/// witness or input).
int run_circom_batch(const CircomBatch& batch);

/// The pipeline of `config` for `b`'s jobs, with --inject-fault's hook when `b.fault` names one (the job
/// submitted I-th, from 0, fails in that stage). Throws OptionError for a stage the backend does not run.
graph::Pipeline make_batch_pipeline(const CircomBatch& b, graph::Config config);

}  // namespace proofline::apps
