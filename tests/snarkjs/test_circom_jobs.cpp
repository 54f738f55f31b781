// The jobs manifest of `proofline batch --manifest` (apps/circom_jobs.hpp): what it accepts and what it
// refuses before anything is proven.
#include <doctest/doctest.h>

#include <fstream>
#include <string>
#include <string_view>

#include "../../apps/batch_common.hpp"
#include "../../apps/circom_jobs.hpp"
#include "support/temp_dir.hpp"

using proofline::apps::jobs_from_manifest;
using proofline::apps::UnusableInput;
using namespace std::string_view_literals;

namespace {

std::filesystem::path write_manifest(const proofline::test_support::TempDir& dir, std::string_view text) {
  const auto path = dir / "jobs.jsonl";
  std::ofstream(path, std::ios::binary) << text;
  return path;
}

std::string refusal(const std::filesystem::path& manifest) {
  try {
    jobs_from_manifest(manifest);
  } catch (const UnusableInput& e) {
    return e.what();
  }
  return "accepted";
}

}  // namespace

TEST_CASE("apps/manifest/a path with a NUL byte is refused, in JSON lines and in CSV") {
  // The system reads a path up to its first NUL: "out\0a" and "out\0b" would both be the file out, while the
  // check for colliding outputs compares the paths whole.
  const proofline::test_support::TempDir dir;
  const auto good = write_manifest(dir, R"({"witness": "a.wtns", "proof": "a.proof", "public": "a.public"})");
  const auto jobs = jobs_from_manifest(good);
  REQUIRE(jobs.size() == 1);
  CHECK(jobs[0].source == dir / "a.wtns");

  for (const std::string_view text : {
           R"({"witness": "a.wtns", "proof": "out\u0000a", "public": "out\u0000b"})"sv,
           "a.wtns,out\0a,out\0b\n"sv,
           "a.wtns\0x,p,q\n"sv,
       }) {
    CAPTURE(text);
    const std::string message = refusal(write_manifest(dir, text));
    CHECK(message.find("line 1: a path with a NUL byte") != std::string::npos);
  }
}
