// The shared option parser of the programs and benchmarks: typed values land in their targets, every bad
// input is one OptionError naming the option and the problem (never a std::stoul/stod exception), and --help
// lists what was registered.
#include <doctest/doctest.h>

#include <chrono>
#include <cmath>
#include <cstdio>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include <proofline/util/options.hpp>

using namespace proofline;

namespace {

/// Parses `args` (after a program name) with `cli`.
bool parse(OptionParser& cli, std::vector<std::string> args) {
  args.insert(args.begin(), "test");
  std::vector<const char*> argv;
  for (const std::string& arg : args) argv.push_back(arg.c_str());
  return cli.parse(static_cast<int>(argv.size()), argv.data());
}

/// The message of the OptionError that parsing `args` throws ("" and a failed check if none).
std::string refusal(OptionParser& cli, const std::vector<std::string>& args) {
  try {
    parse(cli, args);
  } catch (const OptionError& e) {
    CHECK(e.code() == Errc::invalid_argument);
    return e.what();
  } catch (const std::exception& e) {
    FAIL_CHECK("not an OptionError: " << e.what());
    return {};
  }
  FAIL_CHECK("accepted");
  return {};
}

enum class Shape { round, square };

struct Targets {
  unsigned log2 = 12;
  int offset = 0;
  std::uint64_t budget = 0;
  double rate = 1.5;
  std::string name = "default";
  std::optional<std::filesystem::path> out, key;
  bool verbose = false;
  std::vector<unsigned> sizes = {20, 22};
  std::vector<std::string> sections;
  Shape shape = Shape::round;
  std::vector<Shape> shapes;
  std::vector<std::string> files;
  std::uint64_t threads = 0;
  std::string first, second;
};

OptionParser make_parser(Targets& t) {
  OptionParser cli("test", "usage: test [options]", "A parser for the tests.");
  cli.group("numbers");
  cli.integer("--log2", "K", "rows as a power of two", t.log2, Bounds<unsigned>{1, 28});
  cli.integer("--offset", "N", "signed", t.offset, Bounds<int>{-5, 5});
  cli.size("--budget", "SIZE", "bytes, e.g. 64G", t.budget);
  cli.real("--rate", "X", "a rate", t.rate, Bounds<double>{0, 100});
  cli.integer("--threads", "N", "threads", t.threads, thread_bounds());
  cli.group("words");
  cli.text("--name", "NAME", "a name", t.name);
  cli.path("--out", "DIR", "a folder", t.out);
  cli.path_once("--key", "FILE", "one key", t.key, "one key a run");
  cli.flag("--verbose", "say more", t.verbose);
  cli.integer_list("--sizes", "LIST", "sizes, e.g. 20,22", t.sizes, Bounds<unsigned>{1, 28});
  cli.text_list("--sections", "LIST", "sections", t.sections);
  cli.choice("--shape", "the shape", t.shape,
             Choices<Shape>{{"round", Shape::round}, {"square", Shape::square}});
  cli.choice_list("--shapes", "LIST", "shapes", t.shapes,
                  Choices<Shape>{{"round", Shape::round}, {"square", Shape::square}});
  cli.values("--files", "A B...", "one or more files", [&t](std::string_view f) { t.files.emplace_back(f); });
  cli.value("--stoi", "N", "a handler of its own that throws std::exceptions",
            [](std::string_view text) { (void)std::stoi(std::string(text)); });
  return cli;
}

}  // namespace

TEST_CASE("util/options/typed values reach their targets in both spellings") {
  Targets t;
  OptionParser cli = make_parser(t);
  CHECK(parse(cli, {"--log2",
                    "20",
                    "--offset=-3",
                    "--budget",
                    "1.5G",
                    "--rate=2.5e1",
                    "--name",
                    "x=y",
                    "--out=/tmp/o",
                    "--verbose",
                    "--sizes",
                    "10,12,28",
                    "--sections",
                    "a,b",
                    "--shape",
                    "square",
                    "--shapes=square,round,square",
                    "--files",
                    "A",
                    "B",
                    "--threads",
                    "1",
                    "--files=C",
                    "D"}));
  CHECK(t.log2 == 20);
  CHECK(t.offset == -3);
  CHECK(t.budget == 3 * GiB / 2);
  CHECK(t.rate == 25.0);
  CHECK(t.name == "x=y");
  CHECK(t.out == std::filesystem::path("/tmp/o"));
  CHECK(t.verbose);
  CHECK(t.sizes == std::vector<unsigned>{10, 12, 28});
  CHECK(t.sections == std::vector<std::string>{"a", "b"});
  CHECK(t.shape == Shape::square);
  CHECK(t.shapes == std::vector<Shape>{Shape::square, Shape::round, Shape::square});
  CHECK(t.files == std::vector<std::string>{"A", "B", "C", "D"});
  CHECK(t.threads == 1);

  // Untouched options keep their defaults; a later occurrence replaces an earlier one, lists included.
  Targets u;
  OptionParser again = make_parser(u);
  CHECK(parse(again, {"--log2", "3", "--log2", "4", "--sizes", "5", "--sizes", "6,7"}));
  CHECK(u.log2 == 4);
  CHECK(u.sizes == std::vector<unsigned>{6, 7});
  CHECK(u.name == "default");
  CHECK(u.rate == 1.5);
  CHECK_FALSE(u.out.has_value());
  CHECK_FALSE(u.verbose);
}

TEST_CASE("util/options/bad values are one clear line naming the option") {
  Targets t;
  OptionParser cli = make_parser(t);
  const std::pair<std::vector<std::string>, std::string> cases[] = {
      {{"--log2", "many"}, "--log2: 'many' is not a number"},
      {{"--log2", "40"}, "--log2: 40 is outside 1..28"},
      {{"--log2", "0"}, "--log2: 0 is outside 1..28"},
      {{"--log2", "-1"}, "--log2: '-1' is not a number"},
      {{"--log2", "+3"}, "--log2: '+3' is not a number"},
      {{"--log2", " 3"}, "--log2: ' 3' is not a number"},
      {{"--log2", "3x"}, "--log2: '3x' is not a number"},
      {{"--log2="}, "--log2: '' is not a number"},
      {{"--log2", "99999999999999999999999"}, "--log2: 99999999999999999999999 is outside 1..28"},
      {{"--offset", "-6"}, "--offset: -6 is outside -5..5"},
      {{"--budget", "."}, "--budget: '.' is not a size (examples: 512M, 64G)"},
      {{"--budget", "lots"}, "--budget: 'lots' is not a size (examples: 512M, 64G)"},
      {{"--budget", "12X"}, "--budget: '12X' is not a size: unknown unit 'X' (use K, M, G, T or P)"},
      {{"--budget", "0"}, "--budget: 0 is less than 1 B"},
      {{"--budget", "5000T"}, "--budget: 5000T is absurd (more than 1.00 PiB)"},
      {{"--rate", "."}, "--rate: '.' is not a number"},
      {{"--rate", "nan"}, "--rate: 'nan' is not a number"},
      {{"--rate", "inf"}, "--rate: inf is outside 0..100"},
      {{"--rate", "1e999"}, "--rate: 1e999 is outside 0..100"},
      {{"--rate", "-0.5"}, "--rate: -0.5 is outside 0..100"},
      {{"--sizes", "20,,22"}, "--sizes: an empty item in '20,,22'"},
      {{"--sizes", "20,x"}, "--sizes: 'x' is not a number"},
      {{"--sizes", "20,29"}, "--sizes: 29 is outside 1..28"},
      {{"--sections="}, "--sections: an empty list"},
      {{"--shape", "oval"}, "--shape: expected round or square, got 'oval'"},
      {{"--shapes", "round,oval"}, "--shapes: expected round or square, got 'oval'"},
      {{"--stoi", "x"}, "--stoi: stoi"},
      {{"--frobnicate"}, "unknown option '--frobnicate' (see --help)"},
      {{"--frobnicate=1"}, "unknown option '--frobnicate' (see --help)"},
      {{"--log2"}, "--log2 needs a value"},
      {{"--name", "--verbose"}, "--name needs a value"},
      {{"--files"}, "--files needs a value"},
      {{"--verbose=yes"}, "--verbose takes no value"},
      {{"stray"}, "unexpected argument 'stray' (see --help)"},
  };
  for (const auto& [args, expected] : cases) {
    CAPTURE(args.front());
    CHECK(refusal(cli, args) == expected);
  }
}

TEST_CASE("util/options/durations in the option's unit or their own") {
  using std::chrono::milliseconds;
  const Bounds<std::uint64_t> week{0, std::uint64_t{7} * 24 * 3600 * 1000};
  CHECK(parse_duration_option("--t", "7", std::chrono::seconds(1), week) == milliseconds(7000));
  CHECK(parse_duration_option("--t", "7", milliseconds(1), week) == milliseconds(7));
  CHECK(parse_duration_option("--t", "250ms", std::chrono::seconds(1), week) == milliseconds(250));
  CHECK(parse_duration_option("--t", "30s", milliseconds(1), week) == milliseconds(30000));
  const auto refusal_of = [&](const char* text, Bounds<std::uint64_t> bounds) {
    try {
      parse_duration_option("--t", text, std::chrono::seconds(1), bounds);
    } catch (const OptionError& e) {
      return std::string(e.what());
    }
    return std::string();
  };
  CHECK(refusal_of("ms", week) == "--t: '' is not a number");
  CHECK(refusal_of("7h", week) == "--t: '7h' is not a number");
  CHECK(refusal_of("-1s", week) == "--t: '-1' is not a number");
  CHECK(refusal_of("604801", week).starts_with("--t: 604801 is outside 0..604800"));  // in the unit given
  CHECK(refusal_of("99999999999999999999s", week).find("99999999999999999999") != std::string::npos);
  CHECK(refusal_of("0ms", {1, 1000}) == "--t: 0ms is outside 1..1000 ms");
}

TEST_CASE("util/options/a path taken once is refused the second time, naming both") {
  Targets t;
  OptionParser cli = make_parser(t);
  CHECK(parse(cli, {"--key", "a/k.zkey"}));
  CHECK(t.key == std::filesystem::path("a/k.zkey"));
  Targets u;
  OptionParser twice = make_parser(u);
  CHECK(refusal(twice, {"--key", "a/k.zkey", "--key=b/k.zkey"}) ==
        "--key: given twice (a/k.zkey, b/k.zkey): one key a run");
}

TEST_CASE("util/options/an empty path is refused, naming the option") {
  for (const char* option : {"--out", "--key"}) {
    CAPTURE(option);
    Targets t;
    OptionParser cli = make_parser(t);
    CHECK(refusal(cli, {option, ""}) == std::string(option) + ": the path is empty");
    Targets u;
    OptionParser joined = make_parser(u);
    CHECK(refusal(joined, {std::string(option) + "="}) == std::string(option) + ": the path is empty");
  }
}

TEST_CASE("util/options/thread counts stop at 4x the hardware threads and say so") {
  const std::uint64_t hardware = std::max(1u, std::thread::hardware_concurrency());
  const Bounds<std::uint64_t> bounds = thread_bounds();
  CHECK(bounds.min == 1);
  CHECK(bounds.max == 4 * hardware);
  CHECK(thread_bounds(0).min == 0);
  Targets t;
  OptionParser cli = make_parser(t);
  CHECK(parse(cli, {"--threads", std::to_string(4 * hardware)}));
  CHECK(t.threads == 4 * hardware);
  const std::string too_many = std::to_string(4 * hardware + 1);
  CHECK(refusal(cli, {"--threads", too_many}) ==
        "--threads: " + too_many + " is outside 1.." + std::to_string(4 * hardware) + " (at most 4x the " +
            std::to_string(hardware) + " hardware thread" + (hardware == 1 ? "" : "s") + ")");
  CHECK(refusal(cli, {"--threads", "0"}).starts_with("--threads: 0 is outside 1.."));
}

TEST_CASE("util/options/positional arguments are required and counted") {
  std::string vk, proof;
  OptionParser cli("verify", "usage: verify VK PROOF");
  cli.positional("VK", "the key", vk).positional("PROOF", "the proof", proof);
  CHECK(parse(cli, {"k.json", "p.json"}));
  CHECK(vk == "k.json");
  CHECK(proof == "p.json");
  CHECK(parse(cli, {"--", "-k.json", "--p.json"}));
  CHECK(vk == "-k.json");
  CHECK(proof == "--p.json");
  CHECK(refusal(cli, {"k.json"}) == "expected 2 arguments (VK PROOF), got 1");
  CHECK(refusal(cli, {"a", "b", "c"}) == "expected 2 arguments (VK PROOF), got 3");
  CHECK(refusal(cli, {"a", "--x", "b"}) == "unknown option '--x' (see --help)");
  CHECK(refusal(cli, {"k.json", ""}) == "PROOF is empty (a path is needed)");
}

TEST_CASE("util/options/help lists every registration by group and --help stops the program") {
  Targets t;
  OptionParser cli = make_parser(t);
  cli.epilog("Exit codes: 0 ok.");
  const std::string help = cli.help();
  CHECK(help.starts_with("usage: test [options]\n\nA parser for the tests.\n"));
  CHECK(help.find("\nnumbers\n  --log2 K                rows as a power of two\n") != std::string::npos);
  CHECK(help.find("\nwords\n  --name NAME             a name\n") != std::string::npos);
  CHECK(help.find("  --shape round|square    the shape\n") != std::string::npos);
  CHECK(help.find("  --verbose               say more\n") != std::string::npos);
  CHECK(help.find("  --help                  this text\n") != std::string::npos);
  CHECK(help.ends_with("\nExit codes: 0 ok.\n"));
  CHECK(help.find("numbers") < help.find("--log2"));
  CHECK(help.find("--threads") < help.find("words"));

  // A long help text wraps at 110 columns under its own column; a long option spelling puts it on the next
  // line.
  OptionParser wide("wide", "usage: wide");
  std::string x;
  wide.text("--a-rather-long-option-name", "VALUE", std::string(60, 'a') + " " + std::string(60, 'b'), x);
  const std::string text = wide.help();
  CHECK(text.find("  --a-rather-long-option-name VALUE\n" + std::string(26, ' ') + std::string(60, 'a') +
                  "\n" + std::string(26, ' ') + std::string(60, 'b') + "\n") != std::string::npos);

  // --help prints the same text and stops before anything after it.
  for (const std::vector<std::string>& args :
       {std::vector<std::string>{"--log2", "3", "--help", "--frobnicate"}, std::vector<std::string>{"-h"}}) {
    std::FILE* out = std::tmpfile();
    REQUIRE(out != nullptr);
    std::vector<const char*> argv{"test"};
    for (const std::string& arg : args) argv.push_back(arg.c_str());
    CHECK_FALSE(cli.parse(static_cast<int>(argv.size()), argv.data(), out));
    std::rewind(out);
    std::string printed;
    for (int ch = std::fgetc(out); ch != EOF; ch = std::fgetc(out)) printed.push_back(static_cast<char>(ch));
    std::fclose(out);
    CHECK(printed == help);
  }
}

TEST_CASE("util/options/registering an option twice is a bug caught at once") {
  OptionParser cli("test", "usage: test");
  bool flag = false;
  cli.flag("--x", "x", flag);
  CHECK_THROWS_AS(cli.flag("--x", "again", flag), Error);
  CHECK_THROWS_AS(cli.flag("--help", "mine", flag), Error);
  CHECK_THROWS_AS(cli.flag("x", "no dashes", flag), Error);
}

TEST_CASE("util/options/run_with_options turns option errors into 2 and other failures into 1") {
  const auto options = [] { return std::optional<int>(5); };
  CHECK(run_with_options("test", options, [](int value) { return value; }) == 5);
  CHECK(run_with_options(
            "test", [] { return std::optional<int>(); }, [](int) { return 7; }) == 0);
  CHECK(run_with_options(
            "test", []() -> std::optional<int> { throw OptionError("--x: bad"); }, [](int) { return 0; }) ==
        exit_bad_options);
  CHECK(run_with_options("test", options, [](int) -> int { throw std::runtime_error("broke"); }) == 1);
  CHECK(run_with_options("test", options, [](int) -> int { throw OptionError("late"); }) == 2);
  CHECK(exit_bad_options == 2);
}
