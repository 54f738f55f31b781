// The keys' SRS in one GPU's memory: uploaded (with their MSM tables, built there, and the constraint system
// where the GPU evaluates a, b, c) as entries of a memory::Residency over the VRAM budget, so least recently
// used idle keys give way to one that needs the room; and the staging buffers of keys streamed from host
// memory instead.
#include <proofline/devices/gpu_device.hpp>

#include <algorithm>
#include <chrono>
#include <string>
#include <type_traits>

#include <proofline/devices/detail/gpu_internals.hpp>
#include <proofline/groth16/constraint_system.hpp>
#include <proofline/util/error.hpp>
#include <proofline/util/logging.hpp>
#include <proofline/util/size.hpp>

namespace proofline::devices {

using namespace detail;  // what the devices sources share

namespace {

template <class C>
void check_key_fits(const GpuDevice& g, const std::string& name, const groth16::BasicProvingKey<C>& pk) {
  if (pk.log_domain_size > g.log_n_cap || pk.num_variables > g.z_cap)
    throw Error(Errc::invalid_argument,
                "add_key: key '" + name + "' has 2^" + std::to_string(pk.log_domain_size) + " rows and " +
                    std::to_string(pk.num_variables) + " variables, but the device slots were sized for 2^" +
                    std::to_string(g.log_n_cap) + " rows and " + std::to_string(g.z_cap) +
                    " variables by the first key; size them for the largest key with max_log_n (Config, "
                    "pl_config) or the fleet worker's --max-log-rows");
}

template <class C>
DeviceCsrMatrix<typename C::Fr> upload_matrix(const groth16::BasicCsrMatrix<C>& m) {
  DeviceCsrMatrix<typename C::Fr> out;
  upload(out.row_offsets, m.row_offsets);
  upload(out.columns, m.columns);
  upload(out.values, m.values);
  return out;
}

/// The key's points in this GPU's memory, in its curve's layout (the queries of `table_level` as MSM tables,
/// built here), and its constraint system if given.
template <class C>
std::shared_ptr<DeviceKey<C>> upload_key(GpuDevice& g, const std::string& name,
                                         const groth16::BasicProvingKey<C>& pk,
                                         const groth16::BasicConstraintSystem<C>* cs, unsigned table_level) {
  auto resident = std::make_shared<DeviceKey<C>>();
  resident->device = g.lane.device;
  const CurveEngines<C>& e = g.engines<C>();
  if (!e.table_dense_g1) table_level = 0;  // no device slots yet: no table engines either
  std::size_t table_scratch = 0;
  for_each_query(
      resident.get(), pk, [&](TableQuery query, auto* buffer, const auto& host, std::size_t padding) {
        const std::size_t n = padding + host.size();
        const bool tabled = table_level_has(table_level, query) && n != 0;
        if (!tabled && padding == 0) return upload(*buffer, host);
        using Point = std::remove_cvref_t<decltype(host[0])>;
        *buffer = cuda::DeviceBuffer<Point>(tabled ? e.table_engine(query).table_points(n) : n);
        PL_CUDA_CHECK(cudaMemset(buffer->data(), 0, padding * sizeof(Point)));  // all-zero bytes: infinity
        if (!host.empty())
          PL_CUDA_CHECK(
              cudaMemcpy(buffer->data() + padding, host.data(), host.size_bytes(), cudaMemcpyHostToDevice));
        if (!tabled) return;
        const cuda::BasicMsmEngine<C>& engine = e.table_engine(query);
        resident->tabled[static_cast<unsigned>(query)] = true;
        resident->table_bytes += (engine.table_points(n) - n) * sizeof(Point);
        table_scratch = std::max(table_scratch, engine.table_scratch_bytes(n));
      });
  if (table_scratch != 0) {
    // The tables are built from the uploaded points, in place (their first block).
    const auto begin = std::chrono::steady_clock::now();
    cuda::DeviceBuffer<std::byte> temp(table_scratch);
    cuda::Stream stream;
    std::string built;
    for_each_query(
        resident.get(), pk, [&](TableQuery query, auto* buffer, const auto& host, std::size_t padding) {
          if (!resident->has_table(query)) return;
          const cuda::BasicMsmEngine<C>& engine = e.table_engine(query);
          const std::size_t n = padding + host.size();
          if constexpr (std::is_same_v<std::remove_cvref_t<decltype(host[0])>, typename C::G1Affine>) {
            engine.enqueue_table_g1(buffer->data(), n, buffer->data(), temp.data(), stream.get());
          } else {
            engine.enqueue_table_g2(buffer->data(), n, buffer->data(), temp.data(), stream.get());
          }
          built += std::string(built.empty() ? "" : ", ") + table_query_name(query) + " (" +
                   std::to_string(engine.windows()) + " windows of " + std::to_string(engine.window_bits()) +
                   " bits)";
        });
    stream.synchronize();
    resident->usage = g.table_usage;
    resident->usage->tables +=
        static_cast<unsigned>(std::count(resident->tabled.begin(), resident->tabled.end(), true));
    resident->usage->bytes += resident->table_bytes;
    PL_LOG_INFO("{}: MSM tables of key '{}' ({}) built in {:.2f} s: {}", gpu_name(g.lane), name,
                format_size(resident->table_bytes),
                std::chrono::duration<double>(std::chrono::steady_clock::now() - begin).count(), built);
  }
  if (cs != nullptr) {
    DeviceR1cs<typename C::Fr>& r1cs = resident->r1cs.emplace();
    r1cs.rows = cs->num_constraints();
    r1cs.a = upload_matrix(cs->a);
    r1cs.b = upload_matrix(cs->b);
    if (cs->c) r1cs.c = upload_matrix(*cs->c);
  }
  return resident;
}

/// The constraint system of `key`'s curve C to upload with its SRS, or nullptr.
template <class C>
const groth16::BasicConstraintSystem<C>* constraint_system_of(const GpuKey& key) {
  if (!key.cs) return nullptr;
  return *std::get_if<const groth16::BasicConstraintSystem<C>*>(&*key.cs);
}

}  // namespace

void check_key_fits_device(const GpuLane& lane, const GpuKey& key) {
  std::visit([&](const auto* pk) { check_key_fits(*lane.resources, key.name, *pk); }, key.pk);
}

std::optional<memory::ResidentHandle> find_device_key(GpuLane& lane, const GpuKey& key) {
  if (!lane.resources) return std::nullopt;
  return device_of(lane).keys->find(key.resident_name);
}

bool device_key_resident(const GpuLane& lane, const GpuKey& key) {
  return lane.resources && lane.resources->keys->contains(key.resident_name);
}

std::uint64_t device_key_vram_bytes(GpuLane& lane, const GpuKey& key) {
  return device_key_bytes(key) +
         std::visit([&](const auto* pk) { return msm_table_bytes(device_of(lane), *pk, key.table_level); },
                    key.pk);
}

memory::ResidentHandle acquire_device_key(GpuLane& lane, const GpuKey& key,
                                          std::optional<std::chrono::milliseconds> patience,
                                          bool evict_idle_keys) {
  GpuDevice& g = device_of(lane);
  memory::ReserveOptions options;
  if (patience) options.deadline = memory::Clock::now() + *patience;
  options.evict = evict_idle_keys;
  const std::uint64_t bytes = device_key_vram_bytes(lane, key);
  try {
    return g.keys->acquire(
        key.resident_name, bytes,
        [&](const std::string&) {
          cuda::DeviceGuard guard(lane.device);
          auto resident = std::visit(
              [&]<class C>(const groth16::BasicProvingKey<C>* pk) -> std::shared_ptr<void> {
                return upload_key(g, key.name, *pk, constraint_system_of<C>(key), key.table_level);
              },
              key.pk);
          PL_LOG_INFO("{}: SRS of key '{}' resident ({})", gpu_name(lane), key.name, format_size(bytes));
          return memory::LoadedRegion{std::move(resident), 0};
        },
        options);
  } catch (const Error& e) {
    if (e.code() != Errc::timeout) throw;
    throw Error(Errc::out_of_budget,
                gpu_name(lane) + ": no VRAM for the SRS of key '" + key.name + "' (" + format_size(bytes) +
                    ") within " + std::to_string(patience ? patience->count() : 0) + " ms: " + e.what());
  }
}

bool evict_device_key(GpuLane& lane, const GpuKey& key, std::chrono::steady_clock::time_point deadline) {
  if (!lane.resources) return true;
  memory::Residency& keys = *device_of(lane).keys;
  return keys.evict(key.resident_name, deadline) || !keys.contains(key.resident_name);
}

void enable_srs_streaming(GpuLane& lane) {
  GpuDevice& g = device_of(lane);
  std::lock_guard lock(g.point_stream_mutex);
  if (g.point_stream) return;
  const std::uint64_t buffer = g.options.srs_stream_buffer;
  const std::uint64_t bytes = srs_staging_bytes(g.options);
  auto charge = g.vram.try_reserve(bytes);
  if (!charge)
    throw Error(Errc::out_of_budget, gpu_name(lane) + ": the SRS staging buffers need " + format_size(bytes) +
                                         ", the VRAM budget has " + format_size(g.vram.available()));
  cuda::DeviceGuard guard(lane.device);
  g.point_stream = std::make_unique<cuda::MsmPointStream>(buffer, lane.device);
  g.point_stream_charge = std::move(*charge);
  PL_LOG_INFO("{}: streams SRS from host memory through 2 x {} of staging", gpu_name(lane),
              format_size(buffer));
}

bool srs_streaming(const GpuLane& lane) {
  if (!lane.resources) return false;
  std::lock_guard lock(lane.resources->point_stream_mutex);
  return lane.resources->point_stream != nullptr;
}
}  // namespace proofline::devices
