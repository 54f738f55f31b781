// proofline_test_generator_reload: loads a circom witness generator many times and checks that each circuit
// freed gives back what the generator's shim allocated for it, by the shim's own count of the allocations
// that loaded circuits hold (proofline_circom_live_allocations; circom's Circom_Circuit frees none of its
// arrays). The circom tests run it (circom.sh reload).
//
//   proofline_test_generator_reload CIRCUIT INPUT.json CACHE_DIR [ROUNDS]
//
// CIRCUIT is circom's --c output (CIRCUIT_cpp/) or its --wasm output. Each of ROUNDS rounds (default 20)
// opens the generator, computes the witness of INPUT.json (the same in every round) and frees the generator:
// the count must be back at 0, and two generators open at once must hold twice what one holds. For --c
// output, the shim also loads the circuit's .dat cut short at every length (written to cut-short.dat in the
// current folder): each load it refuses must leave the count at 0, and so must freeing each one it accepts.
// Exit 0 when all of that holds, 1 naming what did not.
#include <dlfcn.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include <proofline/circom/generator_build.hpp>
#include <proofline/circom/witness_generator.hpp>

namespace {

namespace fs = std::filesystem;
using namespace proofline;
using namespace proofline::circom;

[[noreturn]] void fail(const std::string& what) {
  throw std::runtime_error(what);
}

/// The shim's entry points this tool calls itself, from its own handle on the generator's library (the same
/// one WitnessGenerator loads: dlopen gives a path loaded already its handle again).
struct Shim {
  void* library = nullptr;
  std::uint64_t (*live)() = nullptr;
  void* (*load)(const char*, const char*, char*, std::size_t) = nullptr;
  void (*free_circuit)(void*) = nullptr;

  explicit Shim(const fs::path& so) {
    library = ::dlopen(so.c_str(), RTLD_NOW | RTLD_LOCAL);
    if (library == nullptr) fail(so.string() + ": cannot load: " + ::dlerror());
    live = reinterpret_cast<std::uint64_t (*)()>(symbol("proofline_circom_live_allocations"));
    load = reinterpret_cast<void* (*)(const char*, const char*, char*, std::size_t)>(
        symbol("proofline_circom_load"));
    free_circuit = reinterpret_cast<void (*)(void*)>(symbol("proofline_circom_free"));
  }
  ~Shim() { ::dlclose(library); }
  Shim(const Shim&) = delete;
  Shim& operator=(const Shim&) = delete;

  void* symbol(const char* name) const {
    void* found = ::dlsym(library, name);
    if (found == nullptr) fail(std::string("the generator has no ") + name);
    return found;
  }
};

std::vector<unsigned char> witness_bytes(const WitnessGenerator& generator, const std::string& input) {
  std::vector<unsigned char> bytes;
  const auto append = [&](const auto& values) {
    const auto* begin = reinterpret_cast<const unsigned char*>(values.data());
    bytes.assign(begin, begin + values.size() * sizeof(values[0]));
  };
  if (generator.curve() == CurveId::bn254)
    append(generator.compute_bn254(input));
  else
    append(generator.compute(input));
  return bytes;
}

void expect_live(const Shim& shim, std::uint64_t want, const std::string& when) {
  const std::uint64_t live = shim.live();
  if (live != want)
    fail(when + ": the shim counts " + std::to_string(live) + " live allocations, expected " +
         std::to_string(want));
}

/// Opens, computes and frees the generator `rounds` times; returns what one open circuit holds.
std::uint64_t reload(const Shim& shim, const fs::path& circuit, const BuildOptions& options,
                     const std::string& input, int rounds) {
  expect_live(shim, 0, "before the first load");
  std::vector<unsigned char> first;
  std::uint64_t held = 0;
  for (int round = 0; round < rounds; ++round) {
    {
      const auto generator = WitnessGenerator::open(circuit, options);
      const std::vector<unsigned char> witness = witness_bytes(*generator, input);
      if (round == 0) {
        first = witness;
        held = shim.live();
        if (held == 0) fail("a loaded circuit holds no allocations by the shim's count");
      } else if (witness != first) {
        fail("round " + std::to_string(round) + " computed another witness than round 0");
      }
      expect_live(shim, held, "round " + std::to_string(round) + ", the generator open");
    }
    expect_live(shim, 0, "round " + std::to_string(round) + ", the generator freed");
  }
  {
    const auto one = WitnessGenerator::open(circuit, options);
    const auto two = WitnessGenerator::open(circuit, options);
    witness_bytes(*one, input);
    witness_bytes(*two, input);
    expect_live(shim, 2 * held, "two generators open at once");
  }
  expect_live(shim, 0, "two generators freed");
  return held;
}

/// Loads the circuit's .dat cut at every length below its own through the shim; returns how many it refused.
std::size_t load_cut_short(const Shim& shim, const fs::path& dat) {
  std::ifstream in(dat, std::ios::binary);
  const std::vector<char> bytes{std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
  if (bytes.empty()) fail(dat.string() + ": empty or unreadable");
  const fs::path cut = "cut-short.dat";
  std::size_t refused = 0;
  for (std::size_t size = 0; size < bytes.size(); ++size) {
    {
      std::ofstream out(cut, std::ios::binary | std::ios::trunc);
      out.write(bytes.data(), static_cast<std::streamsize>(size));
      if (!out) fail(cut.string() + ": cannot write");
    }
    std::string error(4096, '\0');
    void* loaded = shim.load(cut.c_str(), "", error.data(), error.size());
    if (loaded == nullptr) {
      if (std::string(error.c_str()).find("truncated") == std::string::npos)
        fail("the .dat cut at " + std::to_string(size) +
             " bytes was refused for another reason: " + error.c_str());
      ++refused;
    } else {
      shim.free_circuit(loaded);
    }
    expect_live(shim, 0, "the .dat cut at " + std::to_string(size) + " bytes, loaded and freed or refused");
  }
  fs::remove(cut);
  return refused;
}

int run(int argc, char** argv) {
  if (argc < 4 || argc > 5) {
    std::fprintf(stderr, "usage: proofline_test_generator_reload CIRCUIT INPUT.json CACHE_DIR [ROUNDS]\n");
    return 2;
  }
  const fs::path circuit = argv[1];
  const std::string input = read_input_file(argv[2]);
  BuildOptions options;
  options.cache_dir = fs::path(argv[3]);
  const int rounds = argc == 5 ? std::atoi(argv[4]) : 20;
  if (rounds < 1) fail("ROUNDS must be at least 1");
  const BuiltGenerator built = build_generator(circuit, options);
  const Shim shim(built.library);
  const std::uint64_t held = reload(shim, circuit, options, input, rounds);
  std::printf(
      "%s: %d rounds of load, compute and free; a loaded circuit holds %llu allocations, a freed one 0\n",
      circuit.string().c_str(), rounds, static_cast<unsigned long long>(held));
  if (built.kind == GeneratorKind::cpp) {
    const std::size_t refused = load_cut_short(shim, built.dat);
    if (refused == 0) fail("no .dat cut short was refused");
    std::printf("%s: %zu loads of the .dat cut short refused, none leaving an allocation behind\n",
                circuit.string().c_str(), refused);
  }
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  try {
    return run(argc, argv);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "proofline_test_generator_reload: FAILED: %s\n", e.what());
    return 1;
  }
}
