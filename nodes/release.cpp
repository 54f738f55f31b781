// Release: the proof from the five MSM results with fresh r, s from the OS CSPRNG (the prover's reusable
// assembly step), optional self-verification, then the job's buffers and its use of the key's SRS go home.
// Failed jobs pass through here too: this is where their slot comes home (the graph then returns the token,
// delivers the result and retires the job).
#include <proofline/nodes/stages.hpp>

#include <span>
#include <string>
#include <variant>

#include <proofline/groth16/prover.hpp>
#include <proofline/groth16/verifier.hpp>
#include <proofline/trace/scoped_span.hpp>
#include <proofline/util/error.hpp>

namespace proofline::nodes {

namespace {

bool callback_wrote_abc(const JobState& job) {
  const auto* callback = std::get_if<WitnessCallback>(&job.witness);
  return callback != nullptr && callback->fills == WitnessCallback::Fills::witness_and_abc;
}

/// The proof with fresh r, s, verified when asked, when the witness could not be checked row by row, or while
/// no proof of the key has verified yet (a proving key and a constraint system of two circuits of one shape
/// pass every row check and give proofs that do not verify).
template <class Curve>
void assemble_and_check(Context& ctx, JobState& job, const CurveKey<Curve>& key, CurveWork<Curve>& work) {
  const std::string& name = job.key->name;
  work.proof = groth16::assemble_proof(*key.pk, work.msm, groth16::draw_proof_randomness<Curve>());
  // A witness whose rows could not be checked is checked through its proof: no result reports a proof that
  // does not verify.
  const bool unchecked = ctx.settings.check_witness && !job.witness_checked;
  const bool key_unproven = ctx.settings.check_witness && key.pvk && !job.key->proof_verified.load();
  if (!ctx.settings.verify && !unchecked && !key_unproven) return;
  if (!key.pvk) throw Error(Errc::internal, "key '" + name + "' has no verifying key to verify with");
  const groth16::VerifyStatus status =
      groth16::verify_status(*key.pvk, std::span<const typename Curve::Fr>(work.publics), *work.proof);
  if (status != groth16::VerifyStatus::ok && unchecked && callback_wrote_abc(job))
    throw Error(Errc::bad_input, "the a, b, c the witness callback wrote are not A·z, B·z, C·z of key '" +
                                     name + "': the proof does not verify");
  if (status != groth16::VerifyStatus::ok && unchecked)
    throw Error(Errc::bad_input, "the witness does not satisfy the circuit of key '" + name +
                                     "': its proof does not verify (the key has no C matrix, so its rows "
                                     "could not be checked one by one; if other witnesses fail too, the key "
                                     "file may be damaged)");
  // With the row check off nothing vouches for the witness: a failed verification says nothing of the key.
  if (status != groth16::VerifyStatus::ok && !job.witness_checked)
    throw Error(
        Errc::bad_input,
        "the proof does not verify and the witness was not checked row by row (check_witness is off): "
        "it most likely does not satisfy the circuit of key '" +
            name + "' (turn check_witness on to find the row, or to tell a damaged key)");
  if (status != groth16::VerifyStatus::ok && !job.key->proof_verified.load())
    throw Error(
        Errc::invalid_argument,
        "key '" + name +
            "': a witness that satisfies its constraint system gave a proof that does not verify: its "
            "proving key, constraint system and verifying key are not all of the same circuit (or one is "
            "damaged)");
  if (status != groth16::VerifyStatus::ok)
    throw Error(Errc::internal, std::string("self-verification failed: ") + groth16::to_string(status));
  if (job.witness_checked) job.key->proof_verified.store(true);
  job.verified = true;
}

}  // namespace

void finish(Context& ctx, JobState& job) {
  ctx.enter(job, Stage::release);
  {
    trace::ScopedSpan span(ctx.recorder, ctx.ids.release, job.id);
    if (!job.skip()) {
      ctx.guarded(job, Stage::release, [&] {
        ctx.hook(Stage::release, job);
        visit_curve(job, [&](const auto& key, auto& work) { assemble_and_check(ctx, job, key, work); });
      });
    }
  }
  ctx.release_buffers(job);
  job.gpu_key.reset();
}

}  // namespace proofline::nodes
