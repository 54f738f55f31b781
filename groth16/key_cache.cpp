#include <proofline/groth16/key_cache.hpp>

#include <string>
#include <system_error>

#include <proofline/groth16/native_file.hpp>
#include <proofline/util/logging.hpp>
#include <proofline/util/error.hpp>
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

}  // namespace

std::filesystem::path key_cache_path(const KeyCacheRequest& request, HConvention convention,
                                     unsigned log_domain_size) {
  if (!is_safe_name(request.circuit_name))
    throw Error(Errc::invalid_argument,
                "key cache: circuit name " + quote_for_message(request.circuit_name) +
                    " must be non-empty and use only letters, digits, '.', '_' and '-'");
  const std::string file = std::string(request.circuit_name) + "." +
                           (convention == HConvention::generator7 ? "generator7" : "snarkjs") + ".t" +
                           std::to_string(request.trapdoor_seed) + (request.random_gamma ? ".g" : "") + ".n" +
                           std::to_string(log_domain_size) + ".plkey";
  return request.directory / file;
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
  std::filesystem::create_directories(request.directory, ec);
  if (ec)
    throw Error(Errc::io, "key cache: cannot create " + request.directory.string() + ": " + ec.message());
  write_proving_key(path, keys.pk, &keys.vk, circuit_digest);
  PL_LOG_INFO("key cache: wrote {}", path.string());
  return keys;
}

}  // namespace proofline::groth16
