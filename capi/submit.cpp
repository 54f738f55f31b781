// pl_submit_*: jobs from a .wtns file or its image in memory, a caller's scalars, or a witness callback
// writing into the pinned slot; and the delivery of each result to its handle and its completion callback.
#include <cstddef>
#include <cstring>
#include <memory>
#include <type_traits>
#include <vector>

#include <proofline/capi/detail/config.hpp>
#include <proofline/capi/detail/objects.hpp>
#include <proofline/capi/detail/registry.hpp>
#include <proofline/capi/detail/scalars.hpp>
#include <proofline/capi/detail/versioned.hpp>
#include <proofline/capi/detail/witness_target.hpp>
#include <proofline/groth16/wtns.hpp>
#include <proofline/util/logging.hpp>

namespace proofline::capi {

namespace {

struct JobOptions {
  int priority = 0;
  std::uint32_t flags = 0;
  std::string label;
  std::uint64_t timeout_ms = 0;
  pl_completion_fn on_complete = nullptr;
  void* user_data = nullptr;
};

JobOptions job_options(const pl_job_options* in) {
  JobOptions o;
  if (in == nullptr) return o;
  check_struct_size(in, "options");
  if (PL_CAPI_HAS_FIELD(in, priority)) o.priority = in->priority;
  if (PL_CAPI_HAS_FIELD(in, flags)) o.flags = in->flags;
  if (PL_CAPI_HAS_FIELD(in, label) && in->label != nullptr) o.label = in->label;
  if (PL_CAPI_HAS_FIELD(in, timeout_ms)) o.timeout_ms = in->timeout_ms;
  if (PL_CAPI_HAS_FIELD(in, on_complete)) o.on_complete = in->on_complete;
  if (PL_CAPI_HAS_FIELD(in, user_data)) o.user_data = in->user_data;
  if ((o.flags & ~std::uint32_t{PL_SUBMIT_NO_WAIT}) != 0)
    throw_status(PL_ERR_INVALID_ARGUMENT, "options->flags has unknown bits " + std::to_string(o.flags));
  return o;
}

/// The job's result into its handle, then its completion callback, then the waiters.
void deliver(const std::shared_ptr<Job>& job, const graph::JobResult& result) noexcept {
  try {
    job->result = result;
  } catch (...) {
    job->result = graph::JobResult{};
    job->result.error = graph::JobError{graph::Stage::release, Errc::io, "out of memory copying the result"};
  }
  job->ready.store(true, std::memory_order_release);
  if (job->on_complete != nullptr) {
    CallbackScope scope;
    try {
      job->on_complete(handle_of<pl_job>(job->handle), job->user_data);
    } catch (...) {
      PL_LOG_ERROR("job {}: its completion callback threw; the exception was dropped", result.id);
    }
  }
  {
    std::lock_guard lock(job->mutex);
    job->completed = true;
  }
  job->completed_cv.notify_all();
}

/// PL_ERR_INVALID_HANDLE when a pl_key_release of `key` ran since this call found it: the handle was the
/// caller's, and it was released under the call (the prover then refuses the key as removed or unknown).
void refuse_released(const Key& key) {
  if (key.mark.released.load())
    throw_status(PL_ERR_INVALID_HANDLE,
                 "key '" + key.name + "' was released (pl_key_release) while this call was submitting to it");
}

/// Submits `witness` for `key`: the handle is registered before the job can complete, so a callback that
/// fires at once already sees it.
pl_job* submit(pl_pipeline* pipeline, const pl_key* key, graph::WitnessSource witness, const JobOptions& o) {
  const std::shared_ptr<Pipeline> owner = lookup<Pipeline>(pipeline, "pipeline");
  refuse_closing(*owner);
  const std::shared_ptr<Key> k = lookup<Key>(key, "key");
  if (const std::shared_ptr<Pipeline> home = k->pipeline.lock(); home != owner)
    throw_status(PL_ERR_INVALID_ARGUMENT,
                 "key '" + k->name + "' " +
                     (home ? "belongs to another pipeline"
                           : "belonged to a pipeline that was destroyed (register it with this one)"));
  if (owner->test_submit_window) owner->test_submit_window();
  refuse_released(*k);
  auto job = std::make_shared<Job>();
  job->on_complete = o.on_complete;
  job->user_data = o.user_data;
  job->pipeline = owner;
  job->handle = Registry<Job>::instance().add(job);
  graph::Job spec{.key = k->handle,
                  .witness = std::move(witness),
                  .priority = o.priority,
                  .label = o.label,
                  // Never while the job's witness callback runs (graph::WitnessCallback).
                  .on_result = [job](const graph::JobResult& r) { deliver(job, r); }};
  if (o.timeout_ms != 0) spec.timeout = milliseconds_of(o.timeout_ms);
  try {
    std::optional<graph::Submission> accepted;
    if ((o.flags & PL_SUBMIT_NO_WAIT) != 0)
      accepted = owner->prover.try_submit(std::move(spec));
    else
      accepted = owner->prover.submit(std::move(spec));
    if (!accepted) throw_status(PL_ERR_QUEUE_FULL, "the queue is full (pl_config.queue_capacity)");
    job->id.store(accepted->id);
  } catch (const Error& e) {
    Registry<Job>::instance().take(job->handle);
    if (e.code() == Errc::cancelled) throw_status(PL_ERR_SHUT_DOWN, e.what());
    refuse_released(*k);
    throw;
  } catch (...) {
    Registry<Job>::instance().take(job->handle);
    throw;
  }
  return handle_of<pl_job>(job->handle);
}

/// The caller's scalars (of `curve`, the key's), copied (into a buffer of `buffers`, or a fresh one without);
/// converted straight into the pinned slot during synthesis.
graph::WitnessCallback scalar_witness(ScalarBuffers* buffers, const std::uint8_t* scalars, std::size_t count,
                                      CurveId curve) {
  const std::size_t size = count * PL_SCALAR_BYTES;
  std::shared_ptr<const std::vector<std::uint8_t>> bytes =
      buffers ? buffers->copy(scalars, size)
              : std::make_shared<const std::vector<std::uint8_t>>(scalars, scalars + size);
  const auto convert = [bytes, count]<class F>(std::span<F> z) {
    if (z.size() != count) throw Error(Errc::invalid_argument, "the witness has the wrong length");
    const std::size_t bad = first_non_canonical<F>(bytes->data(), count);
    if (bad != count)
      throw Error(Errc::bad_input,
                  "witness scalar " + std::to_string(bad) + " " + not_below_r(curve_of_scalar<F>()));
    scalars_to_fr(bytes->data(), z);
  };
  graph::WitnessCallback callback{[convert, curve](const graph::WitnessTarget& target) {
    if (curve == CurveId::bn254)
      convert(target.bn254_z.unchecked());
    else
      convert(target.z.unchecked());
  }};
  callback.curve = curve;
  return callback;
}

graph::WitnessCallback callback_witness(pl_witness_fn fill, void* user_data, bool fills_abc, CurveId curve) {
  return graph::WitnessCallback{
      [fill, user_data, fills_abc](const graph::WitnessTarget& target) {
        run_witness_fn(fill, user_data, fills_abc, target);
      },
      fills_abc ? graph::WitnessCallback::Fills::witness_and_abc : graph::WitnessCallback::Fills::witness,
      curve};
}

/// A scalar witness for `key`, whose scalars the caller says are of `curve_code` (a pl_curve).
graph::WitnessSource scalars_for_key(const pl_key* key, std::int32_t curve_code, const uint8_t* scalars,
                                     size_t count) {
  require(scalars, "scalars");
  if (!is_curve_code(curve_code))
    throw_status(PL_ERR_INVALID_ARGUMENT, "curve = " + std::to_string(curve_code) + " is not a pl_curve");
  const std::shared_ptr<Key> k = lookup<Key>(key, "key");
  const CurveId curve = curve_of_code(curve_code);
  if (curve != k->curve())
    throw_status(PL_ERR_BAD_INPUT,
                 "the scalars are " + std::string(curve_name(curve)) + "'s, key '" + k->name + "' is " +
                     std::string(curve_name(k->curve())) +
                     "'s: give scalars below its r with its pl_curve (" +
                     (k->curve() == CurveId::bn254 ? "PL_CURVE_BN254, pl_submit_scalars_curve"
                                                   : "PL_CURVE_BLS12_381") +
                     ")");
  const std::uint64_t expected = k->num_variables();
  if (count != expected)
    throw_status(PL_ERR_INVALID_ARGUMENT, "count is " + std::to_string(count) + ", the key has " +
                                              std::to_string(expected) + " variables (z[0] = 1 included)");
  const std::shared_ptr<Pipeline> owner = k->pipeline.lock();  // gone: submit refuses the job
  return scalar_witness(owner ? owner->scalar_buffers.get() : nullptr, scalars, count, curve);
}

/// A .wtns image for `key`, copied, its container and header checked (the values are checked in synthesis).
graph::WitnessSource wtns_image_for_key(const pl_key* key, const void* data, size_t length) {
  require(data, "data");
  const std::shared_ptr<Key> k = lookup<Key>(key, "key");
  const auto* bytes = static_cast<const std::byte*>(data);
  auto image = std::make_shared<const std::vector<std::byte>>(bytes, bytes + length);
  graph::WtnsImage witness{.image = std::move(image)};
  groth16::read_wtns_header_for(*witness.image, witness.name, k->curve(), k->num_variables(),
                                "key '" + k->name + "'");
  return witness;
}

/// make_witness() makes the job's witness source.
template <class MakeWitness>
pl_status submit_entry(const char* function, pl_pipeline* pipeline, const pl_key* key,
                       const pl_job_options* options, pl_job** out, MakeWitness&& make_witness) {
  return guarded(function, [&] {
    require(out, "out");
    *out = nullptr;
    const JobOptions o = job_options(options);
    *out = submit(pipeline, key, make_witness(), o);
    return PL_OK;
  });
}

}  // namespace

}  // namespace proofline::capi

using namespace proofline;
using namespace proofline::capi;

extern "C" {

PL_API pl_status pl_submit_wtns(pl_pipeline* pipeline, const pl_key* key, const char* wtns_path,
                                const pl_job_options* options, pl_job** out) {
  return submit_entry("pl_submit_wtns", pipeline, key, options, out, [&]() -> graph::WitnessSource {
    require(wtns_path, "wtns_path");
    return graph::WtnsFile{wtns_path};
  });
}

PL_API pl_status pl_submit_wtns_memory(pl_pipeline* pipeline, const pl_key* key, const void* data,
                                       size_t length, const pl_job_options* options, pl_job** out) {
  return submit_entry("pl_submit_wtns_memory", pipeline, key, options, out,
                      [&]() -> graph::WitnessSource { return wtns_image_for_key(key, data, length); });
}

PL_API pl_status pl_submit_scalars(pl_pipeline* pipeline, const pl_key* key, const uint8_t* scalars,
                                   size_t count, const pl_job_options* options, pl_job** out) {
  return submit_entry("pl_submit_scalars", pipeline, key, options, out, [&]() -> graph::WitnessSource {
    return scalars_for_key(key, PL_CURVE_BLS12_381, scalars, count);
  });
}

PL_API pl_status pl_submit_scalars_curve(pl_pipeline* pipeline, const pl_key* key, int32_t curve,
                                         const uint8_t* scalars, size_t count, const pl_job_options* options,
                                         pl_job** out) {
  return submit_entry("pl_submit_scalars_curve", pipeline, key, options, out,
                      [&]() -> graph::WitnessSource { return scalars_for_key(key, curve, scalars, count); });
}

PL_API pl_status pl_submit_callback(pl_pipeline* pipeline, const pl_key* key, pl_witness_fn fill,
                                    void* fill_user_data, int32_t fills, const pl_job_options* options,
                                    pl_job** out) {
  return submit_entry("pl_submit_callback", pipeline, key, options, out, [&]() -> graph::WitnessSource {
    if (fill == nullptr) throw_status(PL_ERR_NULL_POINTER, "fill is NULL");
    if (fills != PL_FILLS_WITNESS && fills != PL_FILLS_WITNESS_AND_ABC)
      throw_status(PL_ERR_INVALID_ARGUMENT, "fills = " + std::to_string(fills) + " is not a pl_fills");
    return callback_witness(fill, fill_user_data, fills == PL_FILLS_WITNESS_AND_ABC,
                            lookup<Key>(key, "key")->curve());
  });
}

}  // extern "C"
