// The parts of the GPU interface that need no CUDA.
#include <proofline/devices/gpu_lane.hpp>

#include <array>

#include <proofline/groth16/constraint_system.hpp>
#include <proofline/groth16/proving_key.hpp>

namespace proofline::devices {

namespace {

constexpr unsigned bit(TableQuery query) noexcept {
  return 1u << static_cast<unsigned>(query);
}

/// The queries of each table level, as bits by TableQuery.
constexpr std::array<unsigned, kTopTableLevel + 1> kTableSets = [] {
  using enum TableQuery;
  const unsigned h_b2 = bit(h) | bit(b2);
  return std::array<unsigned, kTopTableLevel + 1>{0,
                                                  bit(h),
                                                  bit(h) | bit(a),
                                                  h_b2,
                                                  h_b2 | bit(a),
                                                  h_b2 | bit(a) | bit(b1),
                                                  h_b2 | bit(a) | bit(b1) | bit(l)};
}();
static_assert(kTableSets.back() == (1u << kTableQueries) - 1, "the top level holds every query's table");

}  // namespace

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

bool table_level_has(unsigned level, TableQuery query) noexcept {
  return level <= kTopTableLevel && (kTableSets[level] & bit(query)) != 0;
}

std::string table_level_names(unsigned level) {
  std::string names;
  for (unsigned q = 0; q < kTableQueries; ++q) {
    const auto query = static_cast<TableQuery>(q);
    if (table_level_has(level, query))
      names += std::string(names.empty() ? "" : ", ") + table_query_name(query);
  }
  return names.empty() ? "none" : names;
}

std::uint64_t device_key_bytes(const GpuKey& key) {
  const std::uint64_t srs = std::visit(
      [](const auto* pk) { return pk->query_bytes() + l_query_padding(*pk) * sizeof(pk->l_query[0]); },
      key.pk);
  if (!key.cs) return srs;
  return srs + std::visit([](const auto* cs) { return cs->size_bytes(); }, *key.cs);
}

}  // namespace proofline::devices
