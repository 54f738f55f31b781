// The command-line options that set a pipeline Config's resources, shared by the programs that build a
// pipeline (batch_prove, `proofline prove|batch` and the fleet's worker), so that each spells, explains and
// bounds them alike. Not installed: it needs util's option parser, which is the programs' own.
#pragma once

#include <chrono>
#include <cstdint>
#include <initializer_list>
#include <optional>
#include <string_view>
#include <utility>

#include <proofline/graph/config.hpp>
#include <proofline/groth16/zkey.hpp>
#include <proofline/util/log.hpp>
#include <proofline/util/options.hpp>

namespace proofline::graph {

/// --backend (auto, cpu or cuda), into `config`.
void add_backend_option(OptionParser& cli, Config& config);

/// --host-budget, --slots, --synth-threads and --threads, into `config`.
void add_host_resource_options(OptionParser& cli, Config& config);

/// --gpus, --vram-budget, --srs, --srs-buffer, --device-slots, --host-evaluate, --no-msm-tables,
/// --msm-table-bits and --no-ntt-table, into `config`.
void add_gpu_resource_options(OptionParser& cli, Config& config);

/// --zkey-check full|curve|trusted: how a key's points are checked when it is read.
void add_point_check_option(OptionParser& cli, groth16::PointCheck& check);

/// --log-level trace|debug|info|warn|error|off; `default_level` is the name the help gives.
void add_log_level_option(OptionParser& cli, log::Level& level, std::string_view default_level);

/// --job-timeout: a number in `unit` (milliseconds or seconds, as the program always took it) or with its
/// own unit, 0 for no limit; `help` says what the program does when the time is up.
void add_job_timeout_option(OptionParser& cli, Config& config, std::chrono::milliseconds unit,
                            std::string_view help);

/// A job that is to fail in a stage as a real error there would (testing): the stage and the job's index.
using InjectedFault = std::pair<Stage, std::uint64_t>;

/// --inject-fault STAGE:I, for the stages the program's pipeline runs.
void add_fault_option(OptionParser& cli, std::optional<InjectedFault>& fault,
                      std::initializer_list<Stage> stages);

}  // namespace proofline::graph
