#include "snarkjs_export.hpp"

#include <chrono>
#include <cstdio>
#include <filesystem>
#include <span>
#include <string>
#include <system_error>
#include <vector>

#include <proofline/cuda/device.hpp>
#include <proofline/groth16/snarkjs_json.hpp>
#include <proofline/groth16/synthetic.hpp>
#include <proofline/groth16/wtns.hpp>
#include <proofline/groth16/zkey_writer.hpp>
#include <proofline/util/size.hpp>

#include "batch_common.hpp"
#include "synthetic_keys.hpp"

namespace proofline::apps {

namespace {

namespace fs = std::filesystem;
using Clock = std::chrono::steady_clock;

double seconds_since(Clock::time_point start) {
  return std::chrono::duration<double>(Clock::now() - start).count();
}

std::string witness_name(std::uint64_t index) {
  char buffer[40];
  std::snprintf(buffer, sizeof buffer, "witness-%06llu.wtns", static_cast<unsigned long long>(index));
  return buffer;
}

/// Where the keys' fixed-base multiplications run: the GPU when one is usable (or asked for), else the CPU.
graph::Backend key_backend(const BatchOptions& o) {
  if (o.config.backend == graph::Backend::cpu) return graph::Backend::cpu;
  if (cuda::device_count() > 0) return graph::Backend::cuda;
  if (o.config.backend == graph::Backend::cuda) {
    const std::string unusable = cuda::unusable_devices_summary();
    throw UnusableInput("--backend cuda: no usable CUDA device to make the keys with" +
                        (unusable.empty() ? std::string{} : " (" + unusable + ")"));
  }
  return graph::Backend::cpu;
}

/// The keys only: no presynthesized jobs, no H2D probe, whatever else the command line asked for.
template <class Curve>
SyntheticSetup<Curve> make_keys(const BatchOptions& o) {
  BatchOptions keys_only = o;
  keys_only.presynthesize = false;
  keys_only.h2d_probe = false;
  for (auto& run : keys_only.runs) run.presynthesized = false;
  return setup_step([&] { return make_synthetic_setup<Curve>(keys_only, o.config, key_backend(o)); });
}

void make_directory(const fs::path& dir) {
  std::error_code error;
  fs::create_directories(dir, error);
  if (error || !fs::is_directory(dir))
    throw UnusableInput("--export-snarkjs: cannot create directory '" + dir.string() +
                        "': " + (error ? error.message() : "not a directory"));
}

/// The key (a .zkey of Curve: bls12381 or bn128), its verifying key and the witnesses.
template <class Curve>
int export_curve(const BatchOptions& o) {
  using F = typename Curve::Fr;
  const fs::path& dir = *o.export_snarkjs;
  make_directory(dir);
  const SyntheticSetup<Curve> s = make_keys<Curve>(o);
  const fs::path zkey = dir / "circuit.zkey";
  auto start = Clock::now();
  setup_step([&] {
    groth16::write_zkey(zkey, *s.pk, *s.vk, *s.cs);
    groth16::write_snarkjs_verifying_key(dir / "verification_key.json", *s.vk);
  });
  const double keys_written_s = seconds_since(start);
  start = Clock::now();
  std::uint64_t witness_bytes = 0;
  for (std::uint64_t i = 0; i < o.count; ++i) {
    if (stop_signal() != 0) return 0;  // main reports the signal
    const std::vector<F> z = groth16::synthetic_witness(*s.cs, s.circuit_options, witness_seed(o, i));
    const fs::path path = dir / witness_name(i);
    setup_step([&] { groth16::write_wtns(path, std::span<const F>(z)); });
    witness_bytes = fs::file_size(path);
  }
  std::printf(
      "batch_prove: wrote a 2^%u-row %s key (%s; keys %s in %.2f s, circuit.zkey and verification_key.json "
      "written in %.2f s) and %llu witnesses (%s each, %.2f s) to %s; no proofs made\n",
      o.log2, std::string(Curve::snarkjs_name).c_str(), format_size(fs::file_size(zkey)).c_str(),
      s.loaded ? "loaded" : "made", s.setup_s, keys_written_s, static_cast<unsigned long long>(o.count),
      format_size(witness_bytes).c_str(), seconds_since(start), dir.string().c_str());
  return 0;
}

}  // namespace

int export_snarkjs(const BatchOptions& o) {
  return with_curve(o.curve, [&]<class Curve>() { return export_curve<Curve>(o); });
}

}  // namespace proofline::apps
