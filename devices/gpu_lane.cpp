// The parts of the GPU interface that need no CUDA.
#include <proofline/devices/gpu_lane.hpp>

#include <proofline/groth16/constraint_system.hpp>
#include <proofline/groth16/proving_key.hpp>

namespace proofline::devices {

const char* table_query_name(TableQuery query) noexcept {
  switch (query) {
    case TableQuery::h:
      return "H";
    case TableQuery::a:
      return "A";
    case TableQuery::b1:
      return "B1";
    case TableQuery::l:
      return "L";
    case TableQuery::b2:
      return "B2";
  }
  return "?";
}

std::uint64_t device_key_bytes(const GpuKey& key) {
  const std::uint64_t srs = std::visit(
      [](const auto* pk) { return pk->query_bytes() + l_query_padding(*pk) * sizeof(pk->l_query[0]); },
      key.pk);
  if (!key.cs) return srs;
  return srs + std::visit([](const auto* cs) { return cs->size_bytes(); }, *key.cs);
}

}  // namespace proofline::devices
