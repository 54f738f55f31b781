// `submit`: queues one job per witness file, labelled with a batch, and, with --wait, collects the results as
// they end (LISTEN proofline_done), writing snarkjs's proof.json and public.json for each, as batch_prove
// --out does. `wait` collects them the same way later, by the batch or the ids this prints.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <ctime>
#include <filesystem>
#include <random>
#include <set>

#include <proofline/fleet/commands.hpp>
#include <proofline/fleet/detail/argv.hpp>
#include <proofline/fleet/detail/conninfo.hpp>
#include <proofline/fleet/detail/id_ranges.hpp>
#include <proofline/fleet/detail/queue.hpp>
#include <proofline/fleet/detail/schema.hpp>
#include <proofline/fleet/detail/wait_results.hpp>
#include <proofline/fleet/detail/wakeup.hpp>
#include <proofline/groth16/json.hpp>
#include <proofline/groth16/snarkjs_jobs.hpp>
#include <proofline/groth16/zkey.hpp>
#include <proofline/util/options.hpp>
#include <proofline/util/text.hpp>

namespace proofline::fleet {

namespace {

namespace fs = std::filesystem;

constexpr const char* usage_arguments = " --zkey KEY.zkey --wtns A.wtns ... [options]";
constexpr const char* about =
    "Queues one proving job per witness file. Paths are stored absolute: the workers must see the same files "
    "(shared storage), unless --inline stores the witnesses in the database.";

struct SubmitCli {
  std::optional<fs::path> zkey, out, check_vk, db_url_file;
  std::string batch;  ///< empty: one made up (batch_label)
  std::vector<fs::path> wtns;
  bool wait = false, inline_witness = false;
  int priority = 0, max_attempts = 3;
  std::optional<double> deadline_s, timeout_s;
  std::optional<detail::CheckKey> check;  ///< --check-vk's key, read before anything is submitted
};

/// Witnesses stored in the database are meant to be small: anything larger goes by path.
constexpr std::uintmax_t max_inline_bytes = 16u << 20;

std::vector<std::uint8_t> read_witness_bytes(const fs::path& path) {
  try {
    // A witness file, refused at once when it is not one (a FIFO, a folder) rather than waited on.
    const std::string bytes = groth16::json::read_text_file(
        path, max_inline_bytes, "a witness stored inline (16 MiB at most: submit it without --inline)");
    if (bytes.empty()) throw Error(Errc::bad_input, path.string() + ": the file is empty (not a .wtns file)");
    return {bytes.begin(), bytes.end()};
  } catch (const Error& e) {
    throw OptionError(std::string("--wtns: ") + e.what());  // nothing is submitted
  }
}

/// A label no other submission is likely to have, that says when it was made: UTC date and time and 24
/// random bits ("20261205-021530-3fa2c1").
std::string batch_label() {
  const std::time_t now = std::chrono::system_clock::to_time_t(std::chrono::system_clock::now());
  std::tm utc{};
  gmtime_r(&now, &utc);
  char when[32];
  std::strftime(when, sizeof when, "%Y%m%d-%H%M%S", &utc);
  char label[48];
  std::snprintf(label, sizeof label, "%s-%06x", when, std::random_device{}() & 0xffffffu);
  return label;
}

std::vector<detail::NewJob> plan_jobs(const SubmitCli& o) {
  std::vector<detail::NewJob> jobs;
  std::set<std::string> names;
  for (const fs::path& w : o.wtns) {
    detail::NewJob job;
    job.name = groth16::wtns_job_name(w);
    if (o.out && !names.insert(job.name).second)
      throw OptionError("--wtns: two witnesses are named " + job.name +
                        ": their outputs would overwrite each other");
    job.key_path = fs::absolute(*o.zkey).lexically_normal().string();
    if (o.inline_witness)
      job.witness_inline = read_witness_bytes(w);
    else
      job.witness_path = fs::absolute(w).lexically_normal().string();
    job.priority = o.priority;
    job.deadline_in_s = o.deadline_s;
    job.max_attempts = o.max_attempts;
    job.batch = o.batch;
    jobs.push_back(std::move(job));
  }
  return jobs;
}

void add_options(OptionParser& cli, SubmitCli& o) {
  cli.path_once("--zkey", "KEY.zkey", "the snarkjs Groth16 key (bls12381 or bn128) every job proves with",
                o.zkey,
                "every job of a submission proves with the one key (submit each key's witnesses apart)");
  cli.values("--wtns", "A.wtns B.wtns...", "witness files (circom's .wtns), one job each",
             [&o](std::string_view file) { o.wtns.emplace_back(file); });
  cli.flag("--inline", "store the witnesses in the database (at most 16 MiB each), erased when the job ends",
           o.inline_witness);
  cli.integer("--priority", "N", "higher is claimed first (default 0)", o.priority,
              Bounds<int>{-1'000'000, 1'000'000});
  cli.value("--deadline", "SECONDS", "claimed before jobs without one; failed if unclaimed SECONDS from now",
            [&o](std::string_view t) {
              o.deadline_s = parse_real_option("--deadline", t, {0.001, 1e9});
            });
  cli.integer("--max-attempts", "N", "claims before a job fails with its last error (default 3)",
              o.max_attempts, Bounds<int>{1, 1000});
  cli.text("--batch", "LABEL",
           "the submission's label, for `wait --batch LABEL` (default: the date, time and a random suffix)",
           o.batch);
  cli.flag("--wait", "wait for every job's result (and write them with --out)", o.wait);
  cli.path("--out", "DIR", "with --wait: DIR/A.proof.json and DIR/A.public.json (snarkjs's formats)", o.out);
  cli.path("--check-vk", "VK.json", "with --wait: verify every proof against this snarkjs verification key",
           o.check_vk);
  cli.value("--timeout", "SECONDS", "with --wait: give up after SECONDS (exit 1)", [&o](std::string_view t) {
    o.timeout_s = parse_real_option("--timeout", t, {0.001, 1e9});
  });
  cli.path("--db-url-file", "FILE", "read the database URL from FILE's first non-blank line", o.db_url_file);
}

void check_combination(const SubmitCli& o) {
  if (!o.zkey) throw OptionError("--zkey is required");
  if (o.wtns.empty()) throw OptionError("--wtns needs at least one witness file");
  if ((o.out || o.check_vk || o.timeout_s) && !o.wait)
    throw OptionError("--out, --check-vk and --timeout need --wait (or collect the results later with wait)");
  if (o.batch.size() > 200 || printable_line(o.batch) != o.batch ||
      (!o.batch.empty() && o.batch.find_first_not_of(' ') == std::string::npos))
    throw OptionError("--batch " + quote_for_message(o.batch, 80, '\'') +
                      ": a batch's label is up to 200 printable characters, not blank");
}

/// Jobs name their files by path, for the workers to open: a path that is not a file here is likely a typo,
/// though a worker may see a share this host does not, so it is said rather than refused.
void warn_of_paths_not_here(std::string_view program, const std::vector<detail::NewJob>& jobs) {
  const auto not_here = [](const std::string& path) {
    std::error_code ec;
    return !fs::is_regular_file(path, ec);
  };
  if (!jobs.empty() && not_here(jobs.front().key_path))
    print_error_line(program, "warning: the key " + quote_for_message(jobs.front().key_path, 200, '\'') +
                                  " is not a file here; the workers must find it at this path");
  std::size_t missing = 0;
  const std::string* first = nullptr;
  for (const detail::NewJob& job : jobs)
    if (job.witness_path && not_here(*job.witness_path) && ++missing == 1) first = &*job.witness_path;
  if (missing > 0)
    print_error_line(program, "warning: " + std::to_string(missing) +
                                  " of the witness files are not files here (" +
                                  quote_for_message(*first, 200, '\'') +
                                  " first); the workers must find them at these paths");
}

/// The verifying key of --zkey's key when it is a file here, read from its header sections only: a file that
/// is not a Groth16 key is refused before anything is queued (the workers would fail every job). A path that
/// is no file here may be one on the workers' share: warn_of_paths_not_here says so.
std::optional<detail::JobsKey> jobs_key_here(const fs::path& zkey) {
  std::error_code ec;
  if (!fs::is_regular_file(zkey, ec)) return std::nullopt;
  try {
    return detail::JobsKey{zkey.string(), groth16::read_zkey_verifying_key(zkey)};
  } catch (const Error& e) {
    throw OptionError(std::string("--zkey: ") + e.what());
  }
}

/// The options as given, checked together, with --check-vk's key read and matched with --zkey's.
SubmitCli checked(SubmitCli o) {
  check_combination(o);
  const std::optional<detail::JobsKey> jobs_key = jobs_key_here(*o.zkey);
  if (o.check_vk) o.check = detail::load_check_key(*o.check_vk, jobs_key);
  if (o.batch.empty()) o.batch = batch_label();
  return o;
}

int run_submit(std::string_view program, const SubmitCli& o) {
  std::vector<detail::NewJob> jobs = plan_jobs(o);
  warn_of_paths_not_here(program, jobs);
  if (o.out) detail::make_out_directory(*o.out);  // once the jobs are known to have outputs of distinct names
  detail::Connection db(detail::resolve_conninfo(o.db_url_file));
  detail::migrate(db);
  // Listening before inserting: no result can end unheard between the two.
  if (o.wait) db.command("listen for finished jobs", "LISTEN proofline_done");
  // A label given again joins the earlier submission's jobs: `wait --batch` then collects both.
  const detail::Param label[] = {detail::Param::of(o.batch)};
  const std::string earlier =
      db.exec("count the batch's jobs", "SELECT count(*) FROM proofline.jobs WHERE batch = $1", label)
          .text(0, 0);
  if (earlier != "0")
    print_error_line(program, "warning: batch " + quote_for_message(o.batch, 240, '\'') + " already has " +
                                  earlier + (earlier == "1" ? " job" : " jobs") +
                                  " of an earlier submission; these join it, and wait --batch collects all");
  const std::vector<std::int64_t> ids = detail::submit_jobs(db, jobs);
  // What `wait --batch` or `wait --ids` takes, should this wait be interrupted or not asked for.
  std::printf("submitted %zu job%s (ids %s) in batch %s to %s\n", ids.size(), ids.size() == 1 ? "" : "s",
              detail::format_id_ranges(ids).c_str(), quote_for_message(o.batch, 240, '\'').c_str(),
              db.describe().c_str());
  std::fflush(stdout);
  if (!o.wait) return 0;
  std::vector<std::string> names;
  for (const detail::NewJob& j : jobs) names.push_back(j.name);
  detail::WaitOptions wait{.conninfo = detail::resolve_conninfo(o.db_url_file),
                           .out = o.out,
                           .check = o.check,
                           .timeout_s = o.timeout_s};
  return detail::wait_for_results(std::move(db), ids, names, wait);
}

}  // namespace

int submit_main(std::string_view program, std::span<const std::string_view> args) {
  const std::string name = std::string(program) + " submit";
  const detail::Argv argv(name, args);
  return run_with_options(
      name,
      [&]() -> std::optional<SubmitCli> {
        SubmitCli o;
        OptionParser cli(name, "usage: " + name + usage_arguments, about);
        add_options(cli, o);
        cli.epilog(
            "Exit codes: 0 submitted (with --wait: every job done, and verified with --check-vk); 1 a job "
            "failed, a proof did not verify, or the database could not be reached; 2 bad options. The first "
            "line names the jobs' ids and batch: `wait --batch LABEL` (or --ids) collects their results "
            "later, as --wait does.");
        if (!cli.parse(argv.argc(), argv.argv())) return std::nullopt;
        return checked(std::move(o));
      },
      [&name](SubmitCli o) { return run_submit(name, o); });
}

}  // namespace proofline::fleet
