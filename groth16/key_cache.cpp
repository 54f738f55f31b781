#include <proofline/groth16/key_cache.hpp>

#include <cstdio>
#include <optional>
#include <string>
#include <system_error>

#include <proofline/groth16/native_file.hpp>
#include <proofline/groth16/zkey.hpp>
#include <proofline/groth16/zkey_writer.hpp>
#include <proofline/util/error.hpp>
#include <proofline/util/logging.hpp>
#include <proofline/util/text.hpp>

namespace proofline::groth16 {

namespace {

bool is_safe_name(std::string_view name) {
  if (name.empty()) return false;
  for (const char ch : name) {
    const bool ok = (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') || (ch >= '0' && ch <= '9') ||
                    ch == '.' || ch == '_' || ch == '-';
    if (!ok) return false;
  }
  return name != "." && name != "..";
}

void check_name(const KeyCacheRequest& request) {
  if (!is_safe_name(request.circuit_name))
    throw Error(Errc::invalid_argument,
                "key cache: circuit name " + quote_for_message(request.circuit_name) +
                    " must be non-empty and use only letters, digits, '.', '_' and '-'");
}

/// ".t<seed>[.g]": the trapdoor.
std::string trapdoor_part(const KeyCacheRequest& request) {
  return ".t" + std::to_string(request.trapdoor_seed) + (request.random_gamma ? ".g" : "");
}

void make_cache_directory(const std::filesystem::path& directory) {
  std::error_code ec;
  std::filesystem::create_directories(directory, ec);
  if (ec) throw Error(Errc::io, "key cache: cannot create " + directory.string() + ": " + ec.message());
}

/// The cached BN254 key at `path` if it is one for this request (a .zkey of curve bn128 with the sizes asked
/// for; the name already carries the digest), else nothing (it is made again).
std::optional<BasicKeyPair<Bn254>> cached_bn254(const std::filesystem::path& path,
                                                const BasicConstraintSystem<Bn254>& cs, unsigned log_n) {
  std::error_code ec;
  if (!std::filesystem::exists(path, ec)) return std::nullopt;
  try {
    // Points on the curve: a damaged file is found; the key was made here, so subgroups are not rechecked.
    auto file = read_zkey<Bn254>(path, {.points = PointCheck::on_curve, .constraint_system = false});
    if (file.pk.log_domain_size == log_n && file.pk.num_variables == cs.num_variables &&
        file.pk.num_public == cs.num_public)
      return BasicKeyPair<Bn254>{std::move(file.pk), std::move(file.vk)};
    PL_LOG_WARN("key cache: {} was made for another circuit; making it again", path.string());
  } catch (const Error& error) {
    PL_LOG_WARN("key cache: {}; making the key again", error.what());
  }
  return std::nullopt;
}

}  // namespace

std::filesystem::path key_cache_path(const KeyCacheRequest& request, HConvention convention,
                                     unsigned log_domain_size) {
  check_name(request);
  const std::string file = std::string(request.circuit_name) + "." +
                           (convention == HConvention::generator7 ? "generator7" : "snarkjs") +
                           trapdoor_part(request) + ".n" + std::to_string(log_domain_size) + ".plkey";
  return request.directory / file;
}

std::filesystem::path bn254_key_cache_path(const KeyCacheRequest& request, unsigned log_domain_size,
                                           std::uint64_t circuit_digest) {
  check_name(request);
  char digest_hex[17];
  std::snprintf(digest_hex, sizeof digest_hex, "%016llx", static_cast<unsigned long long>(circuit_digest));
  return request.directory / (std::string(request.circuit_name) + ".bn254" + trapdoor_part(request) + ".n" +
                              std::to_string(log_domain_size) + ".c" + digest_hex + ".zkey");
}

BasicKeyPair<Bn254> load_or_setup(const BasicConstraintSystem<Bn254>& cs, const KeyCacheRequest& request,
                                  const BasicSetupOptions<Bn254>& options, bool* loaded) {
  if (options.convention != HConvention::snarkjs)
    throw Error(Errc::invalid_argument, "key cache: BN254 keys are made in snarkjs's H convention only");
  const unsigned log_n =
      options.log_domain_size != 0 ? options.log_domain_size : min_log_domain_size(cs.num_constraints());
  const std::filesystem::path path = bn254_key_cache_path(request, log_n, digest(cs));
  if (auto cached = cached_bn254(path, cs, log_n)) {
    if (loaded != nullptr) *loaded = true;
    PL_LOG_DEBUG("key cache: loaded {}", path.string());
    return std::move(*cached);
  }
  if (loaded != nullptr) *loaded = false;
  BasicSetupOptions<Bn254> setup_options = options;
  setup_options.log_domain_size = log_n;
  BasicKeyPair<Bn254> keys = setup_from_trapdoor(
      cs, trapdoor_from_seed<Bn254>(request.trapdoor_seed, request.random_gamma), setup_options);
  make_cache_directory(request.directory);
  write_zkey(path, keys.pk, keys.vk, cs);
  PL_LOG_INFO("key cache: wrote {}", path.string());
  return keys;
}

KeyPair load_or_setup(const ConstraintSystem& cs, const KeyCacheRequest& request, const SetupOptions& options,
                      bool* loaded) {
  const unsigned log_n =
      options.log_domain_size != 0 ? options.log_domain_size : min_log_domain_size(cs.num_constraints());
  const std::filesystem::path path = key_cache_path(request, options.convention, log_n);
  const std::uint64_t circuit_digest = digest(cs);
  std::error_code ec;
  if (std::filesystem::exists(path, ec)) {
    try {
      auto file = load_proving_key(path);
      if (file.value.circuit_digest == circuit_digest && file.value.vk &&
          file.value.pk.convention == options.convention && file.value.pk.log_domain_size == log_n) {
        if (loaded != nullptr) *loaded = true;
        PL_LOG_DEBUG("key cache: loaded {}", path.string());
        return KeyPair{std::move(file.value.pk), std::move(*file.value.vk)};
      }
      PL_LOG_WARN("key cache: {} was made for another circuit; making it again", path.string());
    } catch (const Error& error) {
      PL_LOG_WARN("key cache: {}; making the key again", error.what());
    }
  }
  if (loaded != nullptr) *loaded = false;
  SetupOptions setup_options = options;
  setup_options.log_domain_size = log_n;
  KeyPair keys =
      setup_from_trapdoor(cs, trapdoor_from_seed(request.trapdoor_seed, request.random_gamma), setup_options);
  make_cache_directory(request.directory);
  write_proving_key(path, keys.pk, &keys.vk, circuit_digest);
  PL_LOG_INFO("key cache: wrote {}", path.string());
  return keys;
}

}  // namespace proofline::groth16
