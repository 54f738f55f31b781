#include <proofline/groth16/snarkjs_json.hpp>

#include <cctype>
#include <limits>
#include <optional>
#include <string>
#include <type_traits>

#include <proofline/arith/bn254/curve_params.hpp>
#include <proofline/arith/curve_pairing.hpp>
#include <proofline/arith/int_text.hpp>
#include <proofline/groth16/binfile.hpp>
#include <proofline/groth16/detail/json_fields.hpp>
#include <proofline/groth16/detail/point_checks.hpp>
#include <proofline/util/error.hpp>
#include <proofline/util/text.hpp>

namespace proofline::groth16 {

namespace {

constexpr std::uint64_t max_json_bytes = std::uint64_t{64} << 20;

[[noreturn]] void fail(std::string_view context, const std::string& what) {
  detail::json_fail(context, what);
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

/// The curve a snarkjs "curve" names, read as snarkjs reads it (its letters and digits, case aside):
/// "bn128", "bn254" and "altbn128" are BN254, "bls12381" ("BLS12-381") is BLS12-381.
std::optional<CurveId> curve_of_snarkjs_name(std::string_view name) {
  std::string letters;
  for (const char c : name)
    if (std::isalnum(static_cast<unsigned char>(c)))
      letters += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  if (letters == "bn128" || letters == "bn254" || letters == "altbn128") return CurveId::bn254;
  if (letters == "bls12381") return CurveId::bls12_381;
  return std::nullopt;
}

/// Refuses an object whose "curve" names another curve than `Curve`; `optional`: a missing one is no error
/// (a snarkjs proof's "curve" is not read by snarkjs, which takes the key's).
template <class Curve>
void expect_curve(const json::Value& object, std::string_view context, bool optional = false) {
  const json::Value* value = object.find("curve");
  if (value == nullptr && optional) return;
  const json::Value& curve = member(object, "curve", context);
  if (curve.is_string() && curve_of_snarkjs_name(curve.as_string()) == Curve::id) return;
  const std::string found = curve.is_string() ? quote_for_message(curve.as_string()) : "not a string";
  fail(context, "\"curve\" is " + found + ", expected " + quote_for_message(Curve::snarkjs_name));
}

const json::Value& array_of(const json::Value& value, std::size_t size, std::string_view context) {
  if (!value.is_array() || value.size() != size)
    fail(context, "expected an array of " + std::to_string(size) + " items");
  return value;
}

/// A point's coordinates: [x, y, z] as snarkjs writes them, or [x, y] (z = 1) as some provers do.
const json::Value& point_array(const json::Value& value, std::string_view context) {
  if (!value.is_array() || (value.size() != 2 && value.size() != 3))
    fail(context, "expected an array of 3 items ([x, y, z]; or 2, [x, y])");
  return value;
}

template <class Curve>
typename Curve::Fp fp_from(const json::Value& value, std::string_view context) {
  return detail::field_from_json<typename Curve::Fp>(value, context, "Fp");
}

template <class Curve>
typename Curve::Fp2 fp2_from(const json::Value& value, std::string_view context) {
  const json::Value& pair = array_of(value, 2, context);
  return typename Curve::Fp2{fp_from<Curve>(pair.at(std::size_t{0}), context),
                             fp_from<Curve>(pair.at(std::size_t{1}), context)};
}

template <class Fp>
json::Value dec(const Fp& value) {
  return json::Value(field_to_decimal(value));
}

template <class Fp2>
json::Value dec2(const Fp2& value) {
  return json::Value::array({dec(value.c0), dec(value.c1)});
}

template <class Affine>
void check_point(const Affine& point, std::string_view context, ProofPointCheck check) {
  if (check != ProofPointCheck::shape_only) detail::check_group_element(point, context);
}

template <class G1Affine>
json::Value g1_to_json(const G1Affine& p) {
  if (p.is_infinity()) return json::Value::array({"0", "1", "0"});
  return json::Value::array({dec(p.x), dec(p.y), "1"});
}

template <class G2Affine>
json::Value g2_to_json(const G2Affine& p) {
  if (p.is_infinity())
    return json::Value::array(
        {json::Value::array({"0", "0"}), json::Value::array({"1", "0"}), json::Value::array({"0", "0"})});
  return json::Value::array({dec2(p.x), dec2(p.y), json::Value::array({"1", "0"})});
}

/// (x / z^2, y / z^3): ffjavascript's projective points are Jacobian, and snarkjs's verifier takes any z !=
/// 0, although every prover we know writes z = 1.
template <class Affine, class Field>
Affine from_jacobian(const Field& x, const Field& y, const Field& z) {
  if (z == Field::one()) return Affine{x, y};
  const Field z_inverse = z.inverse();
  const Field zz_inverse = z_inverse.squared();
  return Affine{x * zz_inverse, y * zz_inverse * z_inverse};
}

template <class Curve>
typename Curve::G1Affine g1_from(const json::Value& value, std::string_view context, ProofPointCheck check) {
  using Fp = typename Curve::Fp;
  using G1Affine = typename Curve::G1Affine;
  const json::Value& triple = point_array(value, context);
  const Fp x = fp_from<Curve>(triple.at(std::size_t{0}), context);
  const Fp y = fp_from<Curve>(triple.at(std::size_t{1}), context);
  const Fp z = triple.size() == 2 ? Fp::one() : fp_from<Curve>(triple.at(std::size_t{2}), context);
  if (z.is_zero()) return G1Affine::infinity();
  const G1Affine p = from_jacobian<G1Affine>(x, y, z);
  // (0, 0, 1) would read as our all-zero infinity; it is not a point of the curve.
  if (p.is_infinity()) fail(context, "(0, 0) is not on the curve");
  check_point(p, context, check);
  return p;
}

template <class Curve>
typename Curve::G2Affine g2_from(const json::Value& value, std::string_view context, ProofPointCheck check) {
  using Fp2 = typename Curve::Fp2;
  using G2Affine = typename Curve::G2Affine;
  const json::Value& triple = point_array(value, context);
  const Fp2 x = fp2_from<Curve>(triple.at(std::size_t{0}), context);
  const Fp2 y = fp2_from<Curve>(triple.at(std::size_t{1}), context);
  const Fp2 z = triple.size() == 2 ? Fp2::one() : fp2_from<Curve>(triple.at(std::size_t{2}), context);
  if (z.is_zero()) return G2Affine::infinity();
  const G2Affine p = from_jacobian<G2Affine>(x, y, z);
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
      if (items.empty()) {  // as snarkjs's JSON writer (bfj) puts it, not JSON.stringify's "[]"
        out += '[';
        newline(level);
        out += ']';
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

CurveId snarkjs_curve(const json::Value& value, std::string_view context) {
  if (!value.is_object()) fail(context, "expected a JSON object (a snarkjs proof or key)");
  const json::Value& curve = member(value, "curve", context);
  if (curve.is_string())
    if (const std::optional<CurveId> id = curve_of_snarkjs_name(curve.as_string())) return *id;
  const std::string found = curve.is_string() ? quote_for_message(curve.as_string()) : "not a string";
  fail(context, "\"curve\" is " + found + ", expected \"bn128\" or \"bls12381\"");
}

template <class Curve>
json::Value snarkjs_proof_to_json(const BasicProof<Curve>& proof) {
  return json::Value::object({{"pi_a", g1_to_json(proof.a)},
                              {"pi_b", g2_to_json(proof.b)},
                              {"pi_c", g1_to_json(proof.c)},
                              {"protocol", "groth16"},
                              {"curve", std::string(Curve::snarkjs_name)}});
}

template <class Curve>
BasicProof<Curve> snarkjs_proof_from_json(const json::Value& value, std::string_view context,
                                          ProofPointCheck check) {
  if (!value.is_object()) fail(context, "expected a JSON object (a snarkjs proof.json)");
  expect_string(value, "protocol", "groth16", context);
  expect_curve<Curve>(value, context, true);
  return BasicProof<Curve>{g1_from<Curve>(member(value, "pi_a", context), at(context, "pi_a"), check),
                           g2_from<Curve>(member(value, "pi_b", context), at(context, "pi_b"), check),
                           g1_from<Curve>(member(value, "pi_c", context), at(context, "pi_c"), check)};
}

// ---- public.json ----------------------------------------------------------------------------------------

namespace {

template <class Fr>
json::Value public_to_json(std::span<const Fr> public_inputs) {
  json::Value out = json::Value::array();
  for (const Fr& x : public_inputs) out.push_back(json::Value(field_to_decimal(x)));
  return out;
}

}  // namespace

json::Value snarkjs_public_to_json(std::span<const Fr> public_inputs) {
  return public_to_json(public_inputs);
}

json::Value snarkjs_public_to_json(std::span<const bn254::Fr> public_inputs) {
  return public_to_json(public_inputs);
}

/// One public signal as snarkjs's verifier reads it (JavaScript's BigInt): a decimal or 0x string, or a JSON
/// integer; a value not below r is refused, as snarkjs refuses it.
template <class Fr>
Fr public_signal_from(const json::Value& value, std::string_view context) {
  std::optional<Fr> element;
  if (value.is_string()) {
    element = detail::field_from_number_text<Fr>(value.as_string());
  } else if (value.is_number()) {
    element = field_from_decimal<Fr>(value.number_text());
  } else {
    fail(context, "expected a decimal string, a 0x string or an integer (an element of Fr)");
  }
  if (!element)
    fail(context,
         detail::number_text_problem(value.is_string() ? value.as_string() : value.number_text(), "Fr"));
  return *element;
}

template <class Fr>
std::vector<Fr> snarkjs_public_from_json(const json::Value& value, std::string_view context) {
  if (!value.is_array()) fail(context, "expected a JSON array of decimal strings (a snarkjs public.json)");
  std::vector<Fr> out;
  out.reserve(value.size());
  for (std::size_t i = 0; i < value.size(); ++i)
    out.push_back(
        public_signal_from<Fr>(value.at(i), std::string(context) + ": [" + std::to_string(i) + "]"));
  return out;
}

// ---- verification_key.json ------------------------------------------------------------------------------

template <class Fp2>
json::Value snarkjs_fp12_to_json(const Fp12T<Fp2>& value) {
  const auto fp6 = [](const auto& x) { return json::Value::array({dec2(x.c0), dec2(x.c1), dec2(x.c2)}); };
  return json::Value::array({fp6(value.c0), fp6(value.c1)});
}

template <class Curve>
typename CurvePairing<Curve>::Gt snarkjs_fp12_from_json(const json::Value& value, std::string_view context) {
  using Fp12 = typename CurvePairing<Curve>::Gt;
  const json::Value& outer = array_of(value, 2, context);
  const auto fp6 = [&](const json::Value& v) {
    const json::Value& three = array_of(v, 3, context);
    return decltype(Fp12{}.c0){fp2_from<Curve>(three.at(std::size_t{0}), context),
                               fp2_from<Curve>(three.at(std::size_t{1}), context),
                               fp2_from<Curve>(three.at(std::size_t{2}), context)};
  };
  return Fp12{fp6(outer.at(std::size_t{0})), fp6(outer.at(std::size_t{1}))};
}

namespace {

/// e(alpha1, beta2) as snarkjs computes it. ffjavascript's bn128 final exponentiation is Fuentes-Castaneda et
/// al.'s short chain, which raises to (p^12 − 1)/r times m = 2u(6u² + 3u + 1); its BLS12-381 one is exact.
/// Either is a pairing, but vk_alphabeta_12 must be snarkjs's value to be read by snarkjs and checked here.
template <class Curve>
typename CurvePairing<Curve>::Gt snarkjs_alpha_beta(const BasicVerifyingKey<Curve>& vk) {
  const auto value = CurvePairing<Curve>::pairing(vk.alpha1, vk.beta2);
  if constexpr (std::is_same_v<Curve, Bn254>) {
    using F = bn254::Fr;
    const F u = F::from_u64(bn254::ate_u);
    const F m = F::from_u64(2) * u * (F::from_u64(6) * u * u + F::from_u64(3) * u + F::one());
    return value.pow(m.canonical());
  } else {
    return value;
  }
}

}  // namespace

template <class Curve>
json::Value snarkjs_verifying_key_to_json(const BasicVerifyingKey<Curve>& vk) {
  json::Value ic = json::Value::array();
  for (const auto& p : vk.ic) ic.push_back(g1_to_json(p));
  return json::Value::object({{"protocol", "groth16"},
                              {"curve", std::string(Curve::snarkjs_name)},
                              {"nPublic", json::Value(static_cast<std::uint64_t>(vk.num_public()))},
                              {"vk_alpha_1", g1_to_json(vk.alpha1)},
                              {"vk_beta_2", g2_to_json(vk.beta2)},
                              {"vk_gamma_2", g2_to_json(vk.gamma2)},
                              {"vk_delta_2", g2_to_json(vk.delta2)},
                              {"vk_alphabeta_12", snarkjs_fp12_to_json(snarkjs_alpha_beta(vk))},
                              {"IC", std::move(ic)}});
}

template <class Curve>
BasicVerifyingKey<Curve> snarkjs_verifying_key_from_json(const json::Value& value, std::string_view context) {
  if (!value.is_object()) fail(context, "expected a JSON object (a snarkjs verification_key.json)");
  expect_string(value, "protocol", "groth16", context);
  expect_curve<Curve>(value, context);
  const json::Value& ic = member(value, "IC", context);
  if (!ic.is_array()) fail(context, "\"IC\" is not an array");
  // Without "nPublic", IC says it (snarkjs's verifier reads IC alone).
  std::uint64_t count = ic.size() == 0 ? 0 : ic.size() - 1;
  if (const json::Value* n_public = value.find("nPublic")) {
    if (!n_public->is_number()) fail(context, "\"nPublic\" is not a number");
    try {
      count = n_public->as_u64();
    } catch (const Error&) {
      fail(context, "\"nPublic\" is not a non-negative integer");
    }
  }
  if (ic.size() != count + 1 || count == std::numeric_limits<std::uint64_t>::max())
    fail(context, "\"IC\" has " + std::to_string(ic.size()) + " points, nPublic = " + std::to_string(count) +
                      " needs nPublic + 1");
  constexpr ProofPointCheck full = ProofPointCheck::full;
  BasicVerifyingKey<Curve> vk;
  vk.alpha1 = g1_from<Curve>(member(value, "vk_alpha_1", context), at(context, "vk_alpha_1"), full);
  vk.beta2 = g2_from<Curve>(member(value, "vk_beta_2", context), at(context, "vk_beta_2"), full);
  vk.gamma2 = g2_from<Curve>(member(value, "vk_gamma_2", context), at(context, "vk_gamma_2"), full);
  vk.delta2 = g2_from<Curve>(member(value, "vk_delta_2", context), at(context, "vk_delta_2"), full);
  vk.ic.reserve(ic.size());
  for (std::size_t i = 0; i < ic.size(); ++i)
    vk.ic.push_back(g1_from<Curve>(ic.at(i), at(context, "IC[" + std::to_string(i) + "]"), full));
  for (const auto& [name, infinite] :
       {std::pair{"vk_alpha_1", vk.alpha1.is_infinity()}, std::pair{"vk_beta_2", vk.beta2.is_infinity()},
        std::pair{"vk_gamma_2", vk.gamma2.is_infinity()}, std::pair{"vk_delta_2", vk.delta2.is_infinity()}})
    if (infinite) fail(context, std::string(name) + " is the point at infinity");
  if (const json::Value* alphabeta = value.find("vk_alphabeta_12")) {
    if (snarkjs_fp12_from_json<Curve>(*alphabeta, at(context, "vk_alphabeta_12")) != snarkjs_alpha_beta(vk))
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
  return json::parse(json::read_text_file(path, max_json_bytes, "a JSON proof or key file"), path.string());
}

template <class Curve>
void write_snarkjs_proof(const std::filesystem::path& path, const BasicProof<Curve>& proof) {
  write_text(path, snarkjs_stringify(snarkjs_proof_to_json(proof)));
}

void write_snarkjs_public(const std::filesystem::path& path, std::span<const Fr> public_inputs) {
  write_text(path, snarkjs_stringify(snarkjs_public_to_json(public_inputs)));
}

void write_snarkjs_public(const std::filesystem::path& path, std::span<const bn254::Fr> public_inputs) {
  write_text(path, snarkjs_stringify(snarkjs_public_to_json(public_inputs)));
}

template <class Curve>
void write_snarkjs_verifying_key(const std::filesystem::path& path, const BasicVerifyingKey<Curve>& vk) {
  write_text(path, snarkjs_stringify(snarkjs_verifying_key_to_json(vk)));
}

template <class Curve>
BasicProof<Curve> read_snarkjs_proof(const std::filesystem::path& path, ProofPointCheck check) {
  return snarkjs_proof_from_json<Curve>(read_json_file(path), path.string(), check);
}

template <class Fr>
std::vector<Fr> read_snarkjs_public(const std::filesystem::path& path) {
  return snarkjs_public_from_json<Fr>(read_json_file(path), path.string());
}

template <class Curve>
BasicVerifyingKey<Curve> read_snarkjs_verifying_key(const std::filesystem::path& path) {
  return snarkjs_verifying_key_from_json<Curve>(read_json_file(path), path.string());
}

#define PROOFLINE_SNARKJS_JSON_FOR(Curve)                                                                    \
  template json::Value snarkjs_proof_to_json(const BasicProof<Curve>&);                                      \
  template BasicProof<Curve> snarkjs_proof_from_json<Curve>(const json::Value&, std::string_view,            \
                                                            ProofPointCheck);                                \
  template std::vector<Curve::Fr> snarkjs_public_from_json<Curve::Fr>(const json::Value&, std::string_view); \
  template json::Value snarkjs_fp12_to_json(const CurvePairing<Curve>::Gt&);                                 \
  template CurvePairing<Curve>::Gt snarkjs_fp12_from_json<Curve>(const json::Value&, std::string_view);      \
  template json::Value snarkjs_verifying_key_to_json(const BasicVerifyingKey<Curve>&);                       \
  template BasicVerifyingKey<Curve> snarkjs_verifying_key_from_json<Curve>(const json::Value&,               \
                                                                           std::string_view);                \
  template void write_snarkjs_proof(const std::filesystem::path&, const BasicProof<Curve>&);                 \
  template void write_snarkjs_verifying_key(const std::filesystem::path&, const BasicVerifyingKey<Curve>&);  \
  template BasicProof<Curve> read_snarkjs_proof<Curve>(const std::filesystem::path&, ProofPointCheck);       \
  template std::vector<Curve::Fr> read_snarkjs_public<Curve::Fr>(const std::filesystem::path&);              \
  template BasicVerifyingKey<Curve> read_snarkjs_verifying_key<Curve>(const std::filesystem::path&);
PROOFLINE_SNARKJS_JSON_FOR(Bls12_381)
PROOFLINE_SNARKJS_JSON_FOR(Bn254)
#undef PROOFLINE_SNARKJS_JSON_FOR

}  // namespace proofline::groth16
