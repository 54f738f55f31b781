#include <proofline/fleet/detail/wait_results.hpp>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <map>
#include <system_error>
#include <thread>
#include <variant>
#include <vector>

#include <proofline/fleet/detail/queue.hpp>
#include <proofline/fleet/detail/wakeup.hpp>
#include <proofline/groth16/json.hpp>
#include <proofline/groth16/snarkjs_jobs.hpp>
#include <proofline/groth16/snarkjs_json.hpp>
#include <proofline/groth16/verifier.hpp>
#include <proofline/util/options.hpp>

namespace proofline::fleet::detail {

namespace {

using Clock = std::chrono::steady_clock;
using namespace std::chrono_literals;

class Collector {
 public:
  Collector(std::span<const std::int64_t> ids, std::span<const std::string> names, const WaitOptions& options)
      : options_(options) {
    for (std::size_t i = 0; i < ids.size(); ++i) pending_[ids[i]] = names[i];
  }

  bool finished() const { return pending_.empty(); }

  /// Reads the results of `ids` (every pending job when empty) and handles those that ended.
  void collect(Connection& db, std::vector<std::int64_t> ids) {
    if (ids.empty())
      for (const auto& [id, name] : pending_) ids.push_back(id);
    std::erase_if(ids, [&](std::int64_t id) { return !pending_.contains(id); });
    if (ids.empty()) return;
    for (const FinishedJob& job : finished_jobs(db, ids)) {
      handle(job, pending_.at(job.id));
      pending_.erase(job.id);
    }
  }

  int summary() const {
    std::printf("%zu done, %zu failed%s", done_, failed_, pending_.empty() ? "" : ", ");
    if (!pending_.empty()) std::printf("%zu unfinished", pending_.size());
    if (options_.check)
      std::printf("; %zu of the proofs verify against %s", verified_, options_.check->file.c_str());
    std::printf("\n");
    const bool all_good =
        failed_ == 0 && pending_.empty() && (!options_.check || verified_ == done_) && !write_failed_;
    return all_good ? 0 : 1;
  }

 private:
  void handle(const FinishedJob& job, const std::string& name) {
    if (!job.done || !job.result) {
      ++failed_;
      std::fprintf(stderr, "job %lld (%s) failed after %d attempt%s: %s\n", static_cast<long long>(job.id),
                   name.c_str(), job.attempts, job.attempts == 1 ? "" : "s", job.error.c_str());
      return;
    }
    ++done_;
    try {
      if (job.result->curve == Bn254::snarkjs_name)
        take<Bn254>(groth16::decode_bn254_proof(job.result->proof), job, name);
      else
        take<Bls12_381>(groth16::decode_proof(job.result->proof), job, name);
    } catch (const Error& e) {
      write_failed_ = true;
      std::fprintf(stderr, "job %lld (%s): %s\n", static_cast<long long>(job.id), name.c_str(), e.what());
    }
  }

  /// A proof of `Curve`: checked against --check-vk (which must be of its curve) and written with --out.
  template <class Curve>
  void take(const groth16::BasicProof<Curve>& proof, const FinishedJob& job, const std::string& name) {
    const std::vector<typename Curve::Fr> publics = groth16::snarkjs_public_from_json<typename Curve::Fr>(
        groth16::json::parse(job.result->public_signals, "public signals"));
    if (options_.check) {
      const auto* vk = std::get_if<groth16::BasicPreparedVerifyingKey<Curve>>(&options_.check->vk);
      if (vk != nullptr && groth16::verify(*vk, publics, proof))
        ++verified_;
      else
        std::fprintf(stderr, "job %lld (%s): the %s proof does not verify against %s%s\n",
                     static_cast<long long>(job.id), name.c_str(), std::string(Curve::snarkjs_name).c_str(),
                     options_.check->file.c_str(), vk == nullptr ? " (a key of the other curve)" : "");
    }
    if (options_.out) groth16::write_snarkjs_outputs(*options_.out, name, proof, publics);
  }

  const WaitOptions& options_;
  std::map<std::int64_t, std::string> pending_;
  std::size_t done_ = 0, failed_ = 0, verified_ = 0;
  bool write_failed_ = false;
};

std::optional<Connection> reconnect(const WaitOptions& options, std::chrono::milliseconds& backoff) {
  try {
    Connection db(options.conninfo);
    db.command("listen for finished jobs", "LISTEN proofline_done");
    backoff = 100ms;
    return db;
  } catch (const RetryLater& e) {
    std::fprintf(stderr, "waiting for results: %s; retrying in %lld ms\n", e.what(),
                 static_cast<long long>(backoff.count()));
    std::this_thread::sleep_for(backoff);
    backoff = std::min(backoff * 2, std::chrono::milliseconds(5000));
    return std::nullopt;
  }
}

/// The job ids the notifications name (payloads are ids).
std::vector<std::int64_t> notified_ids(Connection& db) {
  std::vector<std::int64_t> ids;
  for (const Notification& n : db.take_notifications())
    if (n.channel == "proofline_done") ids.push_back(std::strtoll(n.payload.c_str(), nullptr, 10));
  return ids;
}

/// Why `vk` is not `key` (empty when it is).
template <class Curve>
std::string verifying_key_mismatch(const groth16::BasicVerifyingKey<Curve>& vk,
                                   const groth16::AnyVerifyingKey& key) {
  const auto* same_curve = std::get_if<groth16::BasicVerifyingKey<Curve>>(&key);
  if (same_curve == nullptr) {
    const std::string_view jobs_curve = std::visit(
        []<class Other>(const groth16::BasicVerifyingKey<Other>&) { return Other::snarkjs_name; }, key);
    return "it is a " + std::string(Curve::snarkjs_name) + " key, the jobs' key a " +
           std::string(jobs_curve) + " key";
  }
  if (vk.num_public() != same_curve->num_public())
    return "it has " + std::to_string(vk.num_public()) + " public inputs, the jobs' key " +
           std::to_string(same_curve->num_public());
  if (vk != *same_curve) return "its points differ (another circuit's key, or another setup's)";
  return {};
}

}  // namespace

void make_out_directory(const std::filesystem::path& out) {
  std::error_code ec;
  std::filesystem::create_directories(out, ec);
  if (ec || !std::filesystem::is_directory(out))
    throw OptionError("--out: cannot make directory " + out.string());
}

CheckKey load_check_key(const std::filesystem::path& file, const std::optional<JobsKey>& jobs_key) {
  std::string mismatch;
  try {
    const groth16::json::Value document = groth16::read_json_file(file);
    CheckKey key = with_curve(groth16::snarkjs_curve(document, file.string()), [&]<class Curve>() {
      const auto vk = groth16::snarkjs_verifying_key_from_json<Curve>(document, file.string());
      if (jobs_key) mismatch = verifying_key_mismatch(vk, jobs_key->vk);
      return CheckKey{file, groth16::prepare(vk)};
    });
    if (mismatch.empty()) return key;
  } catch (const Error& e) {
    const std::string what = e.what();
    throw OptionError("--check-vk: " +
                      (what.starts_with(file.string()) ? what : file.string() + ": " + what));
  }
  throw OptionError("--check-vk: " + file.string() + " is not the verification key of " + jobs_key->file +
                    ": " + mismatch);
}

int wait_for_results(Connection db, std::span<const std::int64_t> ids, std::span<const std::string> names,
                     const WaitOptions& options) {
  Collector collector(ids, names, options);
  std::optional<Connection> conn(std::move(db));
  Wakeup wakeup;
  const auto deadline =
      options.timeout_s
          ? Clock::now() + std::chrono::milliseconds(static_cast<std::int64_t>(*options.timeout_s * 1000))
          : Clock::time_point::max();
  std::chrono::milliseconds backoff = 100ms;
  std::vector<std::int64_t>
      next;  // empty: look at every pending job (at start, after a reconnect, on timeout)
  while (!collector.finished() && Clock::now() < deadline) {
    if (!conn && !(conn = reconnect(options, backoff))) continue;
    try {
      collector.collect(*conn, std::move(next));
      next.clear();
      if (collector.finished()) break;
      // Notifications that came in during the query are already in libpq's queue, not on the socket.
      if (!(next = notified_ids(*conn)).empty()) continue;
      const auto left =
          deadline == Clock::time_point::max()
              ? std::chrono::milliseconds(30s)
              : std::min<std::chrono::milliseconds>(
                    30s, std::chrono::duration_cast<std::chrono::milliseconds>(deadline - Clock::now()));
      const bool readable = wakeup.wait(conn->socket(), std::max(left, std::chrono::milliseconds(0)));
      next = notified_ids(*conn);
      if (readable && next.empty()) next.push_back(-1);  // woken for nothing of ours: look at nothing
    } catch (const RetryLater& e) {
      std::fprintf(stderr, "waiting for results: %s; reconnecting\n", e.what());
      conn.reset();
      next.clear();
    }
  }
  return collector.summary();
}

}  // namespace proofline::fleet::detail
