#include "proofline_options.hpp"

#include <string>
#include <string_view>

#include <proofline/graph/config_options.hpp>
#include <proofline/util/text.hpp>

namespace proofline::apps {

namespace {

graph::Stage parse_stage(std::string_view text) {
  using graph::Stage;
  for (const Stage stage :
       {Stage::admission, Stage::synthesis, Stage::h2d, Stage::ntt, Stage::msm, Stage::release})
    if (text == to_string(stage)) return stage;
  throw OptionError("--inject-fault: unknown stage " + quote_for_message(text, 80, '\''));
}

}  // namespace

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
  cli.choice(
      "--zkey-check",
      "how the key's points are checked: on the curve and in the subgroup (default), on the curve only, or "
      "not at all (a key checked before)",
      batch.zkey_check,
      Choices<groth16::PointCheck>{{"full", groth16::PointCheck::full},
                                   {"curve", groth16::PointCheck::on_curve},
                                   {"trusted", groth16::PointCheck::trusted}});
  cli.path(
      "--cache-dir", "DIR",
      "where built witness generators are kept (default $XDG_CACHE_HOME/proofline or ~/.cache/proofline)",
      batch.build.cache_dir);
  cli.value("--log-level", "LEVEL", "trace, debug, info, warn, error, off (default warn)",
            [&batch](std::string_view text) { batch.log_level = log::parse_level(text); });
  cli.value("--inject-fault", "STAGE:I",
            "testing: fail the I-th job (from 0) in STAGE (admission, synthesis, h2d, ntt, msm, release)",
            [&batch](std::string_view spec) {
              const auto colon = spec.find(':');
              if (colon == std::string_view::npos)
                throw OptionError("--inject-fault: expected STAGE:INDEX, got '" + std::string(spec) + "'");
              batch.fault = std::make_pair(
                  parse_stage(spec.substr(0, colon)),
                  parse_unsigned_option("--inject-fault", spec.substr(colon + 1), {0, 1'000'000'000}));
            });
}

}  // namespace proofline::apps
