#include <proofline/groth16/snarkjs_jobs.hpp>

#include <map>
#include <variant>

#include <proofline/groth16/snarkjs_json.hpp>
#include <proofline/groth16/wtns.hpp>
#include <proofline/util/error.hpp>

namespace proofline::groth16 {

namespace {

template <class Curve>
BasicSnarkjsKey<Curve> shared_parts(const std::filesystem::path& zkey, BasicZkeyFile<Curve> file) {
  const std::filesystem::path name = zkey.filename();
  return BasicSnarkjsKey<Curve>{name.extension() == ".zkey" ? name.stem().string() : name.string(),
                                file.header,
                                std::make_shared<const BasicProvingKey<Curve>>(std::move(file.pk)),
                                std::make_shared<const BasicConstraintSystem<Curve>>(std::move(file.cs)),
                                std::make_shared<const BasicVerifyingKey<Curve>>(std::move(file.vk))};
}

}  // namespace

SnarkjsKey load_snarkjs_key(const std::filesystem::path& zkey, const ZkeyOptions& options) {
  return shared_parts(zkey, read_zkey(zkey, options));
}

AnySnarkjsKey load_any_snarkjs_key(const std::filesystem::path& zkey, const ZkeyOptions& options) {
  return std::visit([&](auto&& file) -> AnySnarkjsKey { return shared_parts(zkey, std::move(file)); },
                    read_any_zkey(zkey, options));
}

std::string wtns_job_name(const std::filesystem::path& wtns) {
  const std::filesystem::path file = wtns.filename();
  return file.extension() == ".wtns" ? file.stem().string() : file.string();
}

std::vector<WtnsJob> plan_wtns_jobs(std::span<const std::filesystem::path> files, std::uint64_t num_variables,
                                    std::string_view key_name, CurveId curve) {
  std::vector<WtnsJob> jobs;
  jobs.reserve(files.size());
  std::map<std::string, std::filesystem::path> seen;
  for (const std::filesystem::path& file : files) {
    const WtnsHeader header = check_wtns(file, curve);
    check_wtns_length(file, header, num_variables, key_name);
    std::string name = wtns_job_name(file);
    if (name.empty())
      throw Error(Errc::bad_input, file.string() + ": no file name to name its outputs after");
    if (const auto [it, fresh] = seen.emplace(name, file); !fresh)
      throw Error(Errc::bad_input, file.string() + ": its outputs " + name + ".proof.json and " + name +
                                       ".public.json would overwrite those of " + it->second.string());
    jobs.push_back(WtnsJob{file, std::move(name)});
  }
  return jobs;
}

SnarkjsOutputs snarkjs_output_paths(const std::filesystem::path& dir, std::string_view name) {
  return SnarkjsOutputs{dir / (std::string(name) + ".proof.json"),
                        dir / (std::string(name) + ".public.json")};
}

SnarkjsOutputs write_snarkjs_outputs(const std::filesystem::path& dir, std::string_view name,
                                     const Proof& proof, std::span<const Fr> public_inputs) {
  SnarkjsOutputs paths = snarkjs_output_paths(dir, name);
  write_snarkjs_public(paths.public_inputs, public_inputs);
  write_snarkjs_proof(paths.proof, proof);
  return paths;
}

SnarkjsOutputs write_snarkjs_outputs(const std::filesystem::path& dir, std::string_view name,
                                     const BasicProof<Bn254>& proof,
                                     std::span<const bn254::Fr> public_inputs) {
  SnarkjsOutputs paths = snarkjs_output_paths(dir, name);
  write_snarkjs_public(paths.public_inputs, public_inputs);
  write_snarkjs_proof(paths.proof, proof);
  return paths;
}

}  // namespace proofline::groth16
