// The circom shims' naming of main's inputs from circom's .sym file (circom/shim/input_signals.hpp) on its
// own.
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include <doctest/doctest.h>

#include <proofline/circom/shim/input_signals.hpp>

namespace {

using proofline_shim::InputSignal;
using proofline_shim::u64;

/// main's inputs "a" (one value) and "b" (three), named from a .sym file of `lines`.
std::vector<InputSignal> named_from(const std::string& lines) {
  const std::filesystem::path path =
      std::filesystem::temp_directory_path() / ("proofline-test-sym-" + std::to_string(::getpid()));
  std::ofstream(path) << lines;
  std::vector<InputSignal> inputs = {{proofline_shim::fnv1a("a"), 1, 1, {}, {}, false},
                                     {proofline_shim::fnv1a("b"), 2, 3, {}, {}, false}};
  proofline_shim::sort_inputs(inputs);
  proofline_shim::name_inputs(inputs, path.string(), 1, 5);
  std::filesystem::remove(path);
  return inputs;
}

}  // namespace

TEST_CASE("circom/input signals/a .sym file names inputs whose elements fill them exactly") {
  const auto inputs = named_from("1,1,0,main.a\n2,2,0,main.b[0]\n3,3,0,main.b[1]\n4,4,0,main.b[2]\n");
  CHECK(inputs[0].name == "a");
  CHECK(inputs[1].name == "b");
  CHECK(inputs[1].dims == std::vector<u64>{3});
  // Elements that do not fill b (a stale .sym file of another circuit) name nothing.
  CHECK(named_from("2,2,0,main.b[0][0]\n3,3,0,main.b[1][1]\n4,4,0,main.b[0][1]\n")[1].name.empty());
}

TEST_CASE("circom/input signals/a shape whose product wraps past 2^64 names nothing") {
  // 131 x 844889041543948929 is 3 modulo 2^64: the three elements of b once passed for a shape of that size.
  const auto inputs =
      named_from("2,2,0,main.b[130][0]\n3,3,0,main.b[0][844889041543948928]\n4,4,0,main.b[0][0]\n");
  CHECK(inputs[1].name.empty());
  CHECK(inputs[1].dims.empty());
}
