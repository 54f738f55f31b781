// Internal to the devices sources of the CUDA backend: what sizing the device slots, placing keys and
// enqueueing jobs share (names in messages, uploads, the walk over a key's five queries and their MSM
// tables).
#pragma once

#include <cstdint>
#include <string>

#include <proofline/cuda/check.hpp>
#include <proofline/devices/gpu_device.hpp>

namespace proofline::devices::detail {

inline std::string gpu_name(const GpuLane& lane) {
  return "GPU " + std::to_string(lane.device);
}

template <class T>
void upload(cuda::DeviceBuffer<T>& buffer, const groth16::SharedArray<T>& host) {
  buffer = cuda::DeviceBuffer<T>(host.size());
  if (!host.empty())
    PL_CUDA_CHECK(cudaMemcpy(buffer.data(), host.data(), host.size_bytes(), cudaMemcpyHostToDevice));
}

/// Calls f(query, device buffer or null, host points, leading points at infinity) for each of the key's five
/// queries. On a GPU, L's points are indexed like z (DeviceKey::l), after one point at infinity per public
/// variable.
template <class C, class F>
void for_each_query(DeviceKey<C>* key, const groth16::BasicProvingKey<C>& pk, F&& f) {
  f(TableQuery::h, key ? &key->h : nullptr, pk.h_query, std::size_t{0});
  f(TableQuery::a, key ? &key->a : nullptr, pk.a_query, std::size_t{0});
  f(TableQuery::b1, key ? &key->b1 : nullptr, pk.b1_query, std::size_t{0});
  f(TableQuery::l, key ? &key->l : nullptr, pk.l_query, l_query_padding(pk));
  f(TableQuery::b2, key ? &key->b2 : nullptr, pk.b2_query, std::size_t{0});
}

/// VRAM of pk's MSM tables at table level `level` beyond its points.
template <class C>
std::uint64_t msm_table_bytes(GpuDevice& g, const groth16::BasicProvingKey<C>& pk, unsigned level) {
  const CurveEngines<C>& e = g.engines<C>();
  if (!e.table_dense_g1) return 0;  // no device slots yet: no tables either
  std::uint64_t bytes = 0;
  for_each_query<C>(nullptr, pk, [&](TableQuery query, auto*, const auto& host, std::size_t padding) {
    const std::size_t n = padding + host.size();
    if (!table_level_has(level, query) || n == 0) return;
    bytes += (e.table_engine(query).table_points(n) - n) * sizeof(host[0]);
  });
  return bytes;
}

/// VRAM of a GPU's SRS streaming: two staging buffers and the running sums.
std::uint64_t srs_staging_bytes(const GpuOptions& options);

}  // namespace proofline::devices::detail
