// Internal to nodes/: the CPU backend's H and MSM steps on a job's slot, in its key's curve, shared by the
// pinned stages (ntt.cpp, msm.cpp) and baseline mode (baseline.cpp).
#pragma once

#include <span>

#include <proofline/groth16/prover.hpp>
#include <proofline/nodes/job_state.hpp>

namespace proofline::nodes::detail {

/// The H scalars from a, b, c, in place: the first h_query.size() elements of a.
inline void cpu_h_step(JobState& job) {
  visit_curve(job, [&]<class Curve>(const CurveKey<Curve>& key, CurveWork<Curve>&) {
    using F = typename Curve::Fr;
    groth16::compute_h_scalars(*key.pk, scalars_as<F>(job.a), scalars_as<F>(job.b), scalars_as<F>(job.c));
  });
}

/// The five MSMs over z and the H scalars the H step left in a.
inline void cpu_msm_step(JobState& job) {
  visit_curve(job, [&]<class Curve>(const CurveKey<Curve>& key, CurveWork<Curve>& work) {
    using F = typename Curve::Fr;
    const auto& pk = *key.pk;
    const std::span<const F> z = scalars_as<F>(job.z);
    const std::span<const F> h = scalars_as<F>(job.a).first(pk.h_query.size());
    work.msm = groth16::compute_msms(pk, z, h);
  });
}

}  // namespace proofline::nodes::detail
