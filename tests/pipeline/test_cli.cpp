// batch_prove as a program: exit code 0 when every proof is made, 1 when a job fails, 2 with one clear line
// for unusable options (absurd sizes, an unknown backend, a budget too small for one slot); its outputs.
#include <doctest/doctest.h>

#include <string>

#include <proofline/groth16/json.hpp>
#include <proofline/groth16/proof.hpp>
#include <proofline/groth16/proof_json.hpp>
#include <proofline/util/size.hpp>

#include "pipeline/helpers.hpp"
#include "support/run_program.hpp"

using namespace proofline;
using proofline::graph::test::TempDir;

namespace {

using Outcome = test_support::ProgramOutcome;
using test_support::read_file_text;

Outcome batch_prove(const std::string& args) {
  return test_support::run_program(PROOFLINE_BATCH_PROVE, "--no-progress --threads 4 " + args);
}

/// Exit code 2 with a single line naming the problem.
void check_refused(const std::string& args, const std::string& expected) {
  CAPTURE(args);
  const Outcome o = batch_prove(args);
  CHECK(o.code == 2);
  CHECK_MESSAGE(o.err.find(expected) != std::string::npos, o.err);
  CHECK(std::count(o.err.begin(), o.err.end(), '\n') == 1);
}

}  // namespace

TEST_CASE("pipeline/cli/batch_prove proves a small batch and writes its outputs") {
  TempDir dir;
  const auto proofs = dir.path() / "proofs";
  const auto report = dir.path() / "report.json";
  const auto trace = dir.path() / "trace.json";
  const auto timeline = dir.path() / "timeline.svg";
  const Outcome o =
      batch_prove("--backend cpu --synthetic 8 --count 4 --verify --out " + proofs.string() + " --report " +
                  report.string() + " --trace " + trace.string() + " --timeline " + timeline.string());
  REQUIRE_MESSAGE(o.code == 0, o.out << o.err);
  CHECK(o.out.find("proofs 4/4 (verified 4)") != std::string::npos);
  CHECK(o.out.find("verdict:") != std::string::npos);
  for (int i = 0; i < 4; ++i) {
    const std::string name = "proof-00000" + std::to_string(i);
    const auto json = read_file_text(proofs / (name + ".json"));
    const auto bin = read_file_text(proofs / (name + ".bin"));
    REQUIRE(bin.size() == groth16::proof_encoded_size);
    const groth16::Proof from_json = groth16::read_proof_json(json);
    const std::vector<std::uint8_t> bytes(bin.begin(), bin.end());
    CHECK(groth16::decode_proof(bytes) == from_json);
  }
  const groth16::json::Value doc = groth16::json::parse(read_file_text(report), "report");
  CHECK(doc.at("proofs").as_u64() == 4);
  CHECK(doc.at("verified").as_u64() == 4);
  CHECK(doc.at("failed").as_u64() == 0);
  CHECK(doc.at("pool").at("leased_bytes_at_exit").as_u64() == 0);
  CHECK(groth16::json::parse(read_file_text(trace), "trace").find("traceEvents") != nullptr);
  CHECK(read_file_text(timeline).find("<svg") != std::string::npos);
}

TEST_CASE("pipeline/cli/batch_prove runs several modes in one invocation with presynthesized jobs") {
  TempDir dir;
  const auto report = dir.path() / "run.json";
  const auto proofs = dir.path() / "proofs";
  const Outcome o =
      batch_prove("--backend cpu --synthetic 8 --count 5 --verify --mode pinned,baseline:pre --out " +
                  proofs.string() + " --report " + report.string());
  REQUIRE_MESSAGE(o.code == 0, o.out << o.err);
  // Five distinct witnesses fit the presynthesis cap; the baseline run prints it, the pinned one does not.
  CHECK(o.out.find("5 distinct jobs presynthesized") != std::string::npos);
  const auto check_run = [&](const std::string& name, const std::string& mode, double presynthesized) {
    CAPTURE(name);
    const groth16::json::Value doc =
        groth16::json::parse(read_file_text(dir.path() / ("run." + name + ".json")), "report");
    CHECK(doc.at("mode").as_string() == mode);
    CHECK(doc.at("proofs").as_u64() == 5);
    CHECK(doc.at("verified").as_u64() == 5);
    CHECK(std::stod(doc.at("extra").at("presynthesized").number_text()) == presynthesized);
    CHECK(std::stod(doc.at("extra").at("log2").number_text()) == 8);
    for (int i = 0; i < 5; ++i) {
      const auto bin = read_file_text(proofs / name / ("proof-00000" + std::to_string(i) + ".bin"));
      CHECK(bin.size() == groth16::proof_encoded_size);
    }
  };
  check_run("pinned", "pinned", 0);
  check_run("baseline-pre", "baseline", 1);
  CHECK(!std::filesystem::exists(report));
}

TEST_CASE("pipeline/cli/batch_prove --presynthesize keeps its witnesses within half of --host-budget") {
  // A 2^10 job's z, a, b, c take 128 KiB: half of an 8 MiB budget holds 32 of the 40 jobs.
  const Outcome o =
      batch_prove("--backend cpu --synthetic 10 --count 40 --presynthesize --host-budget 8M --slots 2");
  REQUIRE_MESSAGE(o.code == 0, o.out << o.err);
  CHECK_MESSAGE(o.out.find("32 distinct jobs presynthesized") != std::string::npos, o.out);
}

TEST_CASE("pipeline/cli/batch_prove --keys proves with several keys, jobs round robin over them") {
  TempDir dir;
  const auto report = dir.path() / "run.json";
  const auto proofs = dir.path() / "proofs";
  const Outcome o = batch_prove("--backend cpu --synthetic 8 --count 7 --keys 3 --verify --out " +
                                proofs.string() + " --report " + report.string() + " --mode pinned:pre");
  REQUIRE_MESSAGE(o.code == 0, o.out << o.err);
  CHECK(o.out.find("proofs 7/7 (verified 7)") != std::string::npos);
  // Three circuits of their own seeds; jobs 0, 3, 6 of the first (3 witnesses), 1, 4 and 2, 5 (2 each).
  for (const char* name : {"key 0 'synthetic-n8-c254-p1-s1-", "key 1 'synthetic-n8-c254-p1-s2-",
                           "key 2 'synthetic-n8-c254-p1-s3-", "7 distinct jobs presynthesized"})
    CHECK_MESSAGE(o.out.find(name) != std::string::npos, name << "\n" << o.out);
  const groth16::json::Value doc = groth16::json::parse(read_file_text(report), "report");
  CHECK(doc.at("verified").as_u64() == 7);
  CHECK(std::stod(doc.at("extra").at("keys").number_text()) == 3);
  // A witness proved under another key than its circuit's would fail the row check; all 7 verified.
  for (int i = 0; i < 7; ++i)
    CHECK(std::filesystem::exists(proofs / ("proof-00000" + std::to_string(i) + ".bin")));
}

TEST_CASE("pipeline/cli/batch_prove --synthetic with several sizes proves a key of each, jobs in turn") {
  TempDir dir;
  const auto report = dir.path() / "run.json";
  // The smaller size first: the device slots (CUDA backend) are sized for the largest all the same.
  const Outcome o = batch_prove("--backend cpu --synthetic 6,9 --count 5 --verify --report " +
                                report.string() + " --mode pinned:pre");
  REQUIRE_MESSAGE(o.code == 0, o.out << o.err);
  for (const char* text : {"5 jobs of 2^6/2^9 rows", "key 0 'synthetic-n6-c62-p1-s1-",
                           "key 1 'synthetic-n9-c510-p1-s2-", "proofs 5/5 (verified 5)"})
    CHECK_MESSAGE(o.out.find(text) != std::string::npos, text << "\n" << o.out);
  const groth16::json::Value doc = groth16::json::parse(read_file_text(report), "report");
  CHECK(std::stod(doc.at("extra").at("keys").number_text()) == 2);
  CHECK(std::stod(doc.at("extra").at("log2").number_text()) == 9);
  CHECK(std::stod(doc.at("extra").at("log2_smallest").number_text()) == 6);
  // More keys than sizes: the sizes repeat over the keys.
  const Outcome three = batch_prove("--backend cpu --synthetic 6,7 --keys 3 --count 3 --verify");
  REQUIRE_MESSAGE(three.code == 0, three.out << three.err);
  CHECK_MESSAGE(three.out.find("key 2 'synthetic-n6-c62-p1-s3-") != std::string::npos, three.out);
}

TEST_CASE("pipeline/cli/batch_prove exits 1 when a job fails and names it") {
  const Outcome o = batch_prove("--backend cpu --synthetic 8 --count 3 --inject-fault msm:1");
  CHECK(o.code == 1);
  CHECK(o.out.find("proofs 2/3") != std::string::npos);
  CHECK(o.err.find("proof-000001 failed: msm:") != std::string::npos);
  const Outcome baseline =
      batch_prove("--backend cpu --mode baseline --synthetic 8 --count 2 --inject-fault baseline:0");
  CHECK(baseline.code == 1);
}

TEST_CASE("pipeline/cli/batch_prove exits 2 with one clear line for unusable options") {
  check_refused("--backend quantum", "unknown backend 'quantum'");
  check_refused("--mode pinned,fast", "unknown mode 'fast'");
  check_refused("--synthetic 40", "--synthetic: 40 is outside 2..28");
  check_refused("--synthetic 1", "--synthetic: 1 is outside 2..28");
  check_refused("--synthetic many", "not a number");
  check_refused("--count 0", "--count: 0 is outside");
  check_refused("--host-budget lots", "--host-budget");
  check_refused("--host-budget 5000T", "absurd");
  check_refused("--mode fast", "unknown mode 'fast'");
  check_refused("--pin-backend glue", "unknown pinning backend 'glue'");
  check_refused("--frobnicate", "unknown option '--frobnicate'");
  check_refused("--count", "--count needs a value");
  check_refused("--inject-fault nowhere:1", "unknown stage 'nowhere'");
  check_refused("--backend cpu --synthetic 6 --count 2 --inject-fault msm:2",
                "--inject-fault: job 2 is past the batch's 2 jobs (they count from 0)");
  check_refused("--inject-fault msm:1 --inject-fault ntt:0", "--inject-fault: given twice");
  check_refused("--backend cpu --synthetic 6 --count 2 --inject-fault baseline:0",
                "--inject-fault: the baseline stage does not run in pinned mode");
  check_refused("--backend cpu --synthetic 6 --count 2 --mode baseline,pinned --inject-fault msm:0",
                "--inject-fault: the msm stage does not run in baseline mode");
  check_refused("--synthetic 6 --mode pinned,pinned --report r.json", "--mode lists a run twice");
  check_refused("--synthetic 6 --trace \"\"", "--trace: the path is empty");
  check_refused("--srs disk", "unknown SRS placement 'disk'");
  check_refused("--backend cpu --synthetic 8 --srs-buffer 1K", "--srs-buffer: 1K is less than 1.00 MiB");
  check_refused("--no-ntt-table=yes", "--no-ntt-table");
  check_refused("--no-msm-tables=1", "--no-msm-tables");
  check_refused("--keys 0", "--keys: 0 is outside");
  check_refused("--msm-table-bits 30", "--msm-table-bits: 30 is outside 8..22");
  check_refused("--count 2 --keys 3", "--keys 3 is more keys than the batch's 2 jobs");
  check_refused("--count 2 --synthetic 8,9,10", "--synthetic's 3 sizes make 3 keys, more than the batch's 2");
  check_refused("--synthetic 8,40", "--synthetic: 40 is outside 2..28");
  check_refused("--key-gpus half", "--key-gpus");
  check_refused("--backend cpu --synthetic 8 --count 2 --keys 2 --key-gpus spread",
                "--key-gpus spread places keys on GPUs; the cpu backend has none");
  // A budget that holds the key but not one slot of its jobs: refused before any job runs.
  check_refused("--backend cpu --synthetic 10 --host-budget 800K", "raise the host budget");
  // One that does not hold the key itself names the key's parts and their size.
  check_refused("--backend cpu --synthetic 10 --host-budget 100K",
                "its proving key and constraint system take");
}

TEST_CASE("pipeline/cli/batch_prove --plan registers the keys, prints their memory and proves nothing") {
  TempDir dir;
  const auto report = dir.path() / "plan.json";
  const Outcome o = batch_prove(
      "--backend cpu --synthetic 10 --keys 2 --count 4 --host-budget 64M --plan --report " + report.string());
  REQUIRE_MESSAGE(o.code == 0, o.out << o.err);
  CHECK(o.out.starts_with("memory plan (cpu backend, keys registered, nothing proven):\n"));
  CHECK(o.out.find("host: budget 64.00 MiB") != std::string::npos);
  CHECK(o.out.find("2 keys resident") != std::string::npos);
  CHECK(o.out.find("proofs") == std::string::npos);
  const groth16::json::Value plan = groth16::json::parse(read_file_text(report), "plan");
  CHECK(plan.at("host_budget").as_u64() == 64 * MiB);
  CHECK(plan.at("host_keys").as_u64() == 2);
  CHECK(plan.at("host_key_bytes").as_u64() > 0);
  CHECK(plan.at("host_used").as_u64() >= plan.at("host_key_bytes").as_u64());
  const std::uint64_t slot = plan.at("slot_bytes").as_u64(), tokens = plan.at("tokens").as_u64();
  CHECK(slot > 0);
  CHECK(tokens > 0);
  CHECK(o.out.find(std::to_string(tokens) + " jobs in flight at once (tokens), each leasing " +
                   format_size(slot)) != std::string::npos);

  // A snarkjs key needs no witnesses for its plan.
  const std::string zkey = std::string(PROOFLINE_SNARKJS_FIXTURES_DIR) + "/chain_1024/circuit_final.zkey";
  const Outcome from_zkey = batch_prove("--backend cpu --zkey " + zkey + " --plan");
  REQUIRE_MESSAGE(from_zkey.code == 0, from_zkey.out << from_zkey.err);
  CHECK(from_zkey.out.find("1 key resident") != std::string::npos);
  check_refused("--backend cpu --zkey " + zkey, "--zkey needs witness files (--wtns A.wtns ...), or --plan");
  check_refused("--backend cpu --synthetic 8 --plan --out " + dir.path().string(), "--plan proves nothing");
}

TEST_CASE("pipeline/cli/batch_prove --help describes every option") {
  const Outcome o = batch_prove("--help");
  CHECK(o.code == 0);
  for (const char* option :
       {"--synthetic",    "--count",         "--backend",       "--gpus",           "--slots",
        "--device-slots", "--synth-threads", "--host-budget",   "--vram-budget",    "--pin-backend",
        "--mode",         "--verify",        "--out",           "--report",         "--seed",
        "--log-level",    "--trace",         "--timeline",      "--key-cache",      "--srs",
        "--srs-buffer",   "--no-ntt-table",  "--no-msm-tables", "--msm-table-bits", "--keys",
        "--key-gpus",     "--plan"})
    CHECK_MESSAGE(o.out.find(option) != std::string::npos, option);
}
