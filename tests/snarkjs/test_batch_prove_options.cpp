// batch_prove's options through the shared parser: every malformed or absurd value is exit code 2 with one
// line naming the option and the problem, before anything is set up; both spellings of a value work.
#include <doctest/doctest.h>

#include <algorithm>
#include <string>
#include <thread>

#include "snarkjs/helpers.hpp"
#include "support/run_program.hpp"

using namespace proofline;
using namespace proofline::snarkjs_test;

namespace {

using Outcome = test_support::ProgramOutcome;

Outcome batch_prove(const std::string& args) {
  return test_support::run_program(PROOFLINE_BATCH_PROVE, "--no-progress " + args);
}

/// Exit code 2, nothing on stdout, and exactly `line` on stderr.
void check_refused(const std::string& args, const std::string& line) {
  CAPTURE(args);
  const Outcome o = batch_prove(args);
  CHECK(o.code == 2);
  CHECK(o.err == line + "\n");
  CHECK(o.out.empty());
}

}  // namespace

TEST_CASE("apps/batch_prove/malformed numbers and sizes are one clear line and exit 2") {
  check_refused("--host-budget .", "batch_prove: --host-budget: '.' is not a size (examples: 512M, 64G)");
  check_refused("--vram-budget=1.2.3G",
                "batch_prove: --vram-budget: '1.2.3G' is not a size: more than one decimal point");
  check_refused("--srs-buffer 12X",
                "batch_prove: --srs-buffer: '12X' is not a size: unknown unit 'X' (use K, M, G, T or P)");
  check_refused("--host-budget 0", "batch_prove: --host-budget: 0 is less than 1 B");
  check_refused("--host-budget 2P", "batch_prove: --host-budget: 2P is absurd (more than 1.00 PiB)");
  check_refused("--count 1e3", "batch_prove: --count: '1e3' is not a number");
  check_refused("--count -1", "batch_prove: --count: '-1' is not a number");
  check_refused("--seed 99999999999999999999",
                "batch_prove: --seed: 99999999999999999999 is outside 0..9223372036854775807");
  check_refused("--gpus 0,,1", "batch_prove: --gpus: an empty item in '0,,1'");
  check_refused("--gpus 0,x", "batch_prove: --gpus: 'x' is not a number");
  check_refused("--job-timeout 8d", "batch_prove: --job-timeout: '8d' is not a number");
  check_refused("--job-timeout 604800001",
                "batch_prove: --job-timeout: 604800001 is outside 0..604800000 (7 days)");
  check_refused("--device-slots 65", "batch_prove: --device-slots: 65 is outside 1..64");
  check_refused("--zkey-check maybe",
                "batch_prove: --zkey-check: expected full, curve or trusted, got 'maybe'");
  check_refused("--inject-fault msm", "batch_prove: --inject-fault: expected STAGE:INDEX, got 'msm'");
  check_refused("--inject-fault msm:x", "batch_prove: --inject-fault: 'x' is not a number");
  check_refused(
      "--log-level loud",
      "batch_prove: --log-level: unknown log level 'loud' (use trace, debug, info, warn, error or off)");
  check_refused("--out", "batch_prove: --out needs a value");
  check_refused("--wtns", "batch_prove: --wtns needs a value");
  check_refused("--wtns a.wtns", "batch_prove: --wtns needs a key (--zkey KEY.zkey)");
  // A second key would silently replace the first: every witness would be proved with it.
  check_refused("--zkey a/circuit_final.zkey --zkey b/circuit_final.zkey --wtns w.wtns",
                "batch_prove: --zkey: given twice (a/circuit_final.zkey, b/circuit_final.zkey): batch_prove "
                "proves with one key a run");
  check_refused("--verify=no", "batch_prove: --verify takes no value");
  check_refused("stray", "batch_prove: unexpected argument 'stray' (see --help)");
}

TEST_CASE("apps/batch_prove/thread counts stop at 4x the hardware threads and say why") {
  const unsigned hardware = std::max(1u, std::thread::hardware_concurrency());
  const std::string bound = "1.." + std::to_string(4 * hardware) + " (at most 4x the " +
                            std::to_string(hardware) + " hardware thread" + (hardware == 1 ? "" : "s") + ")";
  check_refused("--threads 4096", "batch_prove: --threads: 4096 is outside " + bound);
  check_refused("--synth-threads=" + std::to_string(4 * hardware + 1),
                "batch_prove: --synth-threads: " + std::to_string(4 * hardware + 1) + " is outside " + bound);
  check_refused("--threads 0", "batch_prove: --threads: 0 is outside " + bound);
}

TEST_CASE("apps/batch_prove/values in --name=value form work as --name value does") {
  // --job-timeout 0 is no limit, as it is for `proofline batch`.
  const Outcome o =
      batch_prove("--backend=cpu --synthetic=8 --count=2 --threads=2 --seed=5 --verify --job-timeout=0");
  INFO(o.out << o.err);
  CHECK(o.code == 0);
  CHECK(contains(o.out, "batch_prove: 2 jobs of 2^8 rows on the cpu backend"));
  CHECK(contains(o.out, "proofs 2/2 (verified 2)"));
}

TEST_CASE("apps/batch_prove/help is generated from the options, grouped, with the exit codes") {
  const Outcome o = batch_prove("--count 3 --help --frobnicate");
  CHECK(o.code == 0);
  CHECK(o.err.empty());
  CHECK(o.out.starts_with("usage: batch_prove [options]\n"));
  std::size_t at = 0;
  for (const char* group : {"\nworkload\n", "\nsnarkjs (circom) keys", "\nbackend\n", "\nresources\n",
                            "\noutput\n", "\ntesting\n", "\n  --help ", "\nExit codes: 0 every proof made"}) {
    CAPTURE(group);
    const std::size_t found = o.out.find(group, at);
    CHECK(found != std::string::npos);
    at = found == std::string::npos ? at : found;
  }
  CHECK(contains(o.out, "  --host-budget SIZE      host memory for keys and pinned slots"));
  CHECK(contains(o.out, "  --zkey-check full|curve|trusted\n"));
}
