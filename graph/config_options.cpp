#include <proofline/graph/config_options.hpp>

#include <chrono>
#include <limits>
#include <string>
#include <string_view>
#include <vector>

#include <proofline/util/text.hpp>

namespace proofline::graph {

void add_backend_option(OptionParser& cli, Config& c) {
  cli.value("--backend", "auto|cpu|cuda",
            "where H and the MSMs run (default auto: CUDA when a GPU is usable)",
            [&c](std::string_view text) { c.backend = parse_backend(text); });
}

void add_host_resource_options(OptionParser& cli, Config& c) {
  cli.value("--host-budget", "SIZE",
            "host memory for keys and pinned slots, e.g. 64G (default: what the process may use)",
            [&c](std::string_view text) { c.host_budget = parse_size_option("--host-budget", text); });
  cli.integer(
      "--slots", "N",
      "most pinned slots in flight (default: synthesis jobs + 2 per GPU; a batch never more than its jobs)",
      c.slots, Bounds<std::size_t>{1, 4096});
  cli.integer(
      "--synth-threads", "N",
      "most jobs synthesized (witnesses computed) at once, ramped up to from one per GPU (default: half "
      "the threads; every thread when circom's generator computes them from input JSON, one thread a "
      "witness)",
      c.synthesis_concurrency, thread_bounds());
  cli.integer("--threads", "N", "threads the pipeline may use (default: all)", c.max_threads,
              thread_bounds());
}

void add_gpu_resource_options(OptionParser& cli, Config& c) {
  cli.integer_list("--gpus", "LIST", "CUDA devices, e.g. 0,1 (default: all)", c.gpus, Bounds<int>{0, 1023});
  cli.value("--vram-budget", "SIZE", "per GPU (default: free VRAM less a margin)",
            [&c](std::string_view text) { c.vram_budget = parse_size_option("--vram-budget", text); });
  cli.value("--srs", "auto|vram|host",
            "where the keys' points live on the GPU backend: in VRAM when a GPU's budget holds them, else "
            "streamed from page-locked host memory (auto, the default); VRAM only; or always streamed",
            [&c](std::string_view text) { c.srs = parse_srs_placement(text); });
  cli.size("--srs-buffer", "SIZE",
           "each of the two per-GPU staging buffers of a streamed SRS (default: a 32nd of the VRAM budget, "
           "256M..2G)",
           c.srs_stream_buffer, {std::uint64_t{1} << 20, std::uint64_t{16} << 30, "1 MiB to 16 GiB"});
  cli.integer("--device-slots", "N",
              "jobs bound to one GPU at once, each with its own compute stream and MSM scratch (default: up "
              "to 4, or 8 for small jobs, as many as the VRAM budget holds next to the first key and its MSM "
              "tables, whose tables go before a third slot)",
              c.device_slots, Bounds<std::size_t>{1, 64});
  cli.flag("--host-evaluate",
           "the synthesis threads compute a = A·z, b = B·z, c = C·z and the GPU receives all four vectors, "
           "instead of the GPU computing them from z next to the key's constraint system in VRAM (the "
           "default, pinned mode)",
           [&c] { c.gpu_evaluate = false; });
  cli.flag("--no-msm-tables",
           "keys in VRAM keep their points alone, without the precomputed multiples (about a dozen times "
           "their size, built at key load, dropped query by query when VRAM is short) that let the MSMs "
           "reduce their buckets once",
           [&c] { c.msm_tables = false; });
  cli.integer("--msm-table-bits", "C",
              "window width of those tables, 8..22 bits (default: the MSM engine's model of additions and "
              "buckets: 17 at 2^20 rows, 20 at 2^22, 22 at 2^24)",
              c.msm_table_bits, Bounds<unsigned>{8, 22});
  cli.flag("--no-ntt-table",
           "the GPU NTT multiplies by powers in its top pass and H's coset scales instead of reading full "
           "tables of 2^n x 128 bytes per GPU (2 GiB at 2^24; 96 bytes in snarkjs's convention; used by "
           "default when VRAM allows)",
           [&c] { c.ntt_top_diagonal = false; });
}

void add_point_check_option(OptionParser& cli, groth16::PointCheck& check) {
  cli.choice("--zkey-check",
             "how the key's points are checked: on the curve and in the subgroup (default), on the curve "
             "only, or not at all (a key checked before)",
             check,
             Choices<groth16::PointCheck>{{"full", groth16::PointCheck::full},
                                          {"curve", groth16::PointCheck::on_curve},
                                          {"trusted", groth16::PointCheck::trusted}});
}

void add_log_level_option(OptionParser& cli, log::Level& level, std::string_view default_level) {
  cli.value("--log-level", "LEVEL",
            "trace, debug, info, warn, error, off (default " + std::string(default_level) + ")",
            [&level](std::string_view text) { level = log::parse_level(text); });
}

void add_job_timeout_option(OptionParser& cli, Config& c, std::chrono::milliseconds unit,
                            std::string_view help) {
  const bool seconds = unit == std::chrono::seconds(1);
  cli.value("--job-timeout", seconds ? "SECONDS" : "MS",
            std::string(help) + " (" + (seconds ? "seconds" : "milliseconds") +
                ", or with a unit: 500ms, 30s; default 0: no limit)",
            [&c, unit](std::string_view text) {
              c.job_timeout = parse_duration_option("--job-timeout", text, unit,
                                                    {0, std::uint64_t{7} * 24 * 3600 * 1000, "7 days"});
            });
}

void add_fault_option(OptionParser& cli, std::optional<InjectedFault>& fault,
                      std::initializer_list<Stage> stages) {
  std::string names;
  for (const Stage stage : stages) names += (names.empty() ? "" : ", ") + std::string(to_string(stage));
  const std::vector<Stage> accepted(stages);
  cli.value(
      "--inject-fault", "STAGE:I",
      "testing: fail the I-th job (from 0) in STAGE (" + names + "), as a real error there would",
      [&fault, accepted](std::string_view spec) {
        if (fault)
          throw OptionError("--inject-fault: given twice; a run fails one job (" +
                            std::string(to_string(fault->first)) + ":" + std::to_string(fault->second) +
                            " was given first)");
        const auto colon = spec.find(':');
        if (colon == std::string_view::npos)
          throw OptionError("--inject-fault: expected STAGE:INDEX, got " + quote_for_message(spec, 80, '\''));
        const std::string_view name = spec.substr(0, colon);
        for (const Stage stage : accepted) {
          if (name != to_string(stage)) continue;
          fault = InjectedFault{stage, parse_unsigned_option("--inject-fault", spec.substr(colon + 1),
                                                             {0, std::numeric_limits<std::int64_t>::max()})};
          return;
        }
        throw OptionError("--inject-fault: unknown stage " + quote_for_message(name, 80, '\''));
      });
}

}  // namespace proofline::graph
