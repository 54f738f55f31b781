// pl_config: its defaults and its translation into graph::Config.
#include <proofline/capi/detail/config.hpp>

#include <cstddef>
#include <cstring>
#include <type_traits>

#include <proofline/capi/detail/versioned.hpp>

// Every field of pl_config after its size, in order: read from callers and defaulted, each only where it
// lies within the caller's size.
// clang-format off
#define PL_CONFIG_FIELDS(X) \
  X(backend) X(mode) X(host_budget_bytes) X(vram_budget_bytes) X(gpus) X(num_gpus) \
  X(slots) X(device_slots) X(synthesis_concurrency) X(max_threads) X(max_log_n) X(srs_placement) \
  X(pinning) X(prewarm) X(verify) X(check_witness) X(in_order) X(queue_capacity) \
  X(job_timeout_ms) X(key_idle_timeout_ms) X(gpu_evaluate) X(msm_tables) X(msm_table_bits) \
  X(keys_take_turns)
// clang-format on

namespace proofline::capi {

namespace {

pl_config default_config() noexcept {
  pl_config c;
  std::memset(&c, 0, sizeof c);
  c.size = sizeof c;
  c.backend = PL_BACKEND_AUTO;
  c.mode = PL_MODE_PINNED;
  c.srs_placement = PL_SRS_AUTO;
  c.pinning = PL_PINNING_DEFAULT;
  c.prewarm = 1;
  c.check_witness = 1;
  c.queue_capacity = 1024;
  c.key_idle_timeout_ms = 300000;
  c.gpu_evaluate = 1;
  c.msm_tables = 1;
  return c;
}

/// The caller's fields that lie within its size, over the defaults.
pl_config effective(const pl_config* in) {
  pl_config c = default_config();
  if (in == nullptr) return c;
  check_struct_size(in, "config");
#define PL_TAKE(field) \
  if (PL_CAPI_HAS_FIELD(in, field)) c.field = in->field;
  PL_CONFIG_FIELDS(PL_TAKE)
#undef PL_TAKE
  return c;
}

// enum_field casts the C values to these enums: their orders are the ABI's.
static_assert(int(graph::Backend::automatic) == PL_BACKEND_AUTO &&
              int(graph::Backend::cpu) == PL_BACKEND_CPU && int(graph::Backend::cuda) == PL_BACKEND_CUDA);
static_assert(int(graph::Mode::pinned) == PL_MODE_PINNED && int(graph::Mode::baseline) == PL_MODE_BASELINE);
static_assert(int(graph::SrsPlacement::automatic) == PL_SRS_AUTO &&
              int(graph::SrsPlacement::device) == PL_SRS_VRAM &&
              int(graph::SrsPlacement::host) == PL_SRS_HOST);

template <class Enum>
Enum enum_field(std::int32_t value, std::int32_t last, const char* field) {
  if (value < 0 || value > last)
    throw_status(PL_ERR_INVALID_ARGUMENT, std::string("config->") + field + " = " + std::to_string(value) +
                                              " is not one of its values");
  return static_cast<Enum>(value);
}

std::optional<memory::PinningKind> pinning_of(std::int32_t value) {
  switch (value) {
    case PL_PINNING_DEFAULT:
      return std::nullopt;
    case PL_PINNING_HOST:
      return memory::PinningKind::host;
    case PL_PINNING_CUDA_REGISTER:
      return memory::PinningKind::cuda_host_register;
    case PL_PINNING_CUDA_ALLOC:
      return memory::PinningKind::cuda_host_alloc;
    default:
      throw_status(PL_ERR_INVALID_ARGUMENT,
                   "config->pinning = " + std::to_string(value) + " is not one of its values");
  }
}

}  // namespace

graph::Config to_graph_config(const pl_config* in) {
  const pl_config c = effective(in);
  graph::Config g;
  g.backend = enum_field<graph::Backend>(c.backend, PL_BACKEND_CUDA, "backend");
  g.mode = enum_field<graph::Mode>(c.mode, PL_MODE_BASELINE, "mode");
  if (c.num_gpus != 0) require(c.gpus, "config->gpus (with num_gpus > 0)");
  g.gpus.assign(c.gpus, c.gpus + c.num_gpus);
  if (c.host_budget_bytes != 0) g.host_budget = c.host_budget_bytes;
  if (c.vram_budget_bytes != 0) g.vram_budget = c.vram_budget_bytes;
  g.slots = c.slots;
  g.device_slots = c.device_slots;
  g.synthesis_concurrency = c.synthesis_concurrency;
  g.max_threads = c.max_threads;
  g.max_log_n = c.max_log_n;
  g.srs = enum_field<graph::SrsPlacement>(c.srs_placement, PL_SRS_HOST, "srs_placement");
  g.pinning = pinning_of(c.pinning);
  g.prewarm = c.prewarm != 0;
  g.verify = c.verify != 0;
  g.check_witness = c.check_witness != 0;
  g.in_order = c.in_order != 0;
  if (c.queue_capacity == 0)
    throw_status(
        PL_ERR_INVALID_ARGUMENT,
        "config->queue_capacity is 0: jobs waiting for a pinned slot need room (1 or more; 1024 is the "
        "default)");
  g.queue_capacity = c.queue_capacity;
  g.job_timeout = milliseconds_of(c.job_timeout_ms);
  g.key_idle_timeout = milliseconds_of(c.key_idle_timeout_ms);
  g.gpu_evaluate = c.gpu_evaluate != 0;
  g.msm_tables = c.msm_tables != 0;
  g.msm_table_bits = c.msm_table_bits;
  g.keys_take_turns = c.keys_take_turns != 0;
  return g;
}

}  // namespace proofline::capi

extern "C" PL_API pl_status pl_config_default(pl_config* config, size_t size) {
  using namespace proofline::capi;
  return guarded("pl_config_default", [&] {
    require(config, "config");
    if (size < sizeof(std::size_t) || size > sizeof(pl_config))
      throw_status(PL_ERR_STRUCT_SIZE, "size " + std::to_string(size) +
                                           " is not a size of pl_config (at most " +
                                           std::to_string(sizeof(pl_config)) + ")");
    const pl_config defaults = default_config();
    // Field by field, so that nothing past the caller's size is written.
    pl_config* out = config;
    out->size = size;
#define PL_PUT(field) \
  if (PL_CAPI_HAS_FIELD(out, field)) out->field = defaults.field;
    PL_CONFIG_FIELDS(PL_PUT)
#undef PL_PUT
    return PL_OK;
  });
}
