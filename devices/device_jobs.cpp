// A job's work on one GPU: the copies of its vectors into a device slot, its five MSMs (over the resident
// key, its MSM tables where it has them, or streamed points), the evaluation of a, b, c from z, and the spans
// read back from its CUDA events.
#include <proofline/devices/gpu_device.hpp>

#include <proofline/cuda/check.hpp>
#include <proofline/util/error.hpp>

namespace proofline::devices {

void enqueue_h2d(DeviceSlot& slot, const Fr* a, const Fr* b, const Fr* c, std::uint64_t abc_bytes,
                 const Fr* z, std::uint64_t z_bytes, cudaStream_t stream) {
  if (abc_bytes != 0) {
    PL_CUDA_CHECK(cudaMemcpyAsync(slot.a.data(), a, abc_bytes, cudaMemcpyHostToDevice, stream));
    PL_CUDA_CHECK(cudaMemcpyAsync(slot.b.data(), b, abc_bytes, cudaMemcpyHostToDevice, stream));
    PL_CUDA_CHECK(cudaMemcpyAsync(slot.c.data(), c, abc_bytes, cudaMemcpyHostToDevice, stream));
  }
  PL_CUDA_CHECK(cudaMemcpyAsync(slot.z.data(), z, z_bytes, cudaMemcpyHostToDevice, stream));
}

void record_device_span(trace::Recorder& recorder, const DeviceSlot& slot, trace::StageId stage,
                        trace::TrackId track, const cuda::Event& begin, const cuda::Event& end,
                        std::uint64_t job, std::uint64_t bytes) {
  if (!slot.anchor) return;
  float begin_ms = 0, end_ms = 0;
  // Both events completed before the host function that led here ran: this never waits.
  if (cudaEventElapsedTime(&begin_ms, slot.anchor->event, begin) != cudaSuccess ||
      cudaEventElapsedTime(&end_ms, slot.anchor->event, end) != cudaSuccess) {
    (void)cudaGetLastError();
    return;
  }
  trace::Span span;
  span.begin_ns = slot.anchor->host.to_host_ns(begin_ms);
  span.end_ns = slot.anchor->host.to_host_ns(end_ms);
  span.job = job;
  span.bytes = bytes;
  span.stage = stage;
  span.gpu = static_cast<std::int16_t>(slot.lane->device);
  span.track = track;
  recorder.record_span(span);
}

template <class C>
void enqueue_job_msms(GpuDevice& g, const groth16::BasicProvingKey<C>& pk, const BasicHostSrs<C>* streamed,
                      const memory::ResidentHandle& resident, DeviceSlot& slot) {
  using F = typename C::Fr;
  const CurveEngines<C>& e = g.engines<C>();
  const std::size_t nv = pk.num_variables;
  const F* z = scalars_of<F>(slot.z);
  const F* z_private = z + pk.num_public + 1;
  const F* h_scalars = scalars_of<F>(slot.a);  // the NTT stage leaves H's coefficients in a
  MsmResultsDevice<C>* r = slot.results_of<C>();
  void* scratch = slot.scratch.data();
  cudaStream_t stream = slot.compute;
  if (const BasicHostSrs<C>* srs = streamed) {
    cuda::MsmPointStream& points = *g.point_stream;
    points.enqueue_msm_g1(*e.stream_sparse_g1, srs->a, z, nv, &r->a, scratch, stream);
    points.enqueue_msm_g1(*e.stream_sparse_g1, srs->b1, z, nv, &r->b1, scratch, stream);
    points.enqueue_msm_g2(*e.stream_sparse_g2, srs->b2, z, nv, &r->b2, scratch, stream);
    points.enqueue_msm_g1(*e.stream_sparse_g1, srs->l, z_private, pk.l_query.size(), &r->l, scratch, stream);
    points.enqueue_msm_g1(*e.stream_dense_g1, srs->h, h_scalars, pk.h_query.size(), &r->h, scratch, stream);
    return;
  }
  const DeviceKey<C>& key = *resident.as<DeviceKey<C>>();
  // A query with its MSM table runs on the table engine that made it.
  const auto engine = [&](TableQuery query, const std::unique_ptr<cuda::BasicMsmEngine<C>>& plain)
      -> const cuda::BasicMsmEngine<C>& { return key.has_table(query) ? e.table_engine(query) : *plain; };
  // A, B1 and B2 all take z: its scalar phases run once for those whose engines share them (the same plan,
  // which the G1 and G2 engines of one kind have), and the rest run whole MSMs afterwards.
  const cuda::BasicMsmEngine<C>& a_engine = engine(TableQuery::a, e.msm_sparse_g1);
  const cuda::BasicMsmEngine<C>& b1_engine = engine(TableQuery::b1, e.msm_sparse_g1);
  const cuda::BasicMsmEngine<C>& b2_engine = engine(TableQuery::b2, e.msm_sparse_g2);
  const cuda::BasicMsmEngine<C>& l_engine = engine(TableQuery::l, e.msm_sparse_g1);
  a_engine.enqueue_sort(z, nv, scratch, stream);
  a_engine.enqueue_sorted_msm_g1(key.a.data(), nv, &r->a, scratch, stream);
  // L's points are indexed like z (its public prefix at infinity), so it takes the same sorted scalars.
  const bool b1_shares = b1_engine.shares_sort(a_engine), b2_shares = b2_engine.shares_sort(a_engine),
             l_shares = l_engine.shares_sort(a_engine);
  if (b1_shares) b1_engine.enqueue_sorted_msm_g1(key.b1.data(), nv, &r->b1, scratch, stream);
  if (l_shares) l_engine.enqueue_sorted_msm_g1(key.l.data(), nv, &r->l, scratch, stream);
  if (b2_shares) b2_engine.enqueue_sorted_msm_g2(key.b2.data(), nv, &r->b2, scratch, stream);
  if (!b1_shares) b1_engine.enqueue_msm_g1(key.b1.data(), z, nv, &r->b1, scratch, stream);
  if (!l_shares) l_engine.enqueue_msm_g1(key.l.data(), z, nv, &r->l, scratch, stream);
  if (!b2_shares) b2_engine.enqueue_msm_g2(key.b2.data(), z, nv, &r->b2, scratch, stream);
  engine(TableQuery::h, e.msm_dense_g1)
      .enqueue_msm_g1(key.h.data(), h_scalars, pk.h_query.size(), &r->h, scratch, stream);
}

template <class C>
void enqueue_job_evaluation(const memory::ResidentHandle& resident, DeviceSlot& slot, std::uint64_t n,
                            bool check_rows) {
  using F = typename C::Fr;
  const DeviceKey<C>& key = *resident.as<DeviceKey<C>>();
  if (!key.r1cs) throw Error(Errc::internal, "the key's constraint system is not on the GPU");
  const DeviceR1cs<F>& r1cs = *key.r1cs;
  const cuda::DeviceCsr<F> c = r1cs.c ? r1cs.c->view() : cuda::DeviceCsr<F>{};
  cuda::enqueue_evaluate_r1cs<F>(r1cs.a.view(), r1cs.b.view(), r1cs.c ? &c : nullptr, r1cs.rows, n,
                                 scalars_of<F>(slot.z), scalars_of<F>(slot.a), scalars_of<F>(slot.b),
                                 scalars_of<F>(slot.c), check_rows ? slot.first_bad_row() : nullptr,
                                 slot.compute);
}

template void enqueue_job_evaluation<Bls12_381>(const memory::ResidentHandle&, DeviceSlot&, std::uint64_t,
                                                bool);
template void enqueue_job_evaluation<Bn254>(const memory::ResidentHandle&, DeviceSlot&, std::uint64_t, bool);

template void enqueue_job_msms(GpuDevice&, const groth16::BasicProvingKey<Bls12_381>&,
                               const BasicHostSrs<Bls12_381>*, const memory::ResidentHandle&, DeviceSlot&);
template void enqueue_job_msms(GpuDevice&, const groth16::BasicProvingKey<Bn254>&, const BasicHostSrs<Bn254>*,
                               const memory::ResidentHandle&, DeviceSlot&);
}  // namespace proofline::devices
