// pl_key: snarkjs and native keys from files or memory, registered with a pipeline.
#include <cstddef>
#include <cstring>
#include <filesystem>
#include <new>
#include <span>
#include <type_traits>
#include <vector>

#include <proofline/capi/detail/key_names.hpp>
#include <proofline/capi/detail/objects.hpp>
#include <proofline/capi/detail/registry.hpp>
#include <proofline/capi/detail/text_out.hpp>
#include <proofline/capi/detail/versioned.hpp>
#include <proofline/groth16/native_file.hpp>
#include <proofline/groth16/zkey.hpp>
#include <proofline/memory/free_heap.hpp>
#include <proofline/util/scope_guard.hpp>

namespace proofline::capi {

namespace {

struct KeyOptions {
  std::string name;
  groth16::PointCheck points = groth16::PointCheck::full;
  std::vector<int> gpus;
};

KeyOptions key_options(const pl_key_options* in) {
  KeyOptions o;
  if (in == nullptr) return o;
  check_struct_size(in, "options");
  if (PL_CAPI_HAS_FIELD(in, name) && in->name != nullptr) o.name = in->name;
  if (PL_CAPI_HAS_FIELD(in, point_check)) {
    if (in->point_check < PL_POINTS_FULL || in->point_check > PL_POINTS_TRUSTED)
      throw_status(PL_ERR_INVALID_ARGUMENT,
                   "options->point_check = " + std::to_string(in->point_check) + " is not a pl_point_check");
    o.points = static_cast<groth16::PointCheck>(in->point_check);
  }
  if (PL_CAPI_HAS_FIELD(in, num_gpus) && in->num_gpus != 0) {
    require(in->gpus, "options->gpus (with num_gpus > 0)");
    o.gpus.assign(in->gpus, in->gpus + in->num_gpus);
  }
  return o;
}

/// A 64-byte aligned copy of a caller's buffer (what the native and zkey parsers use in place).
std::pair<std::shared_ptr<const void>, std::span<const std::byte>> aligned_copy(const void* data,
                                                                                std::size_t length) {
  constexpr std::align_val_t alignment{64};
  std::shared_ptr<void> owner(::operator new(std::max<std::size_t>(length, 1), alignment),
                              [](void* p) { ::operator delete(p, alignment); });
  if (length != 0) std::memcpy(owner.get(), data, length);
  return {owner, std::span<const std::byte>(static_cast<const std::byte*>(owner.get()), length)};
}

/// The key's own name: the one the caller gave, else one from its file (`path`), else "key-N". Held (even
/// when registrations race) until the key is released or its registration fails.
std::string claim_name(KeyNames& names, const std::string& given, const char* path) {
  if (!given.empty()) return names.claim(given);
  if (path != nullptr) return names.claim_from_path(path);
  return names.claim_numbered();
}

/// Registers the key with the pipeline (on its curve) and hands out its handle. `path`: the file it was
/// read from (NULL for one from memory), which names it where the caller did not.
pl_key* register_key(const std::shared_ptr<Pipeline>& pipeline, Key key, const char* path) {
  refuse_closing(*pipeline);  // before the lock, which a waiting shutdown may be behind
  std::shared_lock lock(pipeline->lifecycle);
  if (pipeline->shut_down) throw_status(PL_ERR_SHUT_DOWN, "the pipeline is shut down");
  key.name = claim_name(pipeline->key_names, key.name, path);
  ScopeGuard unclaim([&pipeline, name = key.name] { pipeline->key_names.release(name); });
  try {
    key.handle = key.visit([&]<class Curve>(const CurveKey<Curve>& k) {
      return pipeline->prover.add_key(graph::BasicKeySpec<Curve>{key.name, k.pk, k.cs, k.vk, key.gpus});
    });
  } catch (const Error& e) {
    // A shutdown that began while this registration waited in the prover.
    if (e.code() == Errc::cancelled) throw_status(PL_ERR_SHUT_DOWN, e.what());
    throw;
  }
  key.pipeline = pipeline;
  pl_key* handle = handle_of<pl_key>(Registry<Key>::instance().add(std::make_shared<Key>(std::move(key))));
  unclaim.dismiss();
  return handle;
}

/// A key of `parts` named by the options (else unnamed: register_key names it) and placed where they say.
template <class Parts>
Key make_key(Parts parts, const KeyOptions& o) {
  return Key{{}, {}, o.name, std::move(parts), o.gpus, {}};
}

/// A .zkey of either curve (the file's header says which).
Key from_zkey(groth16::AnyZkeyFile any, const KeyOptions& o) {
  return std::visit(
      [&]<class Curve>(groth16::BasicZkeyFile<Curve>& file) {
        return make_key(
            CurveKey<Curve>{std::make_shared<const groth16::BasicProvingKey<Curve>>(std::move(file.pk)),
                            std::make_shared<const groth16::BasicConstraintSystem<Curve>>(std::move(file.cs)),
                            std::make_shared<const groth16::BasicVerifyingKey<Curve>>(std::move(file.vk))},
            o);
      },
      any);
}

/// The full check's subgroup tests run on the pipeline's GPU when it has one.
groth16::ZkeyOptions zkey_options(const KeyOptions& o, const graph::Config& config) {
  groth16::ZkeyOptions zkey{.points = o.points};
  if (o.points == groth16::PointCheck::full) zkey.key_check.tester = graph::subgroup_tester_for(config);
  return zkey;
}

groth16::LoadOptions native_options(const KeyOptions& o) {
  groth16::LoadOptions load;
  load.check_query_points = o.points != groth16::PointCheck::trusted;
  return load;
}

/// Native files are BLS12-381's.
Key from_native(groth16::ProvingKeyFile file, std::shared_ptr<const groth16::ConstraintSystem> cs,
                std::shared_ptr<const groth16::VerifyingKey> vk, const KeyOptions& o) {
  if (!vk && file.vk) vk = std::make_shared<const groth16::VerifyingKey>(std::move(*file.vk));
  return make_key(CurveKey<Bls12_381>{std::make_shared<const groth16::ProvingKey>(std::move(file.pk)),
                                      std::move(cs), std::move(vk)},
                  o);
}

/// `path`: the file the key is read from, which names it where the options do not (NULL: from memory).
template <class Load>
pl_status add_key(const char* function, pl_pipeline* pipeline, pl_key** out, const char* path, Load&& load) {
  return guarded(function, [&] {
    require(out, "out");
    *out = nullptr;
    refuse_in_callback(function);  // it may wait for jobs to free memory, and for a shutdown under way
    std::shared_ptr<Pipeline> owner = lookup<Pipeline>(pipeline, "pipeline");
    refuse_closing(*owner);  // before reading the key, and again before registering it
    *out = register_key(owner, load(owner->prover.config()), path);
    return PL_OK;
  });
}

}  // namespace

}  // namespace proofline::capi

using namespace proofline;
using namespace proofline::capi;

extern "C" {

PL_API pl_status pl_key_add_zkey_file(pl_pipeline* pipeline, const char* path, const pl_key_options* options,
                                      pl_key** out) {
  return add_key("pl_key_add_zkey_file", pipeline, out, path, [&](const graph::Config& config) {
    require(path, "path");
    const KeyOptions o = key_options(options);
    return from_zkey(groth16::read_any_zkey(path, zkey_options(o, config)), o);
  });
}

PL_API pl_status pl_key_add_zkey_memory(pl_pipeline* pipeline, const void* data, size_t length,
                                        const pl_key_options* options, pl_key** out) {
  return add_key("pl_key_add_zkey_memory", pipeline, out, nullptr, [&](const graph::Config& config) {
    require(data, "data");
    const KeyOptions o = key_options(options);
    auto [owner, image] = aligned_copy(data, length);
    return from_zkey(groth16::parse_any_zkey(owner, image, "zkey in memory", zkey_options(o, config)), o);
  });
}

PL_API pl_status pl_key_add_native_files(pl_pipeline* pipeline, const char* proving_key_path,
                                         const char* constraint_system_path, const char* verifying_key_path,
                                         const pl_key_options* options, pl_key** out) {
  return add_key("pl_key_add_native_files", pipeline, out, proving_key_path, [&](const graph::Config&) {
    require(proving_key_path, "proving_key_path");
    const KeyOptions o = key_options(options);
    const groth16::LoadOptions load = native_options(o);
    auto file = groth16::load_proving_key(proving_key_path, load);
    std::shared_ptr<const groth16::ConstraintSystem> cs;
    if (constraint_system_path != nullptr)
      cs = std::make_shared<const groth16::ConstraintSystem>(
          groth16::load_constraint_system(constraint_system_path, load).value);
    std::shared_ptr<const groth16::VerifyingKey> vk;
    if (verifying_key_path != nullptr)
      vk = std::make_shared<const groth16::VerifyingKey>(
          groth16::load_verifying_key(verifying_key_path, load));
    return from_native(std::move(file.value), std::move(cs), std::move(vk), o);
  });
}

PL_API pl_status pl_key_add_native_memory(pl_pipeline* pipeline, const void* pk_data, size_t pk_length,
                                          const void* cs_data, size_t cs_length,
                                          const pl_key_options* options, pl_key** out) {
  return add_key("pl_key_add_native_memory", pipeline, out, nullptr, [&](const graph::Config&) {
    require(pk_data, "pk_data");
    if (cs_data == nullptr && cs_length != 0) require(cs_data, "cs_data (with cs_length > 0)");
    const KeyOptions o = key_options(options);
    const groth16::LoadOptions load = native_options(o);
    auto [pk_owner, pk_image] = aligned_copy(pk_data, pk_length);
    auto file = groth16::parse_proving_key(pk_owner, pk_image, "proving key in memory", load);
    std::shared_ptr<const groth16::ConstraintSystem> cs;
    if (cs_data != nullptr) {
      auto [cs_owner, cs_image] = aligned_copy(cs_data, cs_length);
      cs = std::make_shared<const groth16::ConstraintSystem>(
          groth16::parse_constraint_system(cs_owner, cs_image, "constraint system in memory", load).value);
    }
    return from_native(std::move(file.value), std::move(cs), nullptr, o);
  });
}

PL_API pl_status pl_key_sizes(const pl_key* key, uint64_t* num_variables, uint64_t* num_public,
                              uint64_t* domain_size) {
  return guarded("pl_key_sizes", [&] {
    const std::shared_ptr<Key> k = lookup<Key>(key, "key");
    k->visit([&](const auto& parts) {
      if (num_variables != nullptr) *num_variables = parts.pk->num_variables;
      if (num_public != nullptr) *num_public = parts.pk->num_public;
      if (domain_size != nullptr) *domain_size = parts.pk->domain_size();
    });
    return PL_OK;
  });
}

PL_API pl_status pl_key_verifying_key(const pl_key* key, pl_vk** out) {
  return guarded("pl_key_verifying_key", [&] {
    require(out, "out");
    *out = nullptr;
    const std::shared_ptr<Key> k = lookup<Key>(key, "key");
    auto vk = k->visit([&]<class Curve>(const CurveKey<Curve>& parts) {
      if (!parts.vk) throw_status(PL_ERR_INVALID_ARGUMENT, "key '" + k->name + "' has no verifying key");
      return std::make_shared<Vk>(Vk{CurveVk<Curve>{parts.vk, groth16::prepare(*parts.vk)}});
    });
    *out = handle_of<pl_vk>(Registry<Vk>::instance().add(std::move(vk)));
    return PL_OK;
  });
}

PL_API pl_status pl_key_curve(const pl_key* key, int32_t* curve) {
  return guarded("pl_key_curve", [&] {
    require(curve, "curve");
    *curve = curve_code(lookup<Key>(key, "key")->curve());
    return PL_OK;
  });
}

PL_API pl_status pl_key_name(const pl_key* key, char* out, size_t length, size_t* needed) {
  return guarded("pl_key_name", [&] {
    copy_text(lookup<Key>(key, "key")->name, out, length, needed);
    return PL_OK;
  });
}

PL_API pl_status pl_key_release(pl_key* key) {
  return guarded("pl_key_release", [&] {
    refuse_in_callback("pl_key_release");
    std::shared_ptr<Key> k = take<Key>(key, "key");
    k->mark.released.store(true);
    // A pipeline destroyed or shut down before its key has nothing left to unregister.
    if (const std::shared_ptr<Pipeline> pipeline = k->pipeline.lock()) {
      {
        std::shared_lock lock(pipeline->lifecycle);
        if (!pipeline->shut_down) pipeline->prover.remove_key(k->handle);
      }
      pipeline->key_names.release(k->name);
    }
    k.reset();
    memory::return_free_heap();  // the key's megabytes, once nothing else holds them
    return PL_OK;
  });
}

}  // extern "C"
