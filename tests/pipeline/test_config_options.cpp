// The resource options every pipeline-building program shares (graph/config_options.hpp): each reaches its
// Config field, absurd values are refused naming the option, and each is registered once.
#include <doctest/doctest.h>

#include <string>
#include <vector>

#include <proofline/graph/config_options.hpp>

using namespace proofline;
using namespace proofline::graph;

namespace {

void parse(OptionParser& cli, std::vector<std::string> args) {
  args.insert(args.begin(), "test");
  std::vector<const char*> argv;
  for (const std::string& arg : args) argv.push_back(arg.c_str());
  REQUIRE(cli.parse(static_cast<int>(argv.size()), argv.data()));
}

OptionParser resource_parser(Config& config) {
  OptionParser cli("test", "usage: test [options]");
  add_backend_option(cli, config);
  add_host_resource_options(cli, config);
  add_gpu_resource_options(cli, config);
  return cli;
}

}  // namespace

TEST_CASE("pipeline/config options/every resource option reaches its Config field") {
  Config config;
  OptionParser cli = resource_parser(config);
  parse(cli, {"--backend",
              "cpu",
              "--host-budget",
              "64G",
              "--slots",
              "12",
              "--synth-threads",
              "3",
              "--threads",
              "7",
              "--gpus",
              "1,0",
              "--vram-budget",
              "100G",
              "--srs",
              "host",
              "--srs-buffer",
              "512M",
              "--device-slots",
              "2",
              "--host-evaluate",
              "--no-msm-tables",
              "--msm-table-bits",
              "17",
              "--no-ntt-table"});
  CHECK(config.backend == Backend::cpu);
  CHECK(config.host_budget == std::uint64_t{64} << 30);
  CHECK(config.slots == 12);
  CHECK(config.synthesis_concurrency == 3);
  CHECK(config.max_threads == 7);
  CHECK(config.gpus == std::vector<int>{1, 0});
  CHECK(config.vram_budget == std::uint64_t{100} << 30);
  CHECK(config.srs == SrsPlacement::host);
  CHECK(config.srs_stream_buffer == std::uint64_t{512} << 20);
  CHECK(config.device_slots == 2);
  CHECK_FALSE(config.gpu_evaluate);
  CHECK_FALSE(config.msm_tables);
  CHECK(config.msm_table_bits == 17);
  CHECK_FALSE(config.ntt_top_diagonal);

  // Nothing given: the Config's own defaults stay.
  Config untouched;
  OptionParser none = resource_parser(untouched);
  parse(none, {});
  CHECK(untouched.gpu_evaluate);
  CHECK(untouched.msm_tables);
  CHECK(untouched.device_slots == 0);
  CHECK(untouched.gpus.empty());
}

TEST_CASE("pipeline/config options/absurd values are refused naming the option, and each is listed once") {
  for (const auto& [args, named] : std::vector<std::pair<std::vector<std::string>, std::string>>{
           {{"--msm-table-bits", "40"}, "--msm-table-bits"},
           {{"--device-slots", "0"}, "--device-slots"},
           {{"--srs", "disk"}, "--srs"},
           {{"--gpus", "0,-1"}, "--gpus"},
           {{"--vram-budget", "lots"}, "--vram-budget"},
           {{"--slots", "0"}, "--slots"},
           {{"--backend", "tpu"}, "--backend"}}) {
    CAPTURE(named);
    Config config;
    OptionParser cli = resource_parser(config);
    std::vector<std::string> argv = args;
    argv.insert(argv.begin(), "test");
    std::vector<const char*> raw;
    for (const std::string& arg : argv) raw.push_back(arg.c_str());
    try {
      cli.parse(static_cast<int>(raw.size()), raw.data());
      FAIL_CHECK("accepted");
    } catch (const OptionError& e) {
      CHECK_MESSAGE(std::string(e.what()).find(named) != std::string::npos, e.what());
    }
  }
  Config config;
  const std::string help = resource_parser(config).help();
  for (const char* option : {"--backend", "--host-budget", "--slots", "--synth-threads", "--threads",
                             "--gpus", "--vram-budget", "--srs", "--srs-buffer", "--device-slots",
                             "--host-evaluate", "--no-msm-tables", "--msm-table-bits", "--no-ntt-table"}) {
    CAPTURE(option);
    const std::string line = std::string("  ") + option + " ";
    const auto first = help.find(line);
    CHECK(first != std::string::npos);
    CHECK(help.find(line, first + 1) == std::string::npos);
  }
}
