#include "proofline_options.hpp"

#include <chrono>
#include <string>
#include <string_view>

#include <proofline/graph/config_options.hpp>
#include <proofline/util/text.hpp>

namespace proofline::apps {

void set_prover_defaults(CircomBatch& batch) {
  batch.config.backend = graph::Backend::automatic;
  batch.config.queue_capacity = 64;
  batch.config.verify = true;
}

void add_prover_options(OptionParser& cli, CircomBatch& batch) {
  cli.group("prover");
  graph::add_backend_option(cli, batch.config);
  graph::add_host_resource_options(cli, batch.config);
  graph::add_gpu_resource_options(cli, batch.config);
  graph::add_point_check_option(cli, batch.zkey_check);
  graph::add_job_timeout_option(cli, batch.config, std::chrono::seconds(1),
                                "fail a job not proven this long after it was submitted; a witness still "
                                "being computed then is stopped at the circuit's next loop iteration or "
                                "branch");
  cli.path(
      "--cache-dir", "DIR",
      "where built witness generators are kept (default $XDG_CACHE_HOME/proofline or ~/.cache/proofline)",
      batch.build.cache_dir);
  graph::add_log_level_option(cli, batch.log_level, "warn");
  using graph::Stage;
  graph::add_fault_option(
      cli, batch.fault,
      {Stage::admission, Stage::synthesis, Stage::h2d, Stage::ntt, Stage::msm, Stage::release});
}

}  // namespace proofline::apps
