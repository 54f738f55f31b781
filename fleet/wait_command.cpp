// `wait`: collects the results of jobs submitted earlier - by the batch label and the ids `submit` printed -
// as `submit --wait` does: the same files, failures, summary and exit status. A submit --wait that was
// interrupted, or a submit without --wait, is re-attached to this way.
#include <cstdio>
#include <filesystem>
#include <set>

#include <proofline/fleet/commands.hpp>
#include <proofline/fleet/detail/argv.hpp>
#include <proofline/fleet/detail/conninfo.hpp>
#include <proofline/fleet/detail/id_ranges.hpp>
#include <proofline/fleet/detail/queue.hpp>
#include <proofline/fleet/detail/schema.hpp>
#include <proofline/fleet/detail/wait_results.hpp>
#include <proofline/util/options.hpp>
#include <proofline/util/text.hpp>

namespace proofline::fleet {

namespace {

namespace fs = std::filesystem;

constexpr const char* usage_arguments = " [--batch LABEL] [--ids ID|FIRST..LAST ...] [options]";
constexpr const char* about =
    "Waits for the results of jobs submitted earlier, named by the batch label and the ids submit printed, "
    "and reports and writes them as submit --wait does.";

struct WaitCli {
  std::optional<std::string> batch;
  std::vector<std::int64_t> ids;
  std::optional<fs::path> out, check_vk, db_url_file;
  std::optional<double> timeout_s;
  std::optional<detail::CheckKey> check;
};

void add_options(OptionParser& cli, WaitCli& o) {
  cli.value("--batch", "LABEL", "the jobs of this batch (submit --batch, or the label submit printed)",
            [&o](std::string_view label) { o.batch = std::string(label); });
  cli.values("--ids", "ID|FIRST..LAST ...", "these jobs (\"5..9,12\", as submit prints them)",
             [&o](std::string_view text) {
               for (const std::int64_t id : detail::parse_id_ranges(text)) o.ids.push_back(id);
             });
  cli.path("--out", "DIR", "write DIR/A.proof.json and DIR/A.public.json (snarkjs's formats)", o.out);
  cli.path("--check-vk", "VK.json", "verify every proof against this snarkjs verification key", o.check_vk);
  cli.value("--timeout", "SECONDS", "give up after SECONDS (exit 1)", [&o](std::string_view t) {
    o.timeout_s = parse_real_option("--timeout", t, {0.001, 1e9});
  });
  cli.path("--db-url-file", "FILE", "read the database URL from FILE's first non-blank line", o.db_url_file);
}

WaitCli checked(WaitCli o) {
  if (!o.batch && o.ids.empty()) throw OptionError("name the jobs to wait for with --batch or --ids");
  if (o.check_vk) o.check = detail::load_check_key(*o.check_vk);
  return o;
}

/// Every id asked for and the batch must name jobs: a typo is refused rather than waited on for ever.
void check_found(const WaitCli& o, const std::vector<detail::JobRef>& jobs) {
  std::set<std::int64_t> found;
  bool batch_found = false;
  for (const detail::JobRef& job : jobs) {
    found.insert(job.id);
    batch_found |= o.batch && job.batch == o.batch;
  }
  std::vector<std::int64_t> missing;
  for (const std::int64_t id : o.ids)
    if (!found.contains(id)) missing.push_back(id);
  if (!missing.empty())
    throw OptionError("--ids: no job has the id" + std::string(missing.size() > 1 ? "s " : " ") +
                      detail::format_id_ranges(missing));
  if (o.batch && !batch_found)
    throw OptionError("--batch " + quote_for_message(*o.batch, 80, '\'') + ": no job is in this batch");
}

int run_wait(const WaitCli& o) {
  const std::string conninfo = detail::resolve_conninfo(o.db_url_file);
  detail::Connection db(conninfo);
  detail::migrate(db);
  // Listening before looking: a job that ends in between is among those read first.
  db.command("listen for finished jobs", "LISTEN proofline_done");
  const std::vector<detail::JobRef> jobs = detail::find_jobs(db, o.ids, o.batch);
  check_found(o, jobs);
  std::vector<std::int64_t> ids;
  std::vector<std::string> names;
  std::set<std::string> stems;
  for (const detail::JobRef& job : jobs) {
    if (o.out && !stems.insert(job.name).second)
      throw OptionError("--out: two of the jobs are named " + quote_for_message(job.name, 80, '\'') +
                        ": their outputs would overwrite each other");
    ids.push_back(job.id);
    names.push_back(job.name);
  }
  if (o.out) detail::make_out_directory(*o.out);
  std::printf("waiting for %zu job%s (ids %s) on %s\n", ids.size(), ids.size() == 1 ? "" : "s",
              detail::format_id_ranges(ids).c_str(), db.describe().c_str());
  std::fflush(stdout);
  const detail::WaitOptions wait{
      .conninfo = conninfo, .out = o.out, .check = o.check, .timeout_s = o.timeout_s};
  return detail::wait_for_results(std::move(db), ids, names, wait);
}

}  // namespace

int wait_main(std::string_view program, std::span<const std::string_view> args) {
  const std::string name = std::string(program) + " wait";
  const detail::Argv argv(name, args);
  return run_with_options(
      name,
      [&]() -> std::optional<WaitCli> {
        WaitCli o;
        OptionParser cli(name, "usage: " + name + usage_arguments, about);
        add_options(cli, o);
        cli.epilog(
            "Exit codes: 0 every job done (and verified with --check-vk); 1 a job failed, a proof did not "
            "verify, --timeout passed or the database could not be reached; 2 bad options, or an id or "
            "batch that names no job.");
        if (!cli.parse(argv.argc(), argv.argv())) return std::nullopt;
        return checked(std::move(o));
      },
      [](WaitCli o) { return run_wait(o); });
}

}  // namespace proofline::fleet
