#include <proofline/groth16/key_check.hpp>

#include <chrono>
#include <fstream>
#include <iterator>
#include <optional>
#include <span>
#include <system_error>
#include <type_traits>
#include <vector>

#include <tbb/parallel_for.h>

#include <proofline/groth16/detail/batch_subgroup.hpp>
#include <proofline/groth16/detail/sha256.hpp>
#include <proofline/util/atomic_file.hpp>
#include <proofline/util/cache_dir.hpp>
#include <proofline/util/logging.hpp>

namespace proofline::groth16 {

namespace {

using Clock = std::chrono::steady_clock;
constexpr std::size_t chunk_bytes = std::size_t{16} << 20;
constexpr std::string_view digest_tag = "proofline checked-key queries v1";
// A record is a few short lines; anything longer is not one.
constexpr std::size_t max_record_bytes = 4096;

double seconds_since(Clock::time_point start) {
  return std::chrono::duration<double>(Clock::now() - start).count();
}

struct QueryBytes {
  std::uint64_t points;
  const std::byte* data;
  std::uint64_t size;
};

template <class Curve>
std::array<QueryBytes, 5> query_bytes(const BasicProvingKey<Curve>& pk) {
  const auto view = [](const auto& query) {
    return QueryBytes{query.size(), reinterpret_cast<const std::byte*>(query.data()), query.size_bytes()};
  };
  return {view(pk.a_query), view(pk.b1_query), view(pk.b2_query), view(pk.h_query), view(pk.l_query)};
}

std::string hex(const detail::Sha256Digest& digest) {
  static constexpr char digits[] = "0123456789abcdef";
  std::string out;
  for (const std::uint8_t byte : digest) {
    out += digits[byte >> 4];
    out += digits[byte & 15];
  }
  return out;
}

std::string record_text(const std::string& digest) {
  return "proofline checked key\nsha256 " + digest +
         "\nsubgroup check: " + std::to_string(detail::batch_subgroup_rounds) +
         " rounds of {-1,0,1} combinations\n";
}

std::filesystem::path record_path(const std::filesystem::path& directory, const std::string& digest) {
  return directory / (digest + ".checked");
}

/// Whether a valid record for `digest` exists; anything else (missing, unreadable, corrupt, another
/// digest's) is ignored.
bool has_record(const std::filesystem::path& directory, const std::string& digest) {
  // Only a regular file: opening a FIFO planted under the record's name would block the load.
  std::error_code error;
  if (!std::filesystem::is_regular_file(record_path(directory, digest), error)) return false;
  std::ifstream in(record_path(directory, digest), std::ios::binary);
  if (!in) return false;
  std::string text(max_record_bytes + 1, '\0');
  in.read(text.data(), static_cast<std::streamsize>(text.size()));
  text.resize(static_cast<std::size_t>(in.gcount()));
  if (text == record_text(digest)) return true;
  PL_LOG_DEBUG("key check: ignoring {}: not a valid record for this key",
               record_path(directory, digest).string());
  return false;
}

bool write_record(const std::filesystem::path& directory, const std::string& digest) {
  try {
    std::error_code ignored;
    std::filesystem::create_directories(directory, ignored);
    AtomicOutputFile out(record_path(directory, digest), 0644);
    const std::string text = record_text(digest);
    out.write_at(text.data(), text.size(), 0);
    out.commit(false);
    return true;
  } catch (const std::exception& e) {
    // The key is fine; only the memory of it is lost.
    PL_LOG_DEBUG("key check: could not remember the key: {}", e.what());
    return false;
  }
}

/// Batched random combinations (detail/batch_subgroup.hpp: sound for both curves' cofactors), and the
/// per-point search only to name a bad point. BN254's G1 has cofactor 1: every point on the curve is in it.
template <class Curve, class Affine>
std::optional<std::uint64_t> first_bad_point(std::span<const Affine> points) {
  if constexpr (std::is_same_v<Curve, Bn254> && std::is_same_v<Affine, typename Curve::G1Affine>) {
    return std::nullopt;
  } else {
    if (detail::batch_in_subgroup(points)) return std::nullopt;
    return detail::first_outside_subgroup(points);
  }
}

template <class Curve, class Affine>
void check_query(const SharedArray<Affine>& query, const SubgroupTester* tester, Errc code,
                 std::string_view context, std::string_view name) {
  const std::span<const Affine> points(query.data(), query.size());
  std::optional<std::uint64_t> bad;
  if (tester != nullptr) {
    bad = tester->first_outside(points);
  } else {
    bad = first_bad_point<Curve>(points);
  }
  // The batch can only fail for a point outside the subgroup, which the per-point test then finds.
  if (!bad) return;
  throw Error(code, std::string(context) + ": " + std::string(name) + ": point " + std::to_string(*bad) +
                        " is not in the prime-order subgroup");
}

}  // namespace

std::filesystem::path default_checked_keys_directory() {
  const std::optional<std::filesystem::path> cache = user_cache_dir();
  return cache ? *cache / "checked-keys" : std::filesystem::path();
}

template <class Curve>
std::string query_digest(const BasicProvingKey<Curve>& pk) {
  const std::array<QueryBytes, 5> queries = query_bytes(pk);
  struct Chunk {
    const std::byte* data;
    std::size_t size;
  };
  std::vector<Chunk> chunks;
  std::vector<std::size_t> first_chunk;
  for (const QueryBytes& q : queries) {
    first_chunk.push_back(chunks.size());
    for (std::uint64_t at = 0; at < q.size; at += chunk_bytes)
      chunks.push_back(
          {q.data + at, static_cast<std::size_t>(std::min<std::uint64_t>(chunk_bytes, q.size - at))});
  }
  first_chunk.push_back(chunks.size());
  std::vector<detail::Sha256Digest> leaves(chunks.size());
  tbb::parallel_for(std::size_t{0}, chunks.size(),
                    [&](std::size_t i) { leaves[i] = detail::sha256(chunks[i].data, chunks[i].size); });
  detail::Sha256 root;
  // BLS12-381's tag is the original one, so records written before BN254 existed stay valid.
  root.update(digest_tag.data(), digest_tag.size());
  if constexpr (!std::is_same_v<Curve, Bls12_381>) root.update(Curve::name.data(), Curve::name.size());
  for (std::size_t q = 0; q < queries.size(); ++q) {
    const std::uint64_t header[3] = {queries[q].points, queries[q].size, first_chunk[q + 1] - first_chunk[q]};
    root.update(header, sizeof header);
    for (std::size_t i = first_chunk[q]; i < first_chunk[q + 1]; ++i) root.update(leaves[i].data(), 32);
  }
  return hex(root.finish());
}

template <class Curve>
KeyCheckReport check_query_subgroups(const BasicProvingKey<Curve>& pk, Errc code, std::string_view context,
                                     const KeyCheckOptions& options, const QueryNames& names) {
  KeyCheckReport report;
  std::filesystem::path directory;
  if (options.use_cache)
    directory = options.cache_directory.empty() ? default_checked_keys_directory() : options.cache_directory;
  if (!directory.empty()) {
    const Clock::time_point start = Clock::now();
    report.digest = query_digest(pk);
    report.hash_seconds = seconds_since(start);
    if (has_record(directory, report.digest)) {
      report.from_cache = true;
      PL_LOG_DEBUG("{}: query points checked before (record {}, hashed in {:.3f} s): subgroup check skipped",
                   context, report.digest, report.hash_seconds);
      return report;
    }
  }
  const Clock::time_point start = Clock::now();
  const SubgroupTester* tester = options.tester.get();
  check_query<Curve>(pk.a_query, tester, code, context, names.a);
  check_query<Curve>(pk.b1_query, tester, code, context, names.b1);
  check_query<Curve>(pk.b2_query, tester, code, context, names.b2);
  check_query<Curve>(pk.h_query, tester, code, context, names.h);
  check_query<Curve>(pk.l_query, tester, code, context, names.l);
  report.check_seconds = seconds_since(start);
  report.subgroups_checked = true;
  report.on_tester = tester != nullptr;
  if (!directory.empty()) report.record_written = write_record(directory, report.digest);
  PL_LOG_DEBUG("{}: query points in their subgroups ({:.3f} s{}){}", context, report.check_seconds,
               report.on_tester ? ", on the GPU" : "",
               report.record_written ? ", remembered as " + report.digest : std::string());
  return report;
}

template std::string query_digest(const BasicProvingKey<Bls12_381>&);
template std::string query_digest(const BasicProvingKey<Bn254>&);
template KeyCheckReport check_query_subgroups(const BasicProvingKey<Bls12_381>&, Errc, std::string_view,
                                              const KeyCheckOptions&, const QueryNames&);
template KeyCheckReport check_query_subgroups(const BasicProvingKey<Bn254>&, Errc, std::string_view,
                                              const KeyCheckOptions&, const QueryNames&);

}  // namespace proofline::groth16
