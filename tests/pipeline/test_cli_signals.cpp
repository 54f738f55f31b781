// batch_prove under conditions a batch meets in production: outputs it cannot write (refused with exit 2
// before any proving), a fault injected into a stage the backend never runs (refused, not ignored), and
// SIGTERM/SIGINT mid-batch (queued jobs cancelled, finished proofs on disk as complete files, exit 143/130).
#include <doctest/doctest.h>

#include <fcntl.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <csignal>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <thread>
#include <vector>

#include <proofline/groth16/json.hpp>
#include <proofline/groth16/proof.hpp>
#include <proofline/groth16/proof_json.hpp>

#include "pipeline/helpers.hpp"
#include "support/run_program.hpp"

using namespace proofline;
using proofline::graph::test::TempDir;

namespace fs = std::filesystem;

namespace {

test_support::ProgramOutcome batch_prove(const std::string& args) {
  return test_support::run_program(PROOFLINE_BATCH_PROVE, "--no-progress --threads 4 " + args);
}

/// Exit 2, nothing proved (no summary on stdout) and one line on stderr containing `expected`.
void check_refused_before_proving(const std::string& args, const std::string& expected) {
  CAPTURE(args);
  const auto o = batch_prove(args);
  CHECK(o.code == 2);
  CHECK_MESSAGE(o.err.find(expected) != std::string::npos, o.err);
  CHECK(std::count(o.err.begin(), o.err.end(), '\n') == 1);
  CHECK_MESSAGE(o.out.empty(), o.out);
}

std::vector<fs::path> proof_files(const fs::path& dir, const std::string& extension) {
  std::vector<fs::path> out;
  std::error_code error;
  for (const auto& entry : fs::directory_iterator(dir, error))
    if (entry.path().extension() == extension) out.push_back(entry.path());
  return out;
}

/// Starts batch_prove with `args` (stdout and stderr into files in `dir`); its process id.
pid_t start_batch_prove(const std::vector<std::string>& args, const TempDir& dir) {
  const std::string out = (dir / "stdout").string(), err = (dir / "stderr").string();
  std::vector<char*> argv{const_cast<char*>(PROOFLINE_BATCH_PROVE)};
  for (const auto& arg : args) argv.push_back(const_cast<char*>(arg.c_str()));
  argv.push_back(nullptr);
  const pid_t pid = ::fork();
  REQUIRE(pid >= 0);
  if (pid == 0) {
    // Only async-signal-safe calls between fork and exec: the test process has threads.
    sigset_t none;
    sigemptyset(&none);
    ::sigprocmask(SIG_SETMASK, &none, nullptr);
    const int out_fd = ::open(out.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    const int err_fd = ::open(err.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    if (out_fd < 0 || err_fd < 0 || ::dup2(out_fd, 1) < 0 || ::dup2(err_fd, 2) < 0) ::_exit(127);
    ::execv(PROOFLINE_BATCH_PROVE, argv.data());
    ::_exit(127);
  }
  return pid;
}

/// Sends `signal` once the first proof is on disk; checks the exit code, that the proofs written are some,
/// not all, each complete, and that the report and the progress line count them.
void check_stopped_by(int signal, int expected_code) {
  CAPTURE(signal);
  TempDir dir;
  const fs::path proofs = dir / "proofs", report = dir / "report.json";
  const pid_t pid = start_batch_prove({"--threads", "2", "--backend", "cpu", "--synthetic", "12", "--count",
                                       "400", "--out", proofs.string(), "--report", report.string()},
                                      dir);
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::minutes(5);
  while (proof_files(proofs, ".json").empty() && std::chrono::steady_clock::now() < deadline)
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  int status = 0;
  if (proof_files(proofs, ".json").empty()) {
    ::kill(pid, SIGKILL);  // no batch left running behind a failed test
    ::waitpid(pid, &status, 0);
    FAIL("no proof written within 5 minutes: " << test_support::read_file_text(dir / "stderr"));
  }
  REQUIRE(::kill(pid, signal) == 0);
  REQUIRE(::waitpid(pid, &status, 0) == pid);
  const std::string err = test_support::read_file_text(dir / "stderr");
  REQUIRE_MESSAGE(WIFEXITED(status), err);
  CHECK_MESSAGE(WEXITSTATUS(status) == expected_code, err);
  CHECK(err.find("stopped by signal " + std::to_string(signal)) != std::string::npos);
  // The progress line's last word does not count the cancelled jobs as done.
  CHECK_MESSAGE(err.find("\nstopped: ") != std::string::npos, err);
  CHECK_MESSAGE(err.find("finished: ") == std::string::npos, err);

  const auto json = proof_files(proofs, ".json");
  CHECK(json.size() >= 1);
  CHECK(json.size() < 400);
  CHECK(proof_files(proofs, ".bin").size() == json.size());
  CHECK(proof_files(proofs, ".part").empty());
  for (const fs::path& file : json) {
    CAPTURE(file);
    const groth16::Proof proof = groth16::read_proof_json(test_support::read_file_text(file));
    fs::path bin = file;
    const std::string bytes = test_support::read_file_text(bin.replace_extension(".bin"));
    REQUIRE(bytes.size() == groth16::proof_encoded_size);
    CHECK(groth16::decode_proof(std::vector<std::uint8_t>(bytes.begin(), bytes.end())) == proof);
  }
  const groth16::json::Value doc = groth16::json::parse(test_support::read_file_text(report), "report");
  CHECK(doc.at("proofs").as_u64() == json.size());
  // The jobs the signal cancelled are counted as cancelled, not as failures.
  CHECK(doc.at("failed").as_u64() == 0);
  CHECK(doc.at("cancelled").as_u64() > 0);
  CHECK(doc.at("proofs").as_u64() + doc.at("cancelled").as_u64() <= 400);
}

}  // namespace

TEST_CASE("pipeline/cli/batch_prove refuses outputs it cannot write before proving, with exit 2") {
  TempDir dir;
  const fs::path file = dir / "file.txt";
  std::ofstream(file) << "a regular file, not a directory";
  const std::string blocked = (file / "sub").string();
  const std::string job = "--backend cpu --synthetic 8 --count 400 ";
  check_refused_before_proving(job + "--out " + blocked, "--out: cannot create directory '" + blocked + "'");
  check_refused_before_proving(job + "--out " + file.string(),
                               "--out: cannot create directory '" + file.string());
  check_refused_before_proving(job + "--report " + blocked + "/run.json",
                               "--report: cannot write '" + blocked + "/run.json'");
  check_refused_before_proving(job + "--trace " + blocked + "/trace.json",
                               "--trace: cannot write '" + blocked + "/trace.json'");
  check_refused_before_proving(job + "--timeline " + blocked + "/run.svg",
                               "--timeline: cannot write '" + blocked + "/run.svg'");
  check_refused_before_proving(job + "--report " + dir.path().string(),
                               "--report: cannot write '" + dir.path().string() + "': it is a directory");
  // The snarkjs workload checks its outputs as early.
  const std::string fixtures = PROOFLINE_SNARKJS_FIXTURES_DIR;
  check_refused_before_proving("--zkey " + fixtures + "/chain_16/circuit_final.zkey --wtns " + fixtures +
                                   "/chain_16/witness.wtns --out " + blocked,
                               "--out: cannot create directory '" + blocked + "'");
}

TEST_CASE("pipeline/cli/batch_prove refuses a fault in a stage the CPU backend never runs") {
  const auto o = batch_prove("--backend cpu --synthetic 8 --count 2 --inject-fault h2d:0");
  CHECK(o.code == 2);
  CHECK(o.err ==
        "batch_prove: --inject-fault: the h2d stage runs only on the CUDA backend, not the cpu backend\n");
}

TEST_CASE("pipeline/cli/batch_prove stops on SIGTERM and SIGINT, keeping the proofs made") {
  check_stopped_by(SIGTERM, 143);
  check_stopped_by(SIGINT, 130);
}
