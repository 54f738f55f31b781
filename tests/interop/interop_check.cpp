// proofline_interop_check: what the interop tests ask of proofline's readers about files snarkjs and circom
// made.
//
//   proofline_interop_check vk KEY.zkey OUT.json
//       the verification_key.json proofline derives from a zkey (compared byte for byte with snarkjs's
//       export)
//   proofline_interop_check r1cs KEY.zkey C.r1cs W.wtns...
//       the zkey's coefficients are the r1cs's A and B plus snarkjs's input rows, and each witness satisfies
//       the r1cs
//
// The curve (bn128 or bls12381) is the key's; the r1cs and witnesses must be of the same one.
//
// Exit 0 when everything holds, 1 on a mismatch (named on stderr), 2 for unusable input.
#include <cstdio>
#include <exception>
#include <map>
#include <span>
#include <string>
#include <variant>
#include <vector>

#include <proofline/groth16/r1cs_file.hpp>
#include <proofline/groth16/snarkjs_json.hpp>
#include <proofline/groth16/wtns.hpp>
#include <proofline/groth16/zkey.hpp>

namespace {

using namespace proofline;
using namespace proofline::groth16;

template <class Curve>
std::map<std::uint32_t, typename Curve::Fr> row_of(const BasicCsrMatrix<Curve>& m, std::uint64_t row) {
  std::map<std::uint32_t, typename Curve::Fr> out;
  for (std::uint64_t k = m.row_offsets[row]; k < m.row_offsets[row + 1]; ++k)
    out[m.columns[k]] += m.values[k];
  return out;
}

int mismatch(const std::string& what) {
  std::fprintf(stderr, "proofline_interop_check: %s\n", what.c_str());
  return 1;
}

/// The r1cs of the key's curve against the zkey's A and B, and each witness against the r1cs.
template <class Curve>
int check_r1cs(const std::vector<std::string>& args, const BasicZkeyFile<Curve>& key) {
  const auto r1cs = read_r1cs<Curve>(args[2], R1csOptions{.snarkjs_input_rows = true});
  if (r1cs.cs.num_variables != key.cs.num_variables || r1cs.cs.num_public != key.cs.num_public)
    return mismatch("the r1cs and the zkey disagree on nVars or nPublic");
  if (r1cs.cs.num_constraints() != key.cs.num_constraints())
    return mismatch("the zkey has " + std::to_string(key.cs.num_constraints()) + " rows, the r1cs " +
                    std::to_string(r1cs.cs.num_constraints()) + " with the input rows");
  for (std::uint64_t row = 0; row < key.cs.num_constraints(); ++row) {
    if (row_of(key.cs.a, row) != row_of(r1cs.cs.a, row))
      return mismatch("A differs in row " + std::to_string(row));
    if (row_of(key.cs.b, row) != row_of(r1cs.cs.b, row))
      return mismatch("B differs in row " + std::to_string(row));
  }
  const auto plain = read_r1cs<Curve>(args[2]);
  for (std::size_t i = 3; i < args.size(); ++i) {
    check_wtns_length(args[i], check_wtns(args[i], Curve::id), plain.cs.num_variables, args[2]);
    const auto z = read_wtns<typename Curve::Fr>(args[i]);
    if (const auto row = first_unsatisfied_row(plain.cs, std::span<const typename Curve::Fr>(z)))
      return mismatch(args[i] + " does not satisfy constraint " + std::to_string(*row));
  }
  std::printf(
      "proofline_interop_check: %s (%s): %llu constraints, %llu variables, A and B equal the zkey's; %zu "
      "witnesses satisfy them\n",
      args[2].c_str(), std::string(Curve::name).c_str(),
      static_cast<unsigned long long>(plain.cs.num_constraints()),
      static_cast<unsigned long long>(plain.cs.num_variables), args.size() - 3);
  return 0;
}

int run(const std::vector<std::string>& args) {
  // The curve of every file comes from the key (bn128 or bls12381).
  if (args.size() == 3 && args[0] == "vk") {
    std::visit([&](const auto& key) { write_snarkjs_verifying_key(args[2], key.vk); },
               read_any_zkey(args[1], ZkeyOptions{.constraint_system = false}));
    return 0;
  }
  if (args.size() >= 3 && args[0] == "r1cs")
    return std::visit([&](const auto& key) { return check_r1cs(args, key); }, read_any_zkey(args[1]));
  std::fputs("usage: proofline_interop_check vk KEY.zkey OUT.json | r1cs KEY.zkey C.r1cs W.wtns...\n",
             stderr);
  return 2;
}

}  // namespace

int main(int argc, char** argv) {
  try {
    return run(std::vector<std::string>(argv + 1, argv + argc));
  } catch (const std::exception& e) {
    std::fprintf(stderr, "proofline_interop_check: %s\n", e.what());
    return 2;
  }
}
