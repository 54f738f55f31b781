#include <proofline/groth16/snarkjs_json.hpp>

#include <limits>
#include <string>

#include <proofline/arith/int_text.hpp>
#include <proofline/arith/pairing.hpp>
#include <proofline/groth16/binfile.hpp>
#include <proofline/groth16/detail/input_file.hpp>
#include <proofline/groth16/detail/point_checks.hpp>
#include <proofline/util/error.hpp>
#include <proofline/util/text.hpp>

namespace proofline::groth16 {

namespace {

constexpr std::uint64_t max_json_bytes = std::uint64_t{64} << 20;

[[noreturn]] void fail(std::string_view context, const std::string& what) {
  throw Error(Errc::bad_input, std::string(context) + ": " + what);
}

std::string at(std::string_view context, std::string_view member) {
  return std::string(context) + ": " + std::string(member);
}

const json::Value& member(const json::Value& object, std::string_view key, std::string_view context) {
  const json::Value* value = object.find(key);
  if (value == nullptr) fail(context, "missing member " + quote_for_message(key));
  return *value;
}

void expect_string(const json::Value& object, std::string_view key, std::string_view expected,
                   std::string_view context) {
  const json::Value& value = member(object, key, context);
  if (!value.is_string() || value.as_string() != expected) {
    const std::string found = value.is_string() ? quote_for_message(value.as_string()) : "not a string";
    fail(context, quote_for_message(key) + " is " + found + ", expected " + quote_for_message(expected));
  }
}

const json::Value& array_of(const json::Value& value, std::size_t size, std::string_view context) {
  if (!value.is_array() || value.size() != size)
    fail(context, "expected an array of " + std::to_string(size) + " items");
  return value;
}

template <class Field>
Field field_from(const json::Value& value, std::string_view context, const char* field_name) {
  if (!value.is_string())
    fail(context, std::string("expected a decimal string (an element of ") + field_name + ")");
  const auto element = field_from_decimal<Field>(value.as_string());
  if (!element)
    fail(context, quote_for_message(value.as_string(), 100) + " is not a decimal number below the " +
                      field_name + " modulus");
  return *element;
}

Fp fp_from(const json::Value& value, std::string_view context) {
  return field_from<Fp>(value, context, "Fp");
}

Fp2 fp2_from(const json::Value& value, std::string_view context) {
  const json::Value& pair = array_of(value, 2, context);
  return Fp2{fp_from(pair.at(std::size_t{0}), context), fp_from(pair.at(std::size_t{1}), context)};
}

json::Value dec(const Fp& value) {
  return json::Value(field_to_decimal(value));
}

json::Value dec2(const Fp2& value) {
  return json::Value::array({dec(value.c0), dec(value.c1)});
}

template <class Affine>
void check_point(const Affine& point, std::string_view context, ProofPointCheck check) {
  if (check == ProofPointCheck::shape_only) return;
  if (!point.is_on_curve()) fail(context, "the point is not on the curve");
  if (!is_in_subgroup(point)) fail(context, "the point is not in the prime-order subgroup");
}

json::Value g1_to_json(const G1Affine& p) {
  if (p.is_infinity()) return json::Value::array({"0", "1", "0"});
  return json::Value::array({dec(p.x), dec(p.y), "1"});
}

json::Value g2_to_json(const G2Affine& p) {
  if (p.is_infinity())
    return json::Value::array(
        {json::Value::array({"0", "0"}), json::Value::array({"1", "0"}), json::Value::array({"0", "0"})});
  return json::Value::array({dec2(p.x), dec2(p.y), json::Value::array({"1", "0"})});
}

G1Affine g1_from(const json::Value& value, std::string_view context, ProofPointCheck check) {
  const json::Value& triple = array_of(value, 3, context);
  const Fp x = fp_from(triple.at(std::size_t{0}), context);
  const Fp y = fp_from(triple.at(std::size_t{1}), context);
  const Fp z = fp_from(triple.at(std::size_t{2}), context);
  if (z.is_zero()) return G1Affine::infinity();
  if (!z.is_one()) fail(context, "z must be \"1\" (an affine point) or \"0\" (the point at infinity)");
  const G1Affine p{x, y};
  // (0, 0, 1) would read as our all-zero infinity; it is not a point of the curve.
  if (p.is_infinity()) fail(context, "(0, 0) is not on the curve");
  check_point(p, context, check);
  return p;
}

G2Affine g2_from(const json::Value& value, std::string_view context, ProofPointCheck check) {
  const json::Value& triple = array_of(value, 3, context);
  const Fp2 x = fp2_from(triple.at(std::size_t{0}), context);
  const Fp2 y = fp2_from(triple.at(std::size_t{1}), context);
  const Fp2 z = fp2_from(triple.at(std::size_t{2}), context);
  if (z.is_zero()) return G2Affine::infinity();
  if (!z.c0.is_one() || !z.c1.is_zero())
    fail(context, "z must be [\"1\", \"0\"] (an affine point) or [\"0\", \"0\"] (infinity)");
  const G2Affine p{x, y};
  if (p.is_infinity()) fail(context, "(0, 0) is not on the curve");
  check_point(p, context, check);
  return p;
}

void stringify_into(std::string& out, const json::Value& value, int level) {
  const auto newline = [&out](int depth) {
    out += '\n';
    out.append(static_cast<std::size_t>(depth), ' ');
  };
  switch (value.type()) {
    case json::Value::Type::null:
      out += "null";
      return;
    case json::Value::Type::boolean:
      out += value.as_bool() ? "true" : "false";
      return;
    case json::Value::Type::number:
      out += value.number_text();
      return;
    case json::Value::Type::string:
      json::append_quoted(out, value.as_string());
      return;
    case json::Value::Type::array: {
      const auto& items = value.as_array();
      if (items.empty()) {
        out += "[]";
        return;
      }
      out += '[';
      for (std::size_t i = 0; i < items.size(); ++i) {
        if (i) out += ',';
        newline(level + 1);
        stringify_into(out, items[i], level + 1);
      }
      newline(level);
      out += ']';
      return;
    }
    case json::Value::Type::object: {
      const auto& members = value.as_object();
      if (members.empty()) {
        out += "{}";
        return;
      }
      out += '{';
      for (std::size_t i = 0; i < members.size(); ++i) {
        if (i) out += ',';
        newline(level + 1);
        json::append_quoted(out, members[i].first);
        out += ": ";
        stringify_into(out, members[i].second, level + 1);
      }
      newline(level);
      out += '}';
      return;
    }
  }
}

void write_text(const std::filesystem::path& path, const std::string& text) {
  write_file_atomically(path, std::as_bytes(std::span(text.data(), text.size())));
}

}  // namespace

// ---- proof.json -----------------------------------------------------------------------------------------

json::Value snarkjs_proof_to_json(const Proof& proof) {
  return json::Value::object({{"pi_a", g1_to_json(proof.a)},
                              {"pi_b", g2_to_json(proof.b)},
                              {"pi_c", g1_to_json(proof.c)},
                              {"protocol", "groth16"},
                              {"curve", "bls12381"}});
}

Proof snarkjs_proof_from_json(const json::Value& value, std::string_view context, ProofPointCheck check) {
  if (!value.is_object()) fail(context, "expected a JSON object (a snarkjs proof.json)");
  expect_string(value, "protocol", "groth16", context);
  expect_string(value, "curve", "bls12381", context);
  return Proof{g1_from(member(value, "pi_a", context), at(context, "pi_a"), check),
               g2_from(member(value, "pi_b", context), at(context, "pi_b"), check),
               g1_from(member(value, "pi_c", context), at(context, "pi_c"), check)};
}

// ---- public.json ----------------------------------------------------------------------------------------

json::Value snarkjs_public_to_json(std::span<const Fr> public_inputs) {
  json::Value out = json::Value::array();
  for (const Fr& x : public_inputs) out.push_back(json::Value(field_to_decimal(x)));
  return out;
}

std::vector<Fr> snarkjs_public_from_json(const json::Value& value, std::string_view context) {
  if (!value.is_array()) fail(context, "expected a JSON array of decimal strings (a snarkjs public.json)");
  std::vector<Fr> out;
  out.reserve(value.size());
  for (std::size_t i = 0; i < value.size(); ++i)
    out.push_back(field_from<Fr>(value.at(i), std::string(context) + ": [" + std::to_string(i) + "]", "Fr"));
  return out;
}

// ---- verification_key.json ------------------------------------------------------------------------------

json::Value snarkjs_fp12_to_json(const Fp12& value) {
  const auto fp6 = [](const Fp6& x) { return json::Value::array({dec2(x.c0), dec2(x.c1), dec2(x.c2)}); };
  return json::Value::array({fp6(value.c0), fp6(value.c1)});
}

Fp12 snarkjs_fp12_from_json(const json::Value& value, std::string_view context) {
  const json::Value& outer = array_of(value, 2, context);
  const auto fp6 = [&](const json::Value& v) {
    const json::Value& three = array_of(v, 3, context);
    return Fp6{fp2_from(three.at(std::size_t{0}), context), fp2_from(three.at(std::size_t{1}), context),
               fp2_from(three.at(std::size_t{2}), context)};
  };
  return Fp12{fp6(outer.at(std::size_t{0})), fp6(outer.at(std::size_t{1}))};
}

json::Value snarkjs_verifying_key_to_json(const VerifyingKey& vk) {
  json::Value ic = json::Value::array();
  for (const G1Affine& p : vk.ic) ic.push_back(g1_to_json(p));
  return json::Value::object({{"protocol", "groth16"},
                              {"curve", "bls12381"},
                              {"nPublic", json::Value(static_cast<std::uint64_t>(vk.num_public()))},
                              {"vk_alpha_1", g1_to_json(vk.alpha1)},
                              {"vk_beta_2", g2_to_json(vk.beta2)},
                              {"vk_gamma_2", g2_to_json(vk.gamma2)},
                              {"vk_delta_2", g2_to_json(vk.delta2)},
                              {"vk_alphabeta_12", snarkjs_fp12_to_json(pairing(vk.alpha1, vk.beta2))},
                              {"IC", std::move(ic)}});
}

VerifyingKey snarkjs_verifying_key_from_json(const json::Value& value, std::string_view context) {
  if (!value.is_object()) fail(context, "expected a JSON object (a snarkjs verification_key.json)");
  expect_string(value, "protocol", "groth16", context);
  expect_string(value, "curve", "bls12381", context);
  const json::Value& n_public = member(value, "nPublic", context);
  if (!n_public.is_number()) fail(context, "\"nPublic\" is not a number");
  std::uint64_t count = 0;
  try {
    count = n_public.as_u64();
  } catch (const Error&) {
    fail(context, "\"nPublic\" is not a non-negative integer");
  }
  const json::Value& ic = member(value, "IC", context);
  if (!ic.is_array()) fail(context, "\"IC\" is not an array");
  if (ic.size() != count + 1 || count == std::numeric_limits<std::uint64_t>::max())
    fail(context, "\"IC\" has " + std::to_string(ic.size()) + " points, nPublic = " + std::to_string(count) +
                      " needs nPublic + 1");
  VerifyingKey vk;
  vk.alpha1 = g1_from(member(value, "vk_alpha_1", context), at(context, "vk_alpha_1"), ProofPointCheck::full);
  vk.beta2 = g2_from(member(value, "vk_beta_2", context), at(context, "vk_beta_2"), ProofPointCheck::full);
  vk.gamma2 = g2_from(member(value, "vk_gamma_2", context), at(context, "vk_gamma_2"), ProofPointCheck::full);
  vk.delta2 = g2_from(member(value, "vk_delta_2", context), at(context, "vk_delta_2"), ProofPointCheck::full);
  vk.ic.reserve(ic.size());
  for (std::size_t i = 0; i < ic.size(); ++i)
    vk.ic.push_back(g1_from(ic.at(i), at(context, "IC[" + std::to_string(i) + "]"), ProofPointCheck::full));
  for (const auto& [name, infinite] :
       {std::pair{"vk_alpha_1", vk.alpha1.is_infinity()}, std::pair{"vk_beta_2", vk.beta2.is_infinity()},
        std::pair{"vk_gamma_2", vk.gamma2.is_infinity()}, std::pair{"vk_delta_2", vk.delta2.is_infinity()}})
    if (infinite) fail(context, std::string(name) + " is the point at infinity");
  if (const json::Value* alphabeta = value.find("vk_alphabeta_12")) {
    if (snarkjs_fp12_from_json(*alphabeta, at(context, "vk_alphabeta_12")) != pairing(vk.alpha1, vk.beta2))
      fail(context, "vk_alphabeta_12 is not e(vk_alpha_1, vk_beta_2)");
  }
  return vk;
}

// ---- text and files -------------------------------------------------------------------------------------

std::string snarkjs_stringify(const json::Value& value) {
  std::string out;
  stringify_into(out, value, 0);
  return out;
}

json::Value read_json_file(const std::filesystem::path& path) {
  const std::string name = path.string();
  // Opened before anything else is asked of the path: a FIFO or device is refused at once, and the size
  // checked is the size of the file that is read.
  const detail::InputFile file = detail::open_input_file(path, "", Errc::bad_input);
  if (file.size > max_json_bytes)
    fail(name, std::to_string(file.size) + " bytes is too large for a JSON proof or key file");
  std::string text(static_cast<std::size_t>(file.size), '\0');
  detail::read_exactly(file.fd.get(), reinterpret_cast<std::byte*>(text.data()), file.size, 0, name);
  return json::parse(text, name);
}

void write_snarkjs_proof(const std::filesystem::path& path, const Proof& proof) {
  write_text(path, snarkjs_stringify(snarkjs_proof_to_json(proof)));
}

void write_snarkjs_public(const std::filesystem::path& path, std::span<const Fr> public_inputs) {
  write_text(path, snarkjs_stringify(snarkjs_public_to_json(public_inputs)));
}

void write_snarkjs_verifying_key(const std::filesystem::path& path, const VerifyingKey& vk) {
  write_text(path, snarkjs_stringify(snarkjs_verifying_key_to_json(vk)));
}

Proof read_snarkjs_proof(const std::filesystem::path& path, ProofPointCheck check) {
  return snarkjs_proof_from_json(read_json_file(path), path.string(), check);
}

std::vector<Fr> read_snarkjs_public(const std::filesystem::path& path) {
  return snarkjs_public_from_json(read_json_file(path), path.string());
}

VerifyingKey read_snarkjs_verifying_key(const std::filesystem::path& path) {
  return snarkjs_verifying_key_from_json(read_json_file(path), path.string());
}

}  // namespace proofline::groth16
