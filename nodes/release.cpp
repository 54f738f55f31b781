// Release: the proof from the five MSM results with fresh r, s from the OS CSPRNG (the prover's reusable
// assembly step), optional self-verification, then everything the job holds goes home (its slot or pageable
// vectors, its use of the key's SRS, its token), the result is delivered and the job retired. Failed jobs
// pass through here too: this is where their token and slot come home.
#include <proofline/nodes/detail/stages.hpp>

#include <string>

#include <proofline/trace/scoped_span.hpp>
#include <proofline/groth16/prover.hpp>
#include <proofline/groth16/verifier.hpp>
#include <proofline/util/detail/log.hpp>
#include <proofline/util/error.hpp>

namespace proofline::graph::detail {

void release(Core& core, JobState& job, std::vector<Token>& tokens) {
  core.enter(job, Stage::release);
  {
    trace::ScopedSpan span(core.recorder, core.ids.release, job.id);
    if (!job.skip()) {
      core.guarded(job, Stage::release, [&] {
        core.hook(Stage::release, job);
        const KeyState& key = *job.key;
        job.proof = groth16::assemble_proof(*key.pk, job.msm, groth16::draw_proof_randomness());
        if (core.config.verify) {
          const groth16::VerifyStatus status = groth16::verify_status(*key.pvk, job.publics, *job.proof);
          if (status != groth16::VerifyStatus::ok)
            throw Error(Errc::internal,
                        std::string("self-verification failed: ") + groth16::to_string(status));
          job.verified = true;
        }
      });
    }
  }
  core.release_buffers(job);
  job.gpu_key.reset();
  try {
    core.return_token(job, tokens);
    core.deliver(job);
  } catch (const std::exception& e) {
    // Out of memory while delivering: the job's future stays unfulfilled, but the graph goes on.
    PL_LOG_ERROR("job {}: delivering its result failed: {}", job.id, e.what());
  }
  core.retire(job);
}

}  // namespace proofline::graph::detail
