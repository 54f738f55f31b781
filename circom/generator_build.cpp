#include <proofline/circom/generator_build.hpp>

#include <fcntl.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <functional>
#include <iterator>
#include <optional>
#include <sstream>
#include <string_view>
#include <system_error>
#include <vector>

#include <proofline/util/cache_dir.hpp>
#include <proofline/util/error.hpp>

#include "shim_sources.hpp"

namespace proofline::circom {

namespace {

namespace fs = std::filesystem;

/// What the shared object is built from besides the circuit: a change here must rebuild every cached one.
constexpr const char* build_recipe =
    "proofline-circom-generator v3: g++ -std=c++17 -O3 -fPIC -fstack-clash-protection; nasm -felf64";

const char* const generated_files[] = {"calcwit.cpp", "calcwit.hpp", "circom.hpp", "fr.cpp", "fr.hpp"};

/// Whether circom wrote the field arithmetic in assembly (fr.asm beside fr.cpp), as it does unless told
/// --no_asm (then fr.cpp holds all of it, in C++).
bool has_fr_asm(const fs::path& dir) {
  std::error_code error;
  return fs::is_regular_file(dir / "fr.asm", error);
}

std::string read_all(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw Error(Errc::io, path.string() + ": cannot read");
  return std::string(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}

void write_all(const fs::path& path, std::string_view text) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out.write(text.data(), static_cast<std::streamsize>(text.size()));
  if (!out) throw Error(Errc::io, path.string() + ": cannot write");
}

/// Two independent 64-bit FNV-1a streams: a cache key for files the user generated, not a security check
/// (the cache is the user's own folder).
class Digest {
 public:
  void add(std::string_view bytes) {
    for (const char c : bytes) {
      a_ = (a_ ^ static_cast<unsigned char>(c)) * 0x100000001b3ULL;
      b_ = (b_ ^ static_cast<unsigned char>(c)) * 0x100000001b3ULL + 0x9e3779b97f4a7c15ULL;
    }
    std::string size = std::to_string(bytes.size());  // framed by '|', so "ab" "c" differs from "a" "bc"
    size.push_back('|');
    a_ = (a_ ^ static_cast<unsigned char>('|')) * 0x100000001b3ULL;
    for (const char c : size) a_ = (a_ ^ static_cast<unsigned char>(c)) * 0x100000001b3ULL;
  }
  std::string hex() const {
    char text[33];
    std::snprintf(text, sizeof text, "%016llx%016llx", static_cast<unsigned long long>(a_),
                  static_cast<unsigned long long>(b_));
    return text;
  }

 private:
  std::uint64_t a_ = 0xcbf29ce484222325ULL, b_ = 0x84222325cbf29ce4ULL;
};

std::string folder_digest(const fs::path& dir, const std::string& name) {
  Digest digest;
  digest.add(build_recipe);
  digest.add(shim::witness_shim_cpp);
  digest.add(shim::input_signals_hpp);
  digest.add(shim::assert_h);
  digest.add(shim::prelude_hpp);
  digest.add(shim::input_json_hpp);
  digest.add(shim::dat_file_hpp);
  digest.add(shim::circuit_faults_hpp);
  for (const char* file : generated_files) digest.add(read_all(dir / file));
  digest.add(has_fr_asm(dir) ? read_all(dir / "fr.asm") : std::string("no fr.asm"));
  digest.add(read_all(dir / (name + ".cpp")));
  digest.add(read_all(dir / (name + ".dat")));
  return digest.hex();
}

/// A folder removed with everything in it when it goes out of scope, unless kept.
class TempDir {
 public:
  explicit TempDir(const fs::path& parent) {
    std::string pattern = (parent / ".build-XXXXXX").string();
    if (::mkdtemp(pattern.data()) == nullptr)
      throw Error(Errc::io, parent.string() + ": cannot create a build folder: " +
                                std::error_code(errno, std::generic_category()).message());
    path_ = pattern;
  }
  ~TempDir() {
    std::error_code ignored;
    if (!path_.empty()) fs::remove_all(path_, ignored);
  }
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;
  const fs::path& path() const noexcept { return path_; }

 private:
  fs::path path_;
};

/// What a tool's `output` says went wrong, for a message of one line: its first few error lines (the last
/// lines where none says "error"), joined by "; ", and a hint where circom's own output is at fault.
std::string tool_complaint(const std::string& output) {
  std::vector<std::string> lines, errors;
  std::istringstream in(output);
  for (std::string line; std::getline(in, line);) {
    if (line.find_first_not_of(" \t") == std::string::npos) continue;
    if (line.size() > 300) line = line.substr(0, 300) + "...";
    if (line.find("error") != std::string::npos || line.find("undefined reference") != std::string::npos)
      errors.push_back(line);
    lines.push_back(line);
  }
  const bool from_errors = !errors.empty();
  std::vector<std::string>& said = from_errors ? errors : lines;
  constexpr std::size_t kept = 3;
  const std::size_t more = said.size() > kept ? said.size() - kept : 0;
  if (!from_errors && more > 0) said.erase(said.begin(), said.begin() + static_cast<std::ptrdiff_t>(more));
  std::string text;
  for (std::size_t i = 0; i < said.size() && i < kept; ++i) text += (i == 0 ? ": " : "; ") + said[i];
  if (from_errors && more > 0) text += " (and " + std::to_string(more) + " more)";
  if (output.find("_create\u2019 was not declared") != std::string::npos ||
      output.find("_create' was not declared") != std::string::npos)
    text +=
        " (circom's --c output for a `parallel` main template lacks its functions: declare main's "
        "template without `parallel`, or give the circuit's --wasm output)";
  return text;
}

/// Runs `argv` in `dir` with its output appended to `log`; Error(io) with its complaint when it fails,
/// Error(cancelled) when `options.stop_requested` says so while it runs (the tool is killed first).
void run_tool(const std::vector<std::string>& argv, const fs::path& dir, const fs::path& log,
              const BuildOptions& options) {
  std::vector<char*> args;
  for (const std::string& a : argv) args.push_back(const_cast<char*>(a.c_str()));
  args.push_back(nullptr);
  const pid_t child = ::fork();
  if (child < 0) throw Error(Errc::io, "cannot start " + argv[0]);
  if (child == 0) {
    const int fd = ::open(log.c_str(), O_WRONLY | O_CREAT | O_APPEND, 0600);
    if (fd < 0 || ::chdir(dir.c_str()) != 0) ::_exit(126);
    ::dup2(fd, 1);
    ::dup2(fd, 2);
    ::execvp(args[0], args.data());
    ::_exit(127);
  }
  int status = 0;
  while (true) {
    const pid_t done = ::waitpid(child, &status, options.stop_requested ? WNOHANG : 0);
    if (done == child || (done < 0 && errno != EINTR)) break;
    if (options.stop_requested && options.stop_requested()) {
      ::kill(child, SIGKILL);
      while (::waitpid(child, &status, 0) < 0 && errno == EINTR) {
      }
      throw Error(Errc::cancelled, "building the circom witness generator was stopped");
    }
    if (done == 0) ::usleep(20'000);
  }
  if (WIFEXITED(status) && WEXITSTATUS(status) == 0) return;
  const std::string why = WIFEXITED(status) && WEXITSTATUS(status) == 127 ? " (not installed?)" : "";
  throw Error(Errc::io, "building the circom witness generator: " + argv[0] + " failed" + why +
                            tool_complaint(read_all(log)));
}

void replace_all(std::string& text, std::string_view from, std::string_view to) {
  for (std::size_t at = 0; (at = text.find(from, at)) != std::string::npos; at += to.size())
    text.replace(at, from.size(), to);
}

/// Copies the generated files into `dir`, adapted: fr.asm addressed RIP-relative (a shared object needs
/// position-independent code), the circuit's std::cout sent to the shim's message sink, its `parallel`
/// components run where they start, and its conditions looking at the caller's stop flag, which the
/// calculator holds (shim/prelude.hpp).
void stage_sources(const fs::path& from, const std::string& name, const fs::path& dir) {
  for (const char* file : generated_files) fs::copy_file(from / file, dir / file);
  std::string calcwit = read_all(from / "calcwit.hpp");
  const std::size_t declared = calcwit.find("class Circom_CalcWit {");
  const std::size_t members = declared == std::string::npos ? declared : calcwit.find("public:", declared);
  if (members == std::string::npos)
    throw Error(Errc::bad_input,
                (from / "calcwit.hpp").string() +
                    ": no public part of class Circom_CalcWit (not circom's --c output, or a "
                    "circom that proofline does not know)");
  calcwit.insert(members + std::string_view("public:").size(),
                 "\n  const void* proofline_stop = nullptr;  // proofline: the caller's stop flag\n");
  write_all(dir / "calcwit.hpp", calcwit);
  if (has_fr_asm(from)) write_all(dir / "fr.asm", "default rel\n" + read_all(from / "fr.asm"));
  std::string circuit = read_all(from / (name + ".cpp"));
  replace_all(circuit, "std::cout", "proofline_circom_messages()");
  replace_all(circuit, "std::thread(", "proofline_circom_run_here(");
  replace_all(circuit, "Fr_isTrue(", "proofline_circom_is_true(ctx, ");
  write_all(dir / "circuit.cpp", circuit);
  fs::copy_file(from / (name + ".dat"), dir / "circuit.dat");
  fs::create_directory(dir / "shim");
  write_all(dir / "shim" / "assert.h", shim::assert_h);
  write_all(dir / "shim" / "prelude.hpp", shim::prelude_hpp);
  write_all(dir / "shim" / "input_signals.hpp", shim::input_signals_hpp);
  write_all(dir / "shim" / "input_json.hpp", shim::input_json_hpp);
  write_all(dir / "shim" / "dat_file.hpp", shim::dat_file_hpp);
  write_all(dir / "shim" / "circuit_faults.hpp", shim::circuit_faults_hpp);
  write_all(dir / "witness_shim.cpp", shim::witness_shim_cpp);
  write_all(dir / "exports.map", "{ global: proofline_circom_*; local: *; };\n");
}

void compile(const fs::path& dir, const BuildOptions& options) {
  const fs::path log = dir / "build.log";
  const bool assembly = has_fr_asm(dir);
  if (assembly) run_tool({options.assembler, "-felf64", "fr.asm", "-o", "fr_asm.o"}, dir, log, options);
  // Stack-clash protection touches every page of a large frame as it grows, so a recursion too deep for the
  // stack faults on its guard page (caught, shim/circuit_faults.hpp) instead of stepping over it.
  const std::vector<std::string> cxx = {
      options.compiler,           "-c",     "-std=c++17", "-O3",      "-fPIC",           "-w",
      "-fstack-clash-protection", "-Ishim", "-I.",        "-include", "shim/prelude.hpp"};
  // Fr_fail is the shim's (it returns to the caller instead of aborting): fr.cpp's own is renamed away.
  const std::pair<const char*, std::vector<std::string>> units[] = {
      {"calcwit", {}},
      {"fr", {"-DFr_fail=proofline_generated_Fr_fail"}},
      {"circuit", {}},
      {"witness_shim", {"-fno-access-control"}}};
  for (const auto& [unit, extra] : units) {
    std::vector<std::string> argv = cxx;
    argv.insert(argv.end(), extra.begin(), extra.end());
    argv.insert(argv.end(), {std::string(unit) + ".cpp", "-o", std::string(unit) + ".o"});
    run_tool(argv, dir, log, options);
  }
  std::vector<std::string> link = {options.compiler, "-shared", "-o",        "witness.so",
                                   "calcwit.o",      "fr.o",    "circuit.o", "witness_shim.o"};
  if (assembly) link.push_back("fr_asm.o");
  link.insert(link.end(), {"-lgmp", "-Wl,--version-script=exports.map", "-Wl,-z,noexecstack"});
  run_tool(link, dir, log, options);
}

}  // namespace

fs::path cache_dir(const BuildOptions& options) {
  if (options.cache_dir) return *options.cache_dir;
  if (std::optional<fs::path> cache = user_cache_dir()) return *cache;
  throw Error(Errc::invalid_argument,
              "no cache folder: set XDG_CACHE_HOME or HOME to an absolute path, or name one");
}

std::string circuit_name_of(const fs::path& cpp_dir) {
  std::error_code error;
  if (!fs::is_directory(cpp_dir, error))
    throw Error(Errc::bad_input, cpp_dir.string() +
                                     ": not a folder or a .wasm file (circom --c writes CIRCUIT_cpp/, circom "
                                     "--wasm CIRCUIT_js/CIRCUIT.wasm)");
  std::vector<std::string> names;
  for (const auto& entry : fs::directory_iterator(cpp_dir, error))
    if (entry.path().extension() == ".dat") names.push_back(entry.path().stem().string());
  if (names.size() != 1)
    throw Error(Errc::bad_input, cpp_dir.string() +
                                     ": expected one CIRCUIT.dat (circom --c output) or one CIRCUIT.wasm "
                                     "(circom --wasm output), found " +
                                     std::to_string(names.size()) + " .dat files");
  // fr.asm is there unless circom was told --no_asm.
  for (const std::string& file : {names[0] + ".cpp", std::string("calcwit.cpp"), std::string("calcwit.hpp"),
                                  std::string("circom.hpp"), std::string("fr.cpp"), std::string("fr.hpp")})
    if (!fs::is_regular_file(cpp_dir / file, error))
      throw Error(Errc::bad_input, cpp_dir.string() + ": " + file + " is missing (not circom --c output?)");
  return names[0];
}

namespace {

constexpr const char* contents_file = "contents";

/// What a finished build holds: the shared object's size and digest, the data file's size. Loading a shared
/// object cut short (a full disk, a copy that stopped) dies of SIGBUS; a .dat cut short reads as another
/// circuit's. So a cached build whose files no longer match is built again instead of loaded.
std::string contents_of(const fs::path& dir, const fs::path& dat_name) {
  const std::string library = read_all(dir / "witness.so");
  Digest digest;
  digest.add(library);
  std::error_code error;
  const std::uintmax_t dat_size = fs::file_size(dir / dat_name, error);
  return "witness.so " + std::to_string(library.size()) + " " + digest.hex() + "\n" + dat_name.string() +
         " " + (error ? std::string("missing") : std::to_string(dat_size)) + "\n";
}

bool intact(const fs::path& dir, const fs::path& dat_name) {
  std::error_code error;
  if (!fs::is_regular_file(dir / contents_file, error) || !fs::is_regular_file(dir / "witness.so", error))
    return false;
  try {
    return read_all(dir / contents_file) == contents_of(dir, dat_name);
  } catch (const Error&) {
    return false;
  }
}

/// Where a build is cached (the digest in its name), and moving a finished build there. A damaged entry is
/// moved aside and removed (a process that loaded it keeps its mapping), then built again.
BuiltGenerator cached_or_built(const fs::path& final_dir, const std::string& name, GeneratorKind kind,
                               const fs::path& dat_name,
                               const std::function<void(const fs::path&)>& build_in) {
  std::error_code error;
  const auto built_at = [&](bool from_cache) {
    return BuiltGenerator{name, final_dir / "witness.so", final_dir / dat_name, from_cache, kind};
  };
  if (intact(final_dir, dat_name)) return built_at(true);
  const fs::path cache = final_dir.parent_path();
  fs::create_directories(cache, error);
  if (error) throw Error(Errc::io, cache.string() + ": cannot create the cache folder: " + error.message());
  if (fs::exists(fs::symlink_status(final_dir, error))) {
    TempDir damaged(cache);
    fs::rename(final_dir, damaged.path() / "entry", error);  // lost to another process that removes it too
  }
  TempDir build(cache);
  build_in(build.path());
  write_all(build.path() / contents_file, contents_of(build.path(), dat_name));
  fs::rename(build.path(), final_dir, error);
  // Another process may have finished the same build first: its copy is as good as ours.
  if (error && !intact(final_dir, dat_name))
    throw Error(Errc::io, final_dir.string() + ": cannot move the build into the cache: " + error.message());
  return built_at(false);
}

/// The one .wasm of circom's --wasm output: the file given, or the folder's.
fs::path wasm_file_of(const fs::path& circuit) {
  std::error_code error;
  if (!fs::is_directory(circuit, error)) {
    if (!fs::is_regular_file(circuit, error))
      throw Error(Errc::bad_input, circuit.string() + ": cannot read (not a file)");
    return circuit;
  }
  std::vector<fs::path> found;
  for (const auto& entry : fs::directory_iterator(circuit, error))
    if (entry.path().extension() == ".wasm") found.push_back(entry.path());
  if (found.size() != 1)
    throw Error(Errc::bad_input, circuit.string() +
                                     ": expected one CIRCUIT.wasm (circom --wasm output), found " +
                                     std::to_string(found.size()));
  return found[0];
}

/// `program` as execvp would find it: itself when it names a path, else the first match on PATH.
std::optional<fs::path> find_program(const std::string& program) {
  std::error_code error;
  if (program.find('/') != std::string::npos) {
    if (fs::is_regular_file(program, error)) return fs::path(program);
    return std::nullopt;
  }
  const char* path = std::getenv("PATH");
  std::istringstream dirs(path != nullptr ? path : "/usr/bin:/bin");
  for (std::string dir; std::getline(dirs, dir, ':');) {
    const fs::path candidate = fs::path(dir.empty() ? "." : dir) / program;
    if (fs::is_regular_file(candidate, error) && ::access(candidate.c_str(), X_OK) == 0) return candidate;
  }
  return std::nullopt;
}

/// wabt's files a wasm2c build needs: the runtime's source and headers, beside the translator.
struct Wabt {
  fs::path wasm2c;
  fs::path runtime_dir;  ///< wasm-rt-impl.c, wasm-rt-impl.h
  fs::path include_dir;  ///< wasm-rt.h
};

Wabt find_wabt(const BuildOptions& options) {
  const std::string install =
      "circom's --wasm output is translated to C with wabt's wasm2c (Debian: apt-get install wabt) and "
      "compiled with the system C compiler; or compile the circuit with circom --c and give its CIRCUIT_cpp/";
  const std::optional<fs::path> found = find_program(options.wasm2c);
  if (!found) throw Error(Errc::io, options.wasm2c + " not found: " + install);
  std::error_code error;
  fs::path resolved = fs::canonical(*found, error);
  if (error) resolved = *found;
  const fs::path prefix = resolved.parent_path().parent_path();
  Wabt wabt{*found, prefix / "share" / "wabt" / "wasm2c", prefix / "include"};
  for (const fs::path& file : {wabt.runtime_dir / "wasm-rt-impl.c", wabt.runtime_dir / "wasm-rt-impl.h",
                               wabt.include_dir / "wasm-rt.h"})
    if (!fs::is_regular_file(file, error))
      throw Error(Errc::io, file.string() + " is missing (wabt's runtime, installed with " +
                                resolved.string() + "): " + install);
  return wabt;
}

/// What a wasm build is made from besides the circuit: a change here must rebuild every cached one.
constexpr const char* wasm_recipe =
    "proofline-circom-wasm-generator v5: wasm2c -n circuit; Fr_F1m_mul and Fr_F1m_fromMontgomery renamed "
    "_wasm, wasm_native_fr.c included, loops and Fr_isTrue look at the stop flag; cc -O3 -fPIC, no signal "
    "handler, no depth count; g++ -std=c++17 -O3 -fPIC";

/// The field functions of circom's wasm that wasm_native_fr.c computes natively, as wasm2c declares them:
/// their definitions are renamed ..._wasm so that the native ones take their calls.
const std::pair<const char*, const char*> native_fr_functions[] = {
    {"w2c_Fr_F1m_mul", "(Z_circuit_instance_t*, u32, u32, u32);"},
    {"w2c_Fr_F1m_fromMontgomery", "(Z_circuit_instance_t*, u32, u32);"}};

/// wasm2c's C for the module with the native field functions in place of circom's where wasm2c declared them
/// as wabt 1.0.32 does and defined each once; as it was otherwise. Either way it ends including
/// wasm_native_fr.c, which checks the native functions against the module's own before they are used, or
/// leaves them out.
std::string with_native_fr(std::string c) {
  std::vector<std::size_t> names;  // where each definition's name ends
  for (const auto& [function, parameters] : native_fr_functions) {
    const std::string declaration = std::string("static void ") + function + parameters;
    const std::string definition =
        std::string("static void ") + function + "(Z_circuit_instance_t* instance, ";
    const std::size_t first = c.find(definition);
    if (c.find(declaration) == std::string::npos || first == std::string::npos ||
        c.find(definition, first + 1) != std::string::npos)
      break;
    names.push_back(first + definition.find('('));
  }
  const bool native = names.size() == std::size(native_fr_functions);
  if (native) {
    std::sort(names.rbegin(), names.rend());  // the last first, so that the others stay where they were
    for (const std::size_t at : names) c.insert(at, "_wasm");
  }
  c += std::string("\n#define PROOFLINE_NATIVE_FR ") + (native ? "1" : "0") +
       "\n#include \"wasm_native_fr.c\"\n";
  return c;
}

/// wasm2c's C with a look at the caller's stop flag at every jump back to a loop's start, where wabt 1.0.32
/// names loop labels w2c_L<n>, and on entry to circom's Fr_isTrue, which every branch of the circuit's code
/// calls, so that a recursion which branches without looping stops too (with another naming, none is found
/// and the code runs unpolled). The flag (const std::atomic<bool>*, read here as bytes) is the first member
/// of the runtime instance the module instance points to (wasm_shim.cpp), so the look costs two loads, not a
/// call.
std::string with_stop_polls(const std::string& c) {
  static constexpr std::string_view jump = "goto w2c_L";
  std::string out =
      "struct Z_runtime_instance_t { const volatile unsigned char* proofline_stop; };\n"
      "__attribute__((noreturn)) void proofline_wasm_stopped(void);\n"
      "#define PROOFLINE_POLL() do { const volatile unsigned char* proofline_flag = "
      "instance->Z_runtime_instance->proofline_stop; if (proofline_flag != 0 && *proofline_flag != 0) "
      "proofline_wasm_stopped(); } while (0)\n";
  out.reserve(c.size() + c.size() / 64);
  std::size_t from = 0;
  for (std::size_t at; (at = c.find(jump, from)) != std::string::npos;) {
    const std::size_t end = c.find(';', at);
    if (end == std::string::npos) break;
    out.append(c, from, at - from);
    out += "{ PROOFLINE_POLL(); ";
    out.append(c, at, end + 1 - at);
    out += " }";
    from = end + 1;
  }
  out.append(c, from);
  static constexpr std::string_view is_true = "static u32 w2c_Fr_isTrue(Z_circuit_instance_t* instance, ";
  if (const std::size_t at = out.find(is_true); at != std::string::npos) {
    if (const std::size_t body = out.find('{', at); body != std::string::npos)
      out.insert(body + 1, " PROOFLINE_POLL();");
  }
  return out;
}

/// Declared for wabt's runtime, which calls it (WASM_RT_TRAP_HANDLER) on a trap.
constexpr const char* wasm_trap_h = "__attribute__((noreturn)) void proofline_wasm_trap(int code);\n";

BuiltGenerator build_wasm_generator(const fs::path& circuit, const BuildOptions& options) {
  const fs::path wasm = wasm_file_of(circuit);
  const std::string name = wasm.stem().string();
  const Wabt wabt = find_wabt(options);
  const std::string runtime_c = read_all(wabt.runtime_dir / "wasm-rt-impl.c");
  const std::string runtime_h = read_all(wabt.runtime_dir / "wasm-rt-impl.h");
  Digest digest;
  digest.add(wasm_recipe);
  digest.add(shim::wasm_shim_cpp);
  digest.add(shim::input_signals_hpp);
  digest.add(shim::input_json_hpp);
  digest.add(shim::wasm_native_fr_c);
  digest.add(runtime_c);
  digest.add(runtime_h);
  digest.add(read_all(wabt.include_dir / "wasm-rt.h"));
  digest.add(read_all(wasm));
  const fs::path final_dir = cache_dir(options) / (name + "-wasm-" + digest.hex());
  return cached_or_built(final_dir, name, GeneratorKind::wasm, "circuit.wasm", [&](const fs::path& dir) {
    fs::copy_file(wasm, dir / "circuit.wasm");
    write_all(dir / "wasm-rt-impl.c", runtime_c);
    write_all(dir / "wasm-rt-impl.h", runtime_h);
    write_all(dir / "wasm_trap.h", wasm_trap_h);
    fs::create_directory(dir / "shim");
    write_all(dir / "shim" / "input_signals.hpp", shim::input_signals_hpp);
    write_all(dir / "shim" / "input_json.hpp", shim::input_json_hpp);
    write_all(dir / "wasm_shim.cpp", shim::wasm_shim_cpp);
    write_all(dir / "wasm_native_fr.c", shim::wasm_native_fr_c);
    write_all(dir / "exports.map", "{ global: proofline_circom_*; local: *; };\n");
    const fs::path log = dir / "build.log";
    run_tool({wabt.wasm2c.string(), "-n", "circuit", "circuit.wasm", "-o", "circuit.c"}, dir, log, options);
    // wasm2c's naming of a module's exports changed after wabt 1.0.32 (Z_circuitZ_init became w2c_...): say
    // so, rather than let the shim fail to compile.
    if (read_all(dir / "circuit.h").find("Z_circuitZ_init") == std::string::npos)
      throw Error(Errc::io, wabt.wasm2c.string() +
                                " names the module's functions in a way proofline's wasm shim does not know "
                                "(it drives wabt 1.0.32's wasm2c, Debian 12's); compile the circuit with "
                                "`circom --c` and give its CIRCUIT_cpp/ folder instead");
    write_all(dir / "circuit.c", with_native_fr(with_stop_polls(read_all(dir / "circuit.c"))));
    // Bounds checked in software, without wabt's process-wide SIGSEGV handler, and without its global
    // call-depth counter (several threads run instances at once): deep recursion uses the native stack, as
    // circom's C++ generator does.
    const std::vector<std::string> flags = {"-O3",
                                            "-fPIC",
                                            "-w",
                                            "-DWASM_RT_MEMCHECK_SIGNAL_HANDLER=0",
                                            "-DWASM_RT_USE_STACK_DEPTH_COUNT=0",
                                            "-I.",
                                            "-I" + wabt.include_dir.string()};
    const std::pair<std::string, std::vector<std::string>> units[] = {
        {options.c_compiler, {"-c", "circuit.c", "-o", "circuit.o"}},
        {options.c_compiler,
         {"-c", "-DWASM_RT_TRAP_HANDLER=proofline_wasm_trap", "-include", "wasm_trap.h", "wasm-rt-impl.c",
          "-o", "wasm-rt-impl.o"}},
        {options.compiler, {"-c", "-std=c++17", "wasm_shim.cpp", "-o", "wasm_shim.o"}}};
    for (const auto& [tool, args] : units) {
      std::vector<std::string> argv = {tool};
      argv.insert(argv.end(), flags.begin(), flags.end());
      argv.insert(argv.end(), args.begin(), args.end());
      run_tool(argv, dir, log, options);
    }
    run_tool({options.compiler, "-shared", "-o", "witness.so", "circuit.o", "wasm-rt-impl.o", "wasm_shim.o",
              "-lgmp", "-Wl,--version-script=exports.map", "-Wl,-z,noexecstack"},
             dir, log, options);
  });
}

}  // namespace

GeneratorKind generator_kind(const fs::path& circuit) {
  std::error_code error;
  if (fs::is_directory(circuit, error)) {
    bool dat = false, wasm = false;
    for (const auto& entry : fs::directory_iterator(circuit, error)) {
      dat = dat || entry.path().extension() == ".dat";
      wasm = wasm || entry.path().extension() == ".wasm";
    }
    return wasm && !dat ? GeneratorKind::wasm : GeneratorKind::cpp;
  }
  return circuit.extension() == ".wasm" ? GeneratorKind::wasm : GeneratorKind::cpp;
}

fs::path generator_folder(const fs::path& circuit) {
  std::error_code error;
  if (generator_kind(circuit) == GeneratorKind::wasm && !fs::is_directory(circuit, error)) {
    const fs::path parent = circuit.parent_path();
    return parent.empty() ? fs::path(".") : parent;
  }
  return circuit;
}

BuiltGenerator build_generator(const fs::path& circuit, const BuildOptions& options) {
  if (generator_kind(circuit) == GeneratorKind::wasm) return build_wasm_generator(circuit, options);
  const std::string name = circuit_name_of(circuit);
  const fs::path final_dir = cache_dir(options) / (name + "-" + folder_digest(circuit, name));
  return cached_or_built(final_dir, name, GeneratorKind::cpp, "circuit.dat", [&](const fs::path& dir) {
    stage_sources(circuit, name, dir);
    compile(dir, options);
  });
}

}  // namespace proofline::circom
