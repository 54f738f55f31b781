// Synthesis: the witness z into the job's slot (from memory, a .wtns file, or the caller's callback), then
// a = A·z, b = B·z, c = C·z with the key's constraint system (the PCE), all written straight into the leased
// slot (pinned in pinned mode), TBB-parallel inside. With Config::check_witness every row is checked
// (a_i·b_i = c_i), so a bad witness fails here, naming its row, instead of as a proof that does not verify.
#include <proofline/nodes/stages.hpp>

#include <oneapi/tbb/task_arena.h>

#include <algorithm>
#include <string>
#include <variant>

#include <proofline/cpu/parallel_copy.hpp>
#include <proofline/groth16/constraint_system.hpp>
#include <proofline/groth16/wtns.hpp>
#include <proofline/trace/scoped_span.hpp>
#include <proofline/util/error.hpp>

namespace proofline::nodes {

namespace {

template <class... F>
struct Overloaded : F... {
  using F::operator()...;
};
template <class... F>
Overloaded(F...) -> Overloaded<F...>;

void run(Context& ctx, JobState& job) {
  const KeyState& key = *job.key;
  bool evaluate = true;
  std::visit(Overloaded{
                 [&](const MemoryWitness& w) {
                   if (!w.z) throw Error(Errc::invalid_argument, "the memory witness is empty");
                   if (w.z->size() != job.z.size())
                     throw Error(Errc::bad_input, "the witness has " + std::to_string(w.z->size()) +
                                                      " values, the circuit of key '" + key.name + "' " +
                                                      std::to_string(job.z.size()) + " variables");
                   cpu::parallel_copy(*w.z, job.z);
                 },
                 [&](const WtnsFile& f) { groth16::read_wtns_into(f.path, job.z); },
                 [&](const WitnessCallback& cb) {
                   const WitnessTarget target{CheckedSpan<Fr>(job.z, "z"),
                                              CheckedSpan<Fr>(job.a, "a"),
                                              CheckedSpan<Fr>(job.b, "b"),
                                              CheckedSpan<Fr>(job.c, "c"),
                                              key.pk->num_public,
                                              key.pk->domain_size(),
                                              job.id};
                   cb.fill(target);
                   evaluate = cb.fills == WitnessCallback::Fills::witness;
                 },
             },
             job.witness);
  if (job.z.empty() || !job.z[0].is_one())
    throw Error(Errc::bad_input, "z[0] is not 1 (every R1CS witness starts with the constant 1)");
  if (evaluate) {
    if (!key.cs)
      throw Error(Errc::invalid_argument, "key '" + key.name + "' has no constraint system to evaluate");
    groth16::evaluate(*key.cs, job.z, job.a, job.b, job.c);
  }
  // Rows can be checked only where c comes from C (or the caller): a key without its C matrix (a snarkjs
  // .zkey) computes c as a∘b, and release verifies the proof instead.
  job.witness_checked = ctx.settings.check_witness && (!evaluate || key.cs->c.has_value());
  if (job.witness_checked) {
    if (const auto row = groth16::first_unsatisfied_row(job.a, job.b, job.c))
      throw Error(Errc::bad_input, "the witness does not satisfy constraint row " + std::to_string(*row) +
                                       " of key '" + key.name + "'");
  }
  const auto publics = job.z.subspan(1, key.pk->num_public);
  job.publics.assign(publics.begin(), publics.end());
}

}  // namespace

void synthesize(Context& ctx, JobState& job) {
  ctx.enter(job, Stage::synthesis);
  if (job.skip()) return;
  trace::ScopedSpan span(ctx.recorder, ctx.ids.synthesis, job.id);
  ctx.guarded(job, Stage::synthesis, [&] {
    ctx.hook(Stage::synthesis, job);
    // Isolated: while this body waits for its own parallel loops, its thread must not pick up another node's
    // task (a second synthesis, a baseline body holding a mutex) on top of its stack.
    oneapi::tbb::this_task_arena::isolate([&] { run(ctx, job); });
    span.set_bytes(job.key->slot_bytes);
  });
}

}  // namespace proofline::nodes
