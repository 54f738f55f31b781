// Runs a program of the build (batch_prove, verify_proof) as a user would, for the tests of its command line:
// its exit code and everything it wrote to stdout and stderr, with stdin closed.
#pragma once

#include <sys/wait.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>

#include "support/temp_dir.hpp"

namespace proofline::test_support {

struct ProgramOutcome {
  int code = -1;  ///< the exit code; -1 when the program did not exit (a signal ended it)
  std::string out, err;
};

/// The whole of a file, as bytes ("" when it cannot be read).
inline std::string read_file_text(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), {});
}

/// Runs `program args` through the shell (so `args` is shell text: quote what needs quoting), stdin from
/// /dev/null, and collects its output through files in a temporary directory.
inline ProgramOutcome run_program(const std::string& program, const std::string& args) {
  const TempDir dir("proofline-program");
  const std::filesystem::path out = dir / "stdout", err = dir / "stderr";
  const std::string command =
      program + " " + args + " > " + out.string() + " 2> " + err.string() + " < /dev/null";
  const int status = std::system(command.c_str());
  ProgramOutcome outcome;
  outcome.code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  outcome.out = read_file_text(out);
  outcome.err = read_file_text(err);
  return outcome;
}

}  // namespace proofline::test_support
