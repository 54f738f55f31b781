// batch_prove's command line: what to prove, on which backend, with which resources, and what to write.
#pragma once

#include <cstdint>
#include <filesystem>
#include <optional>
#include <utility>
#include <vector>

#include <proofline/arith/curves.hpp>
#include <proofline/graph/config.hpp>
#include <proofline/groth16/zkey.hpp>
#include <proofline/util/log.hpp>

namespace proofline::apps {

struct BatchOptions {
  // The synthetic workload.
  /// --synthetic: each key's circuit has 2^sizes[k mod sizes.size()] rows.
  std::vector<unsigned> sizes{};  ///< empty until parsed: {12} unless given
  /// The largest of them (the device slots are sized for it).
  unsigned log2 = 12;
  std::uint64_t count = 0;  ///< 0 until parsed: 8 unless given
  std::uint64_t seed = 1;
  CurveId curve = CurveId::bls12_381;  ///< --curve: the synthetic circuit's (a .zkey names its own)
  /// --keys: distinct synthetic circuits (seeds seed, seed + 1, ...); job i is key i mod keys's. At least
  /// one per size.
  unsigned keys = 1;
  /// --key-gpus: where each key's SRS lives on the CUDA backend.
  enum class KeyPlacement { every_gpu, spread } key_placement = KeyPlacement::every_gpu;
  std::optional<std::filesystem::path> key_cache;
  bool presynthesize = false;
  /// --export-snarkjs DIR: write the key and the witnesses in snarkjs's formats, prove nothing.
  std::optional<std::filesystem::path> export_snarkjs;

  // The snarkjs workload, instead: --zkey KEY.zkey --wtns A.wtns ...
  std::optional<std::filesystem::path> zkey;
  std::vector<std::filesystem::path> wtns;
  groth16::PointCheck zkey_check = groth16::PointCheck::full;

  graph::Config config;
  /// One run of the batch per --mode entry, one after the other, with the same keys.
  struct Run {
    graph::Mode mode = graph::Mode::pinned;
    bool presynthesized = false;
  };
  std::vector<Run> runs{Run{}};

  std::optional<std::filesystem::path> out, report, trace, timeline;
  bool h2d_probe = false;
  /// --plan: register the keys, print the memory plan (--report: its JSON) and exit without proving.
  bool plan = false;
  log::Level log_level = log::Level::warn;
  bool progress = true;
  /// --inject-fault STAGE:I: fail the I-th job (from 0) in STAGE.
  std::optional<std::pair<graph::Stage, std::uint64_t>> fault;
};

/// The options of `argv`; none after printing --help. Throws OptionError for anything unusable.
std::optional<BatchOptions> parse_batch_options(int argc, const char* const* argv);

}  // namespace proofline::apps
