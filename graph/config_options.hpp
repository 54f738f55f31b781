// The command-line options that set a pipeline Config's resources, shared by the programs that build a
// pipeline (batch_prove, `proofline prove|batch` and the fleet's worker), so that each spells, explains and
// bounds them alike. Not installed: it needs util's option parser, which is the programs' own.
#pragma once

#include <proofline/graph/config.hpp>
#include <proofline/util/options.hpp>

namespace proofline::graph {

/// --backend (auto, cpu or cuda), into `config`.
void add_backend_option(OptionParser& cli, Config& config);

/// --host-budget, --slots, --synth-threads and --threads, into `config`.
void add_host_resource_options(OptionParser& cli, Config& config);

/// --gpus, --vram-budget, --srs, --srs-buffer, --device-slots, --host-evaluate, --no-msm-tables,
/// --msm-table-bits and --no-ntt-table, into `config`.
void add_gpu_resource_options(OptionParser& cli, Config& config);

}  // namespace proofline::graph
