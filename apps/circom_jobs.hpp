// The jobs of a circom batch (proofline prove / batch, batch_prove --zkey): where each witness comes from (a
// .wtns file, or an input JSON computed by the circuit's generator) and where its proof.json and public.json
// go. Planned before anything is proved: outputs that collide or have no place are unusable input (exit 2).
#pragma once

#include <filesystem>
#include <optional>
#include <string>
#include <vector>

namespace proofline::apps {

struct CircomJobSpec {
  std::filesystem::path source;  ///< a .wtns file, or an input .json when from_input
  bool from_input = false;
  std::filesystem::path proof, public_inputs;
  std::string label;  ///< the source's name, for messages
};

/// "A" for dir/A.wtns, dir/A.json and dir/A.input.json (the name of a job's outputs under --out).
std::string circom_job_name(const std::filesystem::path& source);

/// One job per source, its outputs DIR/NAME.proof.json and DIR/NAME.public.json. UnusableInput when two
/// sources give one name or there is no DIR.
std::vector<CircomJobSpec> jobs_into_dir(const std::vector<std::filesystem::path>& sources, bool from_input,
                                         const std::optional<std::filesystem::path>& out);

/// The jobs of a manifest: JSON lines ({"witness"|"input": PATH, "proof": PATH, "public": PATH}) or CSV
/// (SOURCE,PROOF,PUBLIC; a .json source is an input, anything else a witness; an optional header line).
/// Relative paths are taken from the manifest's folder. UnusableInput naming the line for anything else.
std::vector<CircomJobSpec> jobs_from_manifest(const std::filesystem::path& manifest);

/// Creates the folders the jobs' outputs go into (a manifest's, as --out DIR is created); UnusableInput
/// naming the job and the folder when one cannot be.
void create_output_folders(const std::vector<CircomJobSpec>& jobs);

/// A file a batch reads or writes besides its jobs' own, named for messages: {"the key", k.zkey},
/// {"--report", run.json}.
struct NamedPath {
  std::string what;
  std::filesystem::path path;
};

/// The files of a witness generator's folder (circom's CIRCUIT_cpp/ or CIRCUIT_js/; or its .wasm when the
/// path names the file) as inputs of check_job_outputs: an output there would change the circuit itself.
std::vector<NamedPath> circuit_files(const std::filesystem::path& circuit);

/// UnusableInput, before anything is proved, when an output (a job's, or one of `outputs`) has no folder, is
/// a folder, lies in a folder that takes no files, is also another output, or is one of the batch's inputs (a
/// job's witness or input JSON, or one of `inputs`): nothing the batch reads is ever overwritten.
void check_job_outputs(const std::vector<CircomJobSpec>& jobs, const std::vector<NamedPath>& inputs = {},
                       const std::vector<NamedPath>& outputs = {});

}  // namespace proofline::apps
