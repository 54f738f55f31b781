// Builds a circom witness generator into a shared object proofline can dlopen, once: what `circom --c`
// generates (CIRCUIT_cpp/: calcwit, fr, fr.asm, the circuit's .cpp and .dat), with the system g++ and nasm,
// or what `circom --wasm` generates (CIRCUIT_js/CIRCUIT.wasm), translated to C by wabt's wasm2c and compiled
// with the system C compiler. The result is cached under a digest of the circuit's files (and of proofline's
// shim), so a second run, or another process, finds it ready. The build runs in a fresh folder inside the
// cache and is renamed into place, so a reader never sees half a build and two builders racing both end with
// one complete copy.
#pragma once

#include <filesystem>
#include <functional>
#include <optional>
#include <string>

namespace proofline::circom {

struct BuildOptions {
  /// Where built generators are kept; default $XDG_CACHE_HOME/proofline, else ~/.cache/proofline.
  std::optional<std::filesystem::path> cache_dir;
  std::string compiler = "g++";
  std::string assembler = "nasm";
  /// For circom's --wasm output: wabt's translator (its runtime, wasm-rt-impl.c, is found beside it, in
  /// PREFIX/share/wabt/wasm2c/) and the C compiler of its output.
  std::string wasm2c = "wasm2c";
  std::string c_compiler = "cc";
  /// Polled while a tool runs: when it says so, the build is abandoned (the tool killed, its folder removed)
  /// with Error(cancelled). A program stopped by SIGINT/SIGTERM leaves no half-built generator behind.
  std::function<bool()> stop_requested;
};

/// Which of circom's outputs a generator is built from.
enum class GeneratorKind {
  cpp,   ///< circom --c: CIRCUIT_cpp/
  wasm,  ///< circom --wasm: CIRCUIT_js/ or CIRCUIT_js/CIRCUIT.wasm
};

/// A built generator: the shared object and the circuit's .dat beside it (the .wasm for a wasm generator).
struct BuiltGenerator {
  std::string circuit_name;  ///< "multiplier" for multiplier_cpp/, multiplier_js/ or multiplier.wasm
  std::filesystem::path library;
  std::filesystem::path dat;
  bool from_cache = false;  ///< found built, not built now
  GeneratorKind kind = GeneratorKind::cpp;
};

/// The cache folder `options` names (not created).
std::filesystem::path cache_dir(const BuildOptions& options);

/// The generated folder's files as the build needs them, checked: Error(bad_input) naming a missing file or
/// a folder that is not circom's --c output.
std::string circuit_name_of(const std::filesystem::path& cpp_dir);

/// What `circuit` is: circom's --wasm output (a .wasm file, or a folder holding one and no .dat) or, for
/// anything else, its --c output (which circuit_name_of then checks).
GeneratorKind generator_kind(const std::filesystem::path& circuit);

/// The folder circom wrote the circuit's generator to: `circuit` itself, or the folder of a .wasm file.
std::filesystem::path generator_folder(const std::filesystem::path& circuit);

/// Builds (or finds built) the generator of `circuit`: circom's --c output folder, its --wasm output folder
/// or the .wasm file. Error(bad_input) for anything else, Error(io) when the cache cannot be written or a
/// tool fails or is missing (with the end of its output).
BuiltGenerator build_generator(const std::filesystem::path& circuit, const BuildOptions& options = {});

}  // namespace proofline::circom
