#include "circom_jobs.hpp"

#include <algorithm>
#include <cctype>
#include <map>
#include <set>
#include <sstream>
#include <string_view>

#include <proofline/groth16/json.hpp>
#include <proofline/util/error.hpp>

#include "batch_common.hpp"

namespace proofline::apps {

namespace {

namespace fs = std::filesystem;
namespace json = groth16::json;

std::string_view trim(std::string_view text) {
  while (!text.empty() && (text.front() == ' ' || text.front() == '\t')) text.remove_prefix(1);
  while (!text.empty() && (text.back() == ' ' || text.back() == '\t' || text.back() == '\r'))
    text.remove_suffix(1);
  return text;
}

std::vector<std::string> split_csv(std::string_view line) {
  std::vector<std::string> fields;
  for (std::size_t start = 0;;) {
    const std::size_t comma = line.find(',', start);
    fields.emplace_back(
        trim(line.substr(start, comma == std::string_view::npos ? line.npos : comma - start)));
    if (comma == std::string_view::npos) return fields;
    start = comma + 1;
  }
}

struct ManifestLine {
  const fs::path& manifest;
  std::size_t number;
  [[noreturn]] void fail(const std::string& what) const {
    throw UnusableInput(manifest.string() + ": line " + std::to_string(number) + ": " + what);
  }
  fs::path resolve(const std::string& path) const {
    if (path.empty()) fail("an empty path");
    // The system reads a path up to its first NUL: "out\0a" and "out\0b" would both be the file out.
    if (path.find('\0') != std::string::npos) fail("a path with a NUL byte, which no file name can hold");
    const fs::path p(path);
    return p.is_absolute() ? p : manifest.parent_path() / p;
  }
};

std::string member(const json::Value& object, const char* name, const ManifestLine& at) {
  const json::Value* value = object.find(name);
  if (value == nullptr) return {};
  if (!value->is_string()) at.fail(std::string("\"") + name + "\" is not a string");
  return value->as_string();
}

CircomJobSpec json_line(std::string_view text, const ManifestLine& at) {
  json::Value object;
  try {
    object = json::parse(text, at.manifest.string());
  } catch (const Error& e) {
    at.fail(std::string("not a JSON object: ") + e.what());
  }
  if (!object.is_object()) at.fail("not a JSON object");
  const std::string witness = member(object, "witness", at), input = member(object, "input", at);
  if (witness.empty() == input.empty()) at.fail("needs exactly one of \"witness\" and \"input\"");
  const std::string proof = member(object, "proof", at), pub = member(object, "public", at);
  if (proof.empty() || pub.empty()) at.fail("needs \"proof\" and \"public\": where the outputs go");
  const fs::path source = at.resolve(witness.empty() ? input : witness);
  return CircomJobSpec{source, !input.empty(), at.resolve(proof), at.resolve(pub), source.string()};
}

CircomJobSpec csv_line(std::string_view text, const ManifestLine& at) {
  const std::vector<std::string> fields = split_csv(text);
  if (fields.size() != 3)
    at.fail("expected SOURCE,PROOF,PUBLIC (3 fields), got " + std::to_string(fields.size()));
  const fs::path source = at.resolve(fields[0]);
  return CircomJobSpec{source, source.extension() == ".json", at.resolve(fields[1]), at.resolve(fields[2]),
                       source.string()};
}

/// A first line naming its columns (any case, as the help writes them: SOURCE,PROOF,PUBLIC).
bool is_csv_header(std::string_view line) {
  const std::vector<std::string> fields = split_csv(line);
  if (fields.empty()) return false;
  std::string first = fields[0];
  std::transform(first.begin(), first.end(), first.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return first == "witness" || first == "input" || first == "source";
}

}  // namespace

std::string circom_job_name(const fs::path& source) {
  const fs::path file = source.filename();
  const std::string ext = file.extension().string();
  if (ext != ".wtns" && ext != ".json") return file.string();
  fs::path stem = file.stem();
  if (ext == ".json" && stem.extension() == ".input") stem = stem.stem();
  return stem.string();
}

std::vector<CircomJobSpec> jobs_into_dir(const std::vector<fs::path>& sources, bool from_input,
                                         const std::optional<fs::path>& out) {
  if (!out)
    throw UnusableInput(std::string("no place for the proofs: give --out DIR (each ") +
                        (from_input ? "input" : "witness") +
                        " NAME gives DIR/NAME.proof.json and DIR/NAME.public.json) or a --manifest");
  std::vector<CircomJobSpec> jobs;
  std::map<std::string, fs::path> seen;
  for (const fs::path& source : sources) {
    const std::string name = circom_job_name(source);
    if (name.empty()) throw UnusableInput(source.string() + ": no file name to name its outputs after");
    if (const auto [it, fresh] = seen.emplace(name, source); !fresh)
      throw UnusableInput(quoted(source) + ": its outputs (" + name + ".*) would overwrite those of " +
                          quoted(it->second) + ", which has the same name");
    jobs.push_back(CircomJobSpec{source, from_input, *out / (name + ".proof.json"),
                                 *out / (name + ".public.json"), source.string()});
  }
  return jobs;
}

std::vector<CircomJobSpec> jobs_from_manifest(const fs::path& manifest) {
  // Read whole through the checks every input gets: a FIFO (a shell's <(...)) or a device is refused at once
  // instead of waited on, and relative paths need the manifest's folder anyway.
  std::string text_of_file;
  try {
    text_of_file = json::read_text_file(manifest, std::uint64_t{1} << 30, "a manifest");
  } catch (const Error& e) {
    throw UnusableInput(std::string(e.what()) + " (the manifest)");
  }
  std::istringstream in(text_of_file);
  std::vector<CircomJobSpec> jobs;
  std::string line;
  for (std::size_t number = 1; std::getline(in, line); ++number) {
    // Editors that save UTF-8 with a byte-order mark put it before the first line, whose JSON or header it
    // would otherwise start.
    if (number == 1 && line.starts_with("\xEF\xBB\xBF")) line.erase(0, 3);
    const std::string_view text = trim(line);
    if (text.empty() || text.front() == '#') continue;
    const ManifestLine at{manifest, number};
    if (text.front() == '{')
      jobs.push_back(json_line(text, at));
    else if (!(jobs.empty() && is_csv_header(text)))
      jobs.push_back(csv_line(text, at));
  }
  if (jobs.empty()) throw UnusableInput(manifest.string() + ": no jobs in the manifest");
  return jobs;
}

void create_output_folders(const std::vector<CircomJobSpec>& jobs) {
  for (const CircomJobSpec& job : jobs)
    for (const fs::path* output : {&job.proof, &job.public_inputs}) {
      if (!output->has_parent_path()) continue;
      std::error_code error;
      create_output_folder(output->parent_path(), error);
      if (error)
        throw UnusableInput(job.label + ": cannot create the folder " + quoted(output->parent_path()) +
                            " for " + quoted(*output) + ": " + error.message());
    }
}

std::vector<NamedPath> circuit_files(const fs::path& circuit) {
  const std::string what = "a file of the circuit " + quoted(circuit);
  std::error_code error;
  if (!fs::is_directory(circuit, error)) return {{what, circuit}};
  std::vector<NamedPath> files;
  for (fs::directory_iterator it(circuit, error), end; !error && it != end; it.increment(error))
    if (it->is_regular_file(error)) files.push_back({what, it->path()});
  return files;
}

void check_job_outputs(const std::vector<CircomJobSpec>& jobs, const std::vector<NamedPath>& inputs,
                       const std::vector<NamedPath>& outputs) {
  // Files are compared by where they are, whatever path names them (./a, links, ..).
  const auto place = [](const fs::path& path) {
    std::error_code error;
    const fs::path canonical = fs::weakly_canonical(path, error);
    return error ? fs::absolute(path).lexically_normal() : canonical;
  };
  struct Reader {
    const CircomJobSpec* job = nullptr;  // a job's witness or input; else one of `inputs`
    std::string what;
  };
  std::map<fs::path, Reader> read;
  for (const CircomJobSpec& job : jobs)
    read.emplace(place(job.source), Reader{&job, job.from_input ? "input" : "witness"});
  for (const NamedPath& input : inputs) read.emplace(place(input.path), Reader{nullptr, input.what});

  std::map<fs::path, std::pair<std::string, const CircomJobSpec*>> written;  // where -> whose output
  std::set<fs::path> writable;
  const auto check = [&](const fs::path& output, const std::string& whose, const CircomJobSpec* job) {
    std::error_code error;
    const fs::path dir = output.has_parent_path() ? output.parent_path() : fs::path(".");
    if (!fs::is_directory(dir, error))
      throw UnusableInput(whose + ": no folder " + quoted(dir) + " for " + quoted(output));
    if (fs::is_directory(output, error))
      throw UnusableInput(whose + ": its output " + quoted(output) + " is a folder");
    check_output_replaceable(whose, output);
    const fs::path where = place(output);
    if (const auto it = read.find(where); it != read.end()) {
      const Reader& r = it->second;
      const std::string is = r.job == nullptr ? r.what
                             : r.job == job   ? "its own " + r.what
                                              : "the " + r.what + " of " + r.job->label;
      throw UnusableInput(whose + ": its output " + quoted(output) + " is " + is +
                          ", which would be overwritten (nothing was proven)");
    }
    if (const auto [it, fresh] = written.emplace(where, std::pair{whose, job}); !fresh)
      throw UnusableInput(whose + ": its output " + quoted(output) +
                          (job != nullptr && it->second.second == job
                               ? " is both its proof and its public signals"
                               : " is also the output of " + it->second.first));
    if (writable.insert(place(dir)).second) check_directory_takes_files(whose, dir, output);
  };
  for (const CircomJobSpec& job : jobs)
    for (const fs::path* output : {&job.proof, &job.public_inputs})
      if (!output->empty()) check(*output, job.label, &job);  // empty: proved, not kept
  for (const NamedPath& output : outputs)
    if (!output.path.empty()) check(output.path, output.what, nullptr);
}

}  // namespace proofline::apps
