// .wtns images in memory through the C ABI (pl_submit_wtns_memory): a proof as from the file, on both curves,
// with the caller's buffer free to reuse once submit returns; an image that is no witness of the key refused
// at submit (no job), naming the problem; values that are no witness failing their job in synthesis.
#include <algorithm>
#include <cstring>
#include <fstream>
#include <iterator>
#include <span>
#include <string>
#include <vector>

#include <proofline/arith/fr.hpp>
#include <proofline/groth16/wtns.hpp>

#include "capi_test_support.hpp"

namespace proofline::capi_test {

namespace {

std::vector<std::uint8_t> bytes_of(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), {}};
}

std::string text_of(const std::string& path) {
  const std::vector<std::uint8_t> bytes = bytes_of(path);
  return {bytes.begin(), bytes.end()};
}

std::string public_json(pl_job* job) {
  std::size_t needed = 0;
  REQUIRE(pl_job_public_json(job, nullptr, 0, &needed) == PL_ERR_BUFFER_TOO_SMALL);
  std::string text(needed, '\0');
  PL_REQUIRE_OK(pl_job_public_json(job, text.data(), text.size(), &needed));
  text.resize(needed - 1);
  return text;
}

/// The job's outcome once it is done, and its message.
struct Outcome {
  pl_status status = PL_OK;
  std::string message;
  std::int32_t stage = -1;
};

Outcome outcome_of(pl_job* job) {
  PL_REQUIRE_OK(pl_job_wait(job, -1));
  Outcome o;
  o.status = pl_job_outcome(job);
  o.message = pl_last_error_message();
  pl_job_info info{};
  info.size = sizeof info;
  PL_REQUIRE_OK(pl_job_get_info(job, &info));
  o.stage = info.stage;
  return o;
}

std::size_t values_offset(const std::vector<std::uint8_t>& image) {
  return groth16::read_wtns_header(std::as_bytes(std::span(image)), "fixture").values_offset;
}

}  // namespace

TEST_CASE(
    "capi/wtns memory: an image proves as its file does, and the caller's buffer is free after submit") {
  Prover p;
  std::vector<std::uint8_t> image = bytes_of(fixture("witness.wtns"));
  pl_job* job = nullptr;
  PL_REQUIRE_OK(pl_submit_wtns_memory(p.pipeline, p.key, image.data(), image.size(), nullptr, &job));
  std::fill(image.begin(), image.end(), std::uint8_t{0xa5});  // the library holds its own copy
  REQUIRE(outcome_of(job).status == PL_OK);
  CHECK(proof_verifies(job, p.vk));
  CHECK(public_json(job) == text_of(fixture("public.json")));
  PL_REQUIRE_OK(pl_job_release(job));
}

TEST_CASE("capi/wtns memory: a bn128 image proves with a bn128 key") {
  const std::string dir = std::string(PROOFLINE_SNARKJS_FIXTURES_DIR) + "/bn128/chain_16/";
  const pl_config config = cpu_config();
  pl_pipeline* pipeline = nullptr;
  PL_REQUIRE_OK(pl_pipeline_create(&config, &pipeline));
  pl_key* key = nullptr;
  PL_REQUIRE_OK(pl_key_add_zkey_file(pipeline, (dir + "circuit_final.zkey").c_str(), nullptr, &key));
  pl_vk* vk = nullptr;
  PL_REQUIRE_OK(pl_vk_load_json_file((dir + "verification_key.json").c_str(), &vk));

  const std::vector<std::uint8_t> image = bytes_of(dir + "witness.wtns");
  pl_job* job = nullptr;
  PL_REQUIRE_OK(pl_submit_wtns_memory(pipeline, key, image.data(), image.size(), nullptr, &job));
  REQUIRE(outcome_of(job).status == PL_OK);
  std::size_t needed = 0;
  REQUIRE(pl_job_proof_json(job, nullptr, 0, &needed) == PL_ERR_BUFFER_TOO_SMALL);
  std::string proof(needed, '\0');
  PL_REQUIRE_OK(pl_job_proof_json(job, proof.data(), proof.size(), &needed));
  const std::string inputs = public_json(job);
  CHECK(inputs == text_of(dir + "public.json"));
  CHECK(pl_verify_json(vk, proof.c_str(), inputs.c_str()) == PL_OK);

  // The BLS12-381 fixture's image is another curve's witness for this key.
  const std::vector<std::uint8_t> bls = bytes_of(fixture("witness.wtns"));
  pl_job* refused = nullptr;
  CHECK(pl_submit_wtns_memory(pipeline, key, bls.data(), bls.size(), nullptr, &refused) == PL_ERR_BAD_INPUT);
  const std::string message = pl_last_error_message();
  CHECK(message.find("BLS12-381") != std::string::npos);
  CHECK(message.find("BN254") != std::string::npos);
  CHECK(refused == nullptr);

  PL_REQUIRE_OK(pl_job_release(job));
  PL_REQUIRE_OK(pl_vk_release(vk));
  PL_REQUIRE_OK(pl_key_release(key));
  PL_REQUIRE_OK(pl_pipeline_destroy(pipeline));
}

TEST_CASE("capi/wtns memory: an image that is no witness of the key is refused at submit, naming why") {
  Prover p;
  const std::vector<std::uint8_t> good = bytes_of(fixture("witness.wtns"));
  std::vector<Fr> longer = groth16::read_wtns(fixture("witness.wtns"));
  longer.push_back(Fr::one());
  const auto longer_bytes = groth16::wtns_bytes(longer);
  const std::vector<std::uint8_t> bn =
      bytes_of(std::string(PROOFLINE_SNARKJS_FIXTURES_DIR) + "/bn128/chain_16/witness.wtns");
  const std::string text = "not a witness at all";
  struct Refusal {
    const char* what;
    std::vector<std::uint8_t> image;
    const char* says;
  };
  const Refusal refusals[] = {
      {"an empty image", {}, "wtns"},
      {"text", {text.begin(), text.end()}, "wtns"},
      {"the header alone", {good.begin(), good.begin() + 40}, "wtns"},
      {"a truncated image", {good.begin(), good.end() - 1}, "wtns"},
      {"a witness over BN254's field", bn, "BN254"},
      {"a witness one value longer",
       {reinterpret_cast<const std::uint8_t*>(longer_bytes.data()),
        reinterpret_cast<const std::uint8_t*>(longer_bytes.data()) + longer_bytes.size()},
       "variables"},
  };
  for (const Refusal& r : refusals) {
    CAPTURE(r.what);
    pl_job* job = nullptr;
    const std::uint8_t none = 0;  // data must not be NULL, even for an empty image
    const void* data = r.image.empty() ? &none : r.image.data();
    CHECK(pl_submit_wtns_memory(p.pipeline, p.key, data, r.image.size(), nullptr, &job) == PL_ERR_BAD_INPUT);
    const std::string message = pl_last_error_message();
    CAPTURE(message);
    CHECK(message.find(r.says) != std::string::npos);
    CHECK(job == nullptr);
  }
  pl_job* job = nullptr;
  CHECK(pl_submit_wtns_memory(p.pipeline, p.key, nullptr, good.size(), nullptr, &job) == PL_ERR_NULL_POINTER);
  CHECK(pl_submit_wtns_memory(p.pipeline, p.key, good.data(), good.size(), nullptr, nullptr) ==
        PL_ERR_NULL_POINTER);
  pl_stats stats{};
  stats.size = sizeof stats;
  PL_REQUIRE_OK(pl_pipeline_stats(p.pipeline, &stats));
  CHECK(stats.submitted == 0);
}

TEST_CASE("capi/wtns memory: values that are no witness fail their job in synthesis") {
  Prover p;
  const std::vector<std::uint8_t> good = bytes_of(fixture("witness.wtns"));
  const std::size_t offset = values_offset(good);
  std::vector<std::uint8_t> above_r = good;
  std::fill_n(above_r.begin() + static_cast<std::ptrdiff_t>(offset + 3 * 32), 32, std::uint8_t{0xff});
  std::vector<std::uint8_t> first_not_one = good;
  first_not_one[offset] = 2;
  const std::pair<std::vector<std::uint8_t>*, const char*> cases[] = {{&above_r, "the value at index 3"},
                                                                      {&first_not_one, "w[0]"}};
  for (const auto& [image, says] : cases) {
    CAPTURE(says);
    pl_job* job = nullptr;
    PL_REQUIRE_OK(pl_submit_wtns_memory(p.pipeline, p.key, image->data(), image->size(), nullptr, &job));
    const Outcome o = outcome_of(job);
    CAPTURE(o.message);
    CHECK(o.status == PL_ERR_BAD_INPUT);
    CHECK(o.stage == PL_STAGE_SYNTHESIS);
    CHECK(o.message.find(says) != std::string::npos);
    PL_REQUIRE_OK(pl_job_release(job));
  }
  // The pipeline proves on after them.
  pl_job* job = nullptr;
  PL_REQUIRE_OK(pl_submit_wtns_memory(p.pipeline, p.key, good.data(), good.size(), nullptr, &job));
  REQUIRE(outcome_of(job).status == PL_OK);
  CHECK(proof_verifies(job, p.vk));
  PL_REQUIRE_OK(pl_job_release(job));
}

}  // namespace proofline::capi_test
