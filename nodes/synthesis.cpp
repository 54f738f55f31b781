// Synthesis: the witness z into the job's slot (from memory, a .wtns file, or the caller's callback), then
// a = A·z, b = B·z, c = C·z with the key's constraint system (the PCE), all written straight into the leased
// slot (pinned in pinned mode), TBB-parallel inside. With Config::check_witness every row is checked
// (a_i·b_i = c_i), so a bad witness fails here, naming its row, instead of as a proof that does not verify.
#include <proofline/nodes/stages.hpp>

#include <oneapi/tbb/task_arena.h>

#include <algorithm>
#include <span>
#include <string>
#include <type_traits>
#include <utility>
#include <variant>

#include <proofline/cpu/parallel_copy.hpp>
#include <proofline/groth16/constraint_system.hpp>
#include <proofline/groth16/wtns.hpp>
#include <proofline/trace/scoped_span.hpp>
#include <proofline/util/error.hpp>
#include <proofline/util/scope_guard.hpp>

namespace proofline::nodes {

namespace {

template <class... F>
struct Overloaded : F... {
  using F::operator()...;
};
template <class... F>
Overloaded(F...) -> Overloaded<F...>;

/// The memory witness of the key's curve: z for BLS12-381, bn254_z for BN254 (submit checked that it is
/// there).
template <class Curve>
const auto& memory_values(const MemoryWitness& w) {
  if constexpr (std::is_same_v<Curve, Bn254>)
    return w.bn254_z;
  else
    return w.z;
}

/// The slot's views of the key's curve for a witness callback; the other curve's stay empty. Every view notes
/// the writes it refuses in `refusals`.
template <class Curve>
WitnessTarget witness_target(const JobState& job, const KeyState& key, WitnessRefusals& refusals) {
  WitnessTarget target;
  target.num_public = key.num_public;
  target.domain_size = key.domain_size();
  target.job = job.id;
  target.curve = Curve::id;
  target.stop = &job.callback_run.stop;
  // The other curve's views stay empty, named so that a write to them says which view to use.
  if constexpr (std::is_same_v<Curve, Bn254>) {
    using F = bn254::Fr;
    target.bn254_z = CheckedSpan<F>(scalars_as<F>(job.z), "bn254_z", &refusals);
    target.bn254_a = CheckedSpan<F>(scalars_as<F>(job.a), "bn254_a", &refusals);
    target.bn254_b = CheckedSpan<F>(scalars_as<F>(job.b), "bn254_b", &refusals);
    target.bn254_c = CheckedSpan<F>(scalars_as<F>(job.c), "bn254_c", &refusals);
    target.z = CheckedSpan<Fr>({}, "z (a BLS12-381 view; the key is BN254's: write bn254_z)", &refusals);
    target.a = CheckedSpan<Fr>({}, "a (a BLS12-381 view; the key is BN254's: write bn254_a)", &refusals);
    target.b = CheckedSpan<Fr>({}, "b (a BLS12-381 view; the key is BN254's: write bn254_b)", &refusals);
    target.c = CheckedSpan<Fr>({}, "c (a BLS12-381 view; the key is BN254's: write bn254_c)", &refusals);
  } else {
    target.z = CheckedSpan<Fr>(job.z, "z", &refusals);
    target.a = CheckedSpan<Fr>(job.a, "a", &refusals);
    target.b = CheckedSpan<Fr>(job.b, "b", &refusals);
    target.c = CheckedSpan<Fr>(job.c, "c", &refusals);
    using F = bn254::Fr;
    target.bn254_z = CheckedSpan<F>({}, "bn254_z (a BN254 view; the key is BLS12-381's: write z)", &refusals);
    target.bn254_a = CheckedSpan<F>({}, "bn254_a (a BN254 view; the key is BLS12-381's: write a)", &refusals);
    target.bn254_b = CheckedSpan<F>({}, "bn254_b (a BN254 view; the key is BLS12-381's: write b)", &refusals);
    target.bn254_c = CheckedSpan<F>({}, "bn254_c (a BN254 view; the key is BLS12-381's: write c)", &refusals);
  }
  return target;
}

/// Runs the caller's witness callback. What it throws is the caller's failure, not proofline's: a
/// proofline::Error keeps its code, anything else fails the job as bad input with its message. A callback
/// that returns normally after one of its writes was refused (it caught the refusal) fails as bad input
/// with the first refusal's message.
void fill_by_callback(JobState& job, const WitnessCallback& callback, const WitnessTarget& target,
                      const WitnessRefusals& refusals) {
  const bool outer = std::exchange(in_witness_callback, true);
  {
    std::lock_guard lock(job.callback_run.mutex);
    job.callback_run.running = true;
  }
  ScopeGuard leave([&job, outer] {
    in_witness_callback = outer;
    std::lock_guard lock(job.callback_run.mutex);
    job.callback_run.running = false;
  });
  try {
    callback.fill(target);
  } catch (const Error&) {
    throw;
  } catch (const std::exception& e) {
    throw Error(Errc::bad_input, std::string("the witness callback failed: ") + e.what());
  } catch (...) {
    throw Error(Errc::bad_input, "the witness callback threw something that is not a std::exception");
  }
  if (const std::string refused = refusals.summary(); !refused.empty())
    throw Error(Errc::bad_input, "the witness callback returned normally after " + refused);
}

/// The witness into z from its source; false when the caller filled a, b and c too.
template <class Curve>
bool fill_witness(JobState& job, const KeyState& key, std::span<typename Curve::Fr> z) {
  bool evaluate = true;
  std::visit(Overloaded{
                 [&](const MemoryWitness& w) {
                   const auto& values = memory_values<Curve>(w);
                   if (!values)
                     throw Error(Errc::invalid_argument,
                                 "the memory witness has no " + std::string(Curve::name) + " values");
                   if (values->size() != z.size())
                     throw Error(Errc::bad_input, "the witness has " + std::to_string(values->size()) +
                                                      " values, the circuit of key '" + key.name + "' " +
                                                      std::to_string(z.size()) + " variables");
                   cpu::parallel_copy<typename Curve::Fr>(*values, z);
                 },
                 // A witness over the other curve's field is refused, naming both curves.
                 [&](const WtnsFile& f) { groth16::read_wtns_into(f.path, z); },
                 [&](const WtnsImage& w) { groth16::read_wtns_into(*w.image, w.name, z); },
                 [&](const WitnessCallback& cb) {
                   if (cb.curve != Curve::id)
                     throw Error(Errc::invalid_argument,
                                 "the witness callback writes " + std::string(curve_name(cb.curve)) +
                                     " values; key '" + key.name + "' is " + std::string(Curve::name));
                   WitnessRefusals refusals;
                   fill_by_callback(job, cb, witness_target<Curve>(job, key, refusals), refusals);
                   evaluate = cb.fills == WitnessCallback::Fills::witness;
                 },
             },
             job.witness);
  return evaluate;
}

template <class Curve>
void run(Context& ctx, JobState& job, const CurveKey<Curve>& key, CurveWork<Curve>& work) {
  using F = typename Curve::Fr;
  const KeyState& state = *job.key;
  const std::span<F> z = scalars_as<F>(job.z), a = scalars_as<F>(job.a), b = scalars_as<F>(job.b),
                     c = scalars_as<F>(job.c);
  const bool evaluate = fill_witness<Curve>(job, state, z);
  if (z.empty() || !z[0].is_one())
    throw Error(Errc::bad_input, "z[0] is not 1 (every R1CS witness starts with the constant 1)");
  if (evaluate && !key.cs)
    throw Error(Errc::invalid_argument, "key '" + state.name + "' has no constraint system to evaluate");
  // Rows prove the witness only where a, b, c come from the key's A, B, C: a key without its C matrix (a
  // snarkjs .zkey) computes c as a∘b, and a, b, c a callback wrote need not be A·z, B·z, C·z; release
  // verifies those proofs instead. The caller's rows are still checked for a∘b = c: an early message naming
  // the row.
  const bool check_rows = ctx.settings.check_witness && (!evaluate || key.cs->c.has_value());
  job.witness_checked = check_rows && evaluate;
  // On a GPU that holds the key's constraint system, a, b, c are made there from z and the rows checked there
  // (gpu_done reads the verdict); a job proved again on the CPU after its GPU died evaluates here.
  job.evaluate_on_gpu = !needs_host_abc(job);  // what admission leased the slot for
  if (!job.evaluate_on_gpu && a.size() != state.domain_size())
    throw Error(Errc::internal, "job " + std::to_string(job.id) + " leased a slot without a, b and c");
  if (!job.evaluate_on_gpu) {
    if (evaluate) groth16::evaluate(*key.cs, std::span<const F>(z), a, b, c);
    if (check_rows) {
      if (const auto row = groth16::first_unsatisfied_row(std::span<const F>(a), std::span<const F>(b),
                                                          std::span<const F>(c)))
        throw Error(Errc::bad_input, unsatisfied_row_message(*row, state.name));
    }
  }
  const auto publics = z.subspan(1, state.num_public);
  work.publics.assign(publics.begin(), publics.end());
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
    oneapi::tbb::this_task_arena::isolate(
        [&] { visit_curve(job, [&](const auto& key, auto& work) { run(ctx, job, key, work); }); });
    span.set_bytes(job.key->slot_bytes);
  });
}

}  // namespace proofline::nodes
