// pl_job: waiting, polling, cancelling, and the result (on the key's curve) as a proof (192 bytes compressed
// for BLS12-381, uncompressed points for either curve, or snarkjs JSON) and its public inputs.
#include <chrono>
#include <cstring>
#include <span>
#include <string>
#include <type_traits>
#include <vector>

#include <proofline/arith/curve_encoding.hpp>
#include <proofline/capi/detail/config.hpp>
#include <proofline/capi/detail/objects.hpp>
#include <proofline/capi/detail/registry.hpp>
#include <proofline/capi/detail/scalars.hpp>
#include <proofline/capi/detail/text_out.hpp>
#include <proofline/capi/detail/versioned.hpp>
#include <proofline/groth16/proof.hpp>
#include <proofline/groth16/snarkjs_json.hpp>

namespace proofline::capi {

namespace {

/// The job once its result is ready; PL_ERR_NOT_READY before.
std::shared_ptr<Job> ready_job(pl_job* handle) {
  std::shared_ptr<Job> job = lookup<Job>(handle, "job");
  if (!job->ready.load(std::memory_order_acquire))
    throw_status(PL_ERR_NOT_READY, "the job has no result yet");
  return job;
}

/// The C value of a stage, spelled out so that reordering nodes::Stage cannot change the ABI.
pl_stage stage_code(nodes::Stage stage) noexcept {
  switch (stage) {
    case nodes::Stage::queue:
      return PL_STAGE_QUEUE;
    case nodes::Stage::admission:
      return PL_STAGE_ADMISSION;
    case nodes::Stage::synthesis:
      return PL_STAGE_SYNTHESIS;
    case nodes::Stage::h2d:
      return PL_STAGE_H2D;
    case nodes::Stage::ntt:
      return PL_STAGE_NTT;
    case nodes::Stage::msm:
      return PL_STAGE_MSM;
    case nodes::Stage::release:
      return PL_STAGE_RELEASE;
    case nodes::Stage::baseline:
      return PL_STAGE_BASELINE;
  }
  return PL_STAGE_RELEASE;
}

/// A failed job's message, naming its label (pl_job_options.label) when it has one: the caller's own name
/// for it is how a failure among thousands of jobs is traced back to its input.
std::string failure_message(const graph::JobResult& r) {
  std::string message = r.error ? r.error->message : "the job has neither a proof nor an error";
  if (!r.label.empty()) message += " (job '" + r.label + "')";
  return message;
}

/// PL_OK for a proof, else the job's own code with its message as this thread's last error.
pl_status outcome(const Job& job) {
  const graph::JobResult& r = job.result;
  if (r.ok()) return PL_OK;
  return fail(r.error ? status_of(r.error->code) : PL_ERR_INTERNAL, failure_message(r));
}

/// The job's result once it has a proof (of either curve), or its failure as a StatusError.
const graph::JobResult& proved(const Job& job) {
  const pl_status status = outcome(job);
  if (status != PL_OK) throw_status(status, failure_message(job.result));
  return job.result;
}

/// The job's BLS12-381 proof: the 192-byte encoding is that curve's only.
const groth16::Proof& bls12_381_proof(const Job& job) {
  const graph::JobResult& r = proved(job);
  if (r.curve != CurveId::bls12_381)
    throw_status(PL_ERR_INVALID_ARGUMENT,
                 "the 192-byte compressed encoding is BLS12-381's; the job's key is " +
                     std::string(curve_name(r.curve)) +
                     " (bn128): use pl_job_proof_uncompressed or pl_job_proof_json");
  return *r.proof;
}

/// BN254's: Ethereum's EIP-196/197 points (groth16::encode_proof).
std::vector<std::uint8_t> uncompressed(const groth16::BasicProof<Bn254>& proof) {
  const auto bytes = groth16::encode_proof(proof);
  static_assert(groth16::bn254_proof_encoded_size == PL_PROOF_UNCOMPRESSED_BYTES_BN254);
  return {bytes.begin(), bytes.end()};
}

/// BLS12-381's: the zcash / IETF uncompressed encodings of A, B and C.
std::vector<std::uint8_t> uncompressed(const groth16::Proof& proof) {
  std::vector<std::uint8_t> out;
  out.reserve(PL_PROOF_UNCOMPRESSED_BYTES_BLS12_381);
  const auto a = encode_uncompressed(proof.a);
  const auto b = encode_uncompressed(proof.b);
  const auto c = encode_uncompressed(proof.c);
  out.insert(out.end(), a.begin(), a.end());
  out.insert(out.end(), b.begin(), b.end());
  out.insert(out.end(), c.begin(), c.end());
  return out;
}

/// f(proof, public inputs) on the job's curve.
template <class F>
decltype(auto) with_result(const Job& job, F&& f) {
  const graph::JobResult& r = proved(job);
  if (r.curve == CurveId::bn254) return f(*r.bn254_proof, std::span<const bn254::Fr>(r.bn254_public_inputs));
  return f(*r.proof, std::span<const Fr>(r.public_inputs));
}

}  // namespace

}  // namespace proofline::capi

using namespace proofline;
using namespace proofline::capi;

extern "C" {

PL_API pl_status pl_job_poll(pl_job* job) {
  return guarded("pl_job_poll", [&] {
    ready_job(job);
    return PL_OK;
  });
}

PL_API pl_status pl_job_wait(pl_job* job, int64_t timeout_ms) {
  return guarded("pl_job_wait", [&] {
    if (timeout_ms != 0) refuse_in_callback("pl_job_wait with a timeout");
    const std::shared_ptr<Job> j = lookup<Job>(job, "job");
    std::unique_lock lock(j->mutex);
    const auto done = [&] { return j->completed; };
    if (timeout_ms < 0 || std::chrono::milliseconds(timeout_ms) >= graph::kNoTimeLimit)
      j->completed_cv.wait(lock, done);
    else if (!j->completed_cv.wait_for(lock, std::chrono::milliseconds(timeout_ms), done))
      throw_status(PL_ERR_NOT_READY, "the job is not done after " + std::to_string(timeout_ms) + " ms");
    return PL_OK;
  });
}

PL_API pl_status pl_job_outcome(pl_job* job) {
  return guarded("pl_job_outcome", [&] { return outcome(*ready_job(job)); });
}

PL_API pl_status pl_job_cancel(pl_job* job) {
  return guarded("pl_job_cancel", [&] {
    const std::shared_ptr<Job> j = lookup<Job>(job, "job");
    const std::shared_ptr<Pipeline> pipeline = j->pipeline.lock();
    if (j->ready.load() || !pipeline || !pipeline->prover.cancel(j->id.load()))
      throw_status(PL_ERR_NOT_CANCELLABLE,
                   "the job is past its witness or done, or its witness callback is running after it was "
                   "cancelled or timed out already");
    return PL_OK;
  });
}

PL_API pl_status pl_job_get_info(pl_job* job, pl_job_info* info) {
  return guarded("pl_job_get_info", [&] {
    check_struct_size(info, "info");
    const std::shared_ptr<Job> j = ready_job(job);
    const graph::JobResult& r = j->result;
    const pl_status code = r.ok() ? PL_OK : r.error ? status_of(r.error->code) : PL_ERR_INTERNAL;
#define PL_PUT(field, value) \
  if (PL_CAPI_HAS_FIELD(info, field)) info->field = (value);
    PL_PUT(id, r.id)
    PL_PUT(seq, r.seq)
    PL_PUT(outcome, code)
    PL_PUT(verified, r.verified ? 1 : 0)
    PL_PUT(gpu, r.gpu)
    PL_PUT(stage, r.error ? stage_code(r.error->stage) : -1)
    PL_PUT(num_public, r.curve == CurveId::bn254 ? r.bn254_public_inputs.size() : r.public_inputs.size())
    PL_PUT(queued_s, r.queued_s)
    PL_PUT(latency_s, r.latency_s)
    PL_PUT(curve, curve_code(r.curve))
#undef PL_PUT
    return PL_OK;
  });
}

PL_API pl_status pl_job_proof(pl_job* job, uint8_t* out, size_t length) {
  return guarded("pl_job_proof", [&] {
    const std::shared_ptr<Job> j = ready_job(job);
    const groth16::Proof& proof = bls12_381_proof(*j);
    if (out == nullptr || length < groth16::proof_encoded_size)  // a NULL buffer holds nothing
      throw_status(PL_ERR_BUFFER_TOO_SMALL, "out holds " + std::to_string(out == nullptr ? 0 : length) +
                                                " bytes, a proof needs " +
                                                std::to_string(groth16::proof_encoded_size));
    const auto bytes = groth16::encode_proof(proof);
    std::memcpy(out, bytes.data(), bytes.size());
    return PL_OK;
  });
}

PL_API pl_status pl_job_proof_uncompressed(pl_job* job, uint8_t* out, size_t length, size_t* needed) {
  return guarded("pl_job_proof_uncompressed", [&] {
    const std::shared_ptr<Job> j = ready_job(job);
    const std::vector<std::uint8_t> bytes =
        with_result(*j, [](const auto& proof, auto) { return uncompressed(proof); });
    if (needed != nullptr) *needed = bytes.size();
    if (out == nullptr || length < bytes.size())
      throw_status(PL_ERR_BUFFER_TOO_SMALL, "out holds " + std::to_string(out == nullptr ? 0 : length) +
                                                " bytes, the proof needs " + std::to_string(bytes.size()));
    std::memcpy(out, bytes.data(), bytes.size());
    return PL_OK;
  });
}

PL_API pl_status pl_job_public_inputs(pl_job* job, uint8_t* out, size_t length, size_t* count) {
  return guarded("pl_job_public_inputs", [&] {
    const std::shared_ptr<Job> j = ready_job(job);
    with_result(*j, [&](const auto&, auto inputs) {
      if (count != nullptr) *count = inputs.size();
      const std::size_t holds = out == nullptr ? 0 : length;
      if (holds < inputs.size() * PL_SCALAR_BYTES)
        throw_status(PL_ERR_BUFFER_TOO_SMALL, "out holds " + std::to_string(holds) + " bytes, " +
                                                  std::to_string(inputs.size()) + " inputs need " +
                                                  std::to_string(inputs.size() * PL_SCALAR_BYTES));
      fr_to_scalars(inputs, out);
    });
    return PL_OK;
  });
}

PL_API pl_status pl_job_proof_json(pl_job* job, char* out, size_t length, size_t* needed) {
  return guarded("pl_job_proof_json", [&] {
    const std::shared_ptr<Job> j = ready_job(job);
    const std::string text = with_result(*j, [](const auto& proof, auto) {
      return groth16::snarkjs_stringify(groth16::snarkjs_proof_to_json(proof));
    });
    copy_text(text, out, length, needed);
    return PL_OK;
  });
}

PL_API pl_status pl_job_public_json(pl_job* job, char* out, size_t length, size_t* needed) {
  return guarded("pl_job_public_json", [&] {
    const std::shared_ptr<Job> j = ready_job(job);
    const std::string text = with_result(*j, [](const auto&, auto inputs) {
      return groth16::snarkjs_stringify(groth16::snarkjs_public_to_json(inputs));
    });
    copy_text(text, out, length, needed);
    return PL_OK;
  });
}

PL_API pl_status pl_job_release(pl_job* job) {
  return guarded("pl_job_release", [&] {
    take<Job>(job, "job");
    return PL_OK;
  });
}

}  // extern "C"
