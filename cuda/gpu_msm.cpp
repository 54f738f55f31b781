#include <proofline/cuda/gpu_msm.hpp>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <string>
#include <utility>

#include <proofline/cuda/detail/msm_plan.hpp>
#include <proofline/util/error.hpp>

#if PROOFLINE_HAVE_CUDA
#include <cuda_runtime.h>

#include <proofline/cuda/check.hpp>
#include <proofline/cuda/kernels/detail/msm_launch.hpp>
#include <proofline/cuda/stream.hpp>
#endif

namespace proofline::cuda {

template <class C>
struct BasicMsmEngine<C>::Plan {
  MsmGroup group = MsmGroup::g1;
  std::size_t max_points = 0;
  MsmOptions options;
  int device = 0;
  detail::MsmLayout layout;
};

namespace {

template <class C>
std::size_t xyzz_bytes(MsmGroup group) {
  return group == MsmGroup::g1 ? sizeof(XyzzPoint<typename C::G1Params>)
                               : sizeof(XyzzPoint<typename C::G2Params>);
}
template <class C>
std::size_t jacobian_bytes(MsmGroup group) {
  return group == MsmGroup::g1 ? sizeof(typename C::G1Jacobian) : sizeof(typename C::G2Jacobian);
}

template <class C>
constexpr int scalar_bits = detail::kMsmScalarBits<typename C::Fr>;

#if PROOFLINE_HAVE_CUDA

template <class C>
std::uint32_t ones_blocks_per_sm(MsmGroup group) {
  return group == MsmGroup::g1 ? detail::kOnesBlocksPerSm<typename C::G1Params>
                               : detail::kOnesBlocksPerSm<typename C::G2Params>;
}

/// The arguments of one call in `scratch`'s layout; points or scalars may be null for the phases that do not
/// read them.
template <class Engine, class Curve>
detail::MsmArgs<Curve> msm_args(const Engine& engine, const detail::MsmLayout& layout,
                                const AffinePoint<Curve>* points, const typename Curve::Scalar* scalars,
                                std::size_t n, void* scratch) {
  auto* base = static_cast<std::byte*>(scratch);
  auto at = [&](std::size_t offset) { return base + offset; };
  detail::MsmArgs<Curve> a;
  a.n = static_cast<std::uint32_t>(n);
  a.window_bits = layout.window_bits;
  a.windows = layout.windows;
  a.slots_per_window = layout.slots_per_window;
  a.chunk = layout.chunk;
  a.chunk_threads = layout.chunk_threads;
  a.montgomery = engine.options().scalar_form == ScalarForm::montgomery;
  a.split = engine.options().split_zero_one;
  a.precomputed = layout.precomputed;
  a.scatter_passes_log = layout.scatter_passes_log;
  a.scalars = scalars;
  a.points = points;
  a.counters = reinterpret_cast<detail::MsmCounters*>(at(layout.counters));
  a.counts = reinterpret_cast<std::uint32_t*>(at(layout.counts));
  a.starts = reinterpret_cast<std::uint32_t*>(at(layout.starts));
  a.cursor = reinterpret_cast<std::uint32_t*>(at(layout.cursor));
  if (a.split) {
    a.rest_index = reinterpret_cast<std::uint32_t*>(at(layout.rest_index));
    a.ones_entry = reinterpret_cast<std::uint32_t*>(at(layout.ones_entry));
  }
  a.digits = reinterpret_cast<std::uint32_t*>(at(layout.digits));
  a.entries = reinterpret_cast<std::uint32_t*>(at(layout.entries));
  a.head_bucket = reinterpret_cast<std::uint32_t*>(at(layout.head_bucket));
  a.hot_list = reinterpret_cast<std::uint32_t*>(at(layout.hot_list));
  a.buckets = reinterpret_cast<XyzzPoint<Curve>*>(at(layout.buckets));
  a.head = reinterpret_cast<XyzzPoint<Curve>*>(at(layout.head));
  a.cont = reinterpret_cast<XyzzPoint<Curve>*>(at(layout.cont));
  return a;
}

template <class Engine>
void check_call(const Engine& engine, std::size_t n, const void* scratch) {
  if (n > engine.max_points()) {
    throw Error(Errc::invalid_argument, "MSM of " + std::to_string(n) + " points on an engine planned for " +
                                            std::to_string(engine.max_points()));
  }
  if (scratch == nullptr || reinterpret_cast<std::uintptr_t>(scratch) % 256 != 0) {
    throw Error(Errc::invalid_argument, "MSM scratch must be a 256-byte aligned device buffer");
  }
}

/// The scalar phases (split, digits, counting sort) of n scalars into scratch.
template <class Engine, class Curve>
void enqueue_sort_phase(const Engine& engine, const detail::MsmLayout& layout,
                        const typename Curve::Scalar* scalars, std::size_t n, void* scratch,
                        CUstream_st* stream) {
  if (n == 0) return;
  const detail::MsmArgs<Curve> a = msm_args<Engine, Curve>(engine, layout, nullptr, scalars, n, scratch);
  detail::launch_msm_sort(a, static_cast<std::byte*>(scratch) + layout.scan_temp, layout.scan_temp_bytes,
                          stream);
}

/// The point phases over the scalars sorted into scratch, and the copy of the result to `result`.
template <class Engine, class Curve>
void enqueue_point_phase(const Engine& engine, const detail::MsmLayout& layout,
                         const AffinePoint<Curve>* points, std::size_t n, JacobianPoint<Curve>* result,
                         void* scratch, CUstream_st* stream) {
  auto* result_slot =
      reinterpret_cast<JacobianPoint<Curve>*>(static_cast<std::byte*>(scratch) + layout.result);
  if (n == 0) {
    PL_CUDA_CHECK(cudaMemsetAsync(result_slot, 0, sizeof(JacobianPoint<Curve>), stream));
  } else {
    auto* base = static_cast<std::byte*>(scratch);
    // The fixups count hot buckets from zero; the scalar phase zeroed the counters, but the scalars of this
    // call may have been sorted for an earlier point set.
    PL_CUDA_CHECK(cudaMemsetAsync(base + layout.counters + offsetof(detail::MsmCounters, hot), 0,
                                  sizeof(std::uint32_t), stream));
    detail::MsmTail<Curve> tail;
    tail.args = msm_args<Engine, Curve>(engine, layout, points, nullptr, n, scratch);
    tail.layout = &layout;
    for (int k = 0; k < 4; ++k) tail.reduce[k] = reinterpret_cast<XyzzPoint<Curve>*>(base + layout.reduce[k]);
    if (tail.args.split) {
      tail.ones_partial = reinterpret_cast<XyzzPoint<Curve>*>(base + layout.ones_partial);
      tail.ones_total = reinterpret_cast<XyzzPoint<Curve>*>(base + layout.ones_total);
    }
    tail.result = result_slot;
    detail::launch_msm_tail(tail, stream);
  }
  PL_CUDA_CHECK(
      cudaMemcpyAsync(result, result_slot, sizeof(JacobianPoint<Curve>), cudaMemcpyDefault, stream));
}

template <class Engine, class Curve>
void enqueue(const Engine& engine, const detail::MsmLayout& layout, int device,
             const AffinePoint<Curve>* points, const typename Curve::Scalar* scalars, std::size_t n,
             JacobianPoint<Curve>* result, void* scratch, CUstream_st* stream) {
  check_call(engine, n, scratch);
  DeviceGuard guard(device);
  enqueue_sort_phase<Engine, Curve>(engine, layout, scalars, n, scratch, stream);
  enqueue_point_phase(engine, layout, points, n, result, scratch, stream);
}

template <class Engine, class Curve>
void enqueue_table(const Engine& engine, const detail::MsmLayout& layout, int device,
                   const AffinePoint<Curve>* points, std::size_t n, AffinePoint<Curve>* table, void* scratch,
                   CUstream_st* stream) {
  if (!layout.precomputed)
    throw Error(Errc::invalid_argument, "MSM table requested from an engine without precomputed windows");
  if (n == 0 || n > engine.max_points()) {
    throw Error(Errc::invalid_argument, "MSM table of " + std::to_string(n) +
                                            " points on an engine planned for " +
                                            std::to_string(engine.max_points()));
  }
  if (scratch == nullptr || reinterpret_cast<std::uintptr_t>(scratch) % 256 != 0) {
    throw Error(Errc::invalid_argument, "MSM scratch must be a 256-byte aligned device buffer");
  }
  DeviceGuard guard(device);
  detail::MsmTable<Curve> t;
  t.points = points;
  t.n = n;
  t.window_bits = layout.window_bits;
  t.windows = layout.windows;
  t.table = table;
  t.temp = static_cast<XyzzPoint<Curve>*>(scratch);
  t.temp_points = detail::msm_table_chunk(n);
  detail::launch_msm_table(t, stream);
}

/// The scalar phases alone (`points` only names the curve).
template <class Engine, class Curve>
void enqueue_sort_only(const Engine& engine, const detail::MsmLayout& layout, int device,
                       const AffinePoint<Curve>* points, const typename Curve::Scalar* scalars, std::size_t n,
                       void* scratch, CUstream_st* stream) {
  (void)points;
  check_call(engine, n, scratch);
  DeviceGuard guard(device);
  enqueue_sort_phase<Engine, Curve>(engine, layout, scalars, n, scratch, stream);
}

/// The point phases over scalars sorted before.
template <class Engine, class Curve>
void enqueue_sorted(const Engine& engine, const detail::MsmLayout& layout, int device,
                    const AffinePoint<Curve>* points, std::size_t n, JacobianPoint<Curve>* result,
                    void* scratch, CUstream_st* stream) {
  check_call(engine, n, scratch);
  DeviceGuard guard(device);
  enqueue_point_phase(engine, layout, points, n, result, scratch, stream);
}

#else

// Without CUDA every enqueue is refused (the engines still plan: their sizes are plain arithmetic).
[[noreturn]] void no_cuda() {
  throw Error(Errc::cuda, "GPU MSM: proofline was built without CUDA");
}
template <class... Args>
void enqueue(const Args&...) {
  no_cuda();
}
template <class... Args>
void enqueue_table(const Args&...) {
  no_cuda();
}
template <class... Args>
void enqueue_sort_only(const Args&...) {
  no_cuda();
}
template <class... Args>
void enqueue_sorted(const Args&...) {
  no_cuda();
}

#endif

/// Refuses a call for the other group's engine.
void require_group(MsmGroup have, MsmGroup wanted, const char* call) {
  if (have != wanted)
    throw Error(Errc::invalid_argument,
                std::string(call) + " on a " + (have == MsmGroup::g1 ? "G1" : "G2") + " MSM engine");
}

}  // namespace

template <class C>
BasicMsmEngine<C>::BasicMsmEngine(MsmGroup group, std::size_t max_points, const MsmOptions& options,
                                  int device)
    : plan_(std::make_unique<Plan>()) {
  if (max_points == 0 || max_points > detail::kMsmMaxPoints) {
    throw Error(Errc::invalid_argument, "MSM size " + std::to_string(max_points) + " is outside 1..2^28");
  }
  if (options.window_bits != 0 && (options.window_bits < 2 || options.window_bits > 22)) {
    throw Error(Errc::invalid_argument,
                "MSM window width " + std::to_string(options.window_bits) + " is outside 2..22 bits");
  }
  plan_->group = group;
  plan_->max_points = max_points;
  plan_->options = options;
  const std::size_t dense =
      options.expected_dense != 0 ? std::min(options.expected_dense, max_points) : max_points;
  const int window_bits = options.window_bits != 0
                              ? options.window_bits
                              : detail::msm_model_window_bits(dense, scalar_bits<C>, options.precomputed);
  if (options.precomputed &&
      static_cast<std::uint64_t>(detail::msm_windows(window_bits, scalar_bits<C>)) * max_points >
          detail::kIndexMask) {
    throw Error(Errc::invalid_argument, "MSM table of " + std::to_string(max_points) + " points in " +
                                            std::to_string(detail::msm_windows(window_bits, scalar_bits<C>)) +
                                            " windows exceeds 2^31 - 1 points");
  }
  std::uint32_t sms = 132;
  std::size_t scan_bytes = 0;
  const std::size_t slots =
      (options.precomputed ? std::size_t{1}
                           : static_cast<std::size_t>(detail::msm_windows(window_bits, scalar_bits<C>))) *
      ((std::size_t{1} << (window_bits - 1)) + 1);
#if PROOFLINE_HAVE_CUDA
  if (device < 0) PL_CUDA_CHECK(cudaGetDevice(&device));
  int count = 0;
  PL_CUDA_CHECK(cudaDeviceGetAttribute(&count, cudaDevAttrMultiProcessorCount, device));
  sms = static_cast<std::uint32_t>(count);
  {
    DeviceGuard guard(device);
    scan_bytes = detail::msm_scan_temp_bytes(slots + 1);
  }
  const std::uint32_t ones_blocks = sms * ones_blocks_per_sm<C>(group);
#else
  if (device < 0) device = 0;
  (void)slots;
  const std::uint32_t ones_blocks = sms * 2;
#endif
  plan_->device = device;
  // The scatter's passes and the accumulate chunks suit the scalars that reach the sort: with the split and
  // no expected count, half of them (a Groth16 witness sends fewer, a dense one all; more passes than suit
  // cost more than fewer, and chunks planned for all the points would leave a split call too few threads).
  const std::size_t scattered =
      options.split_zero_one && options.expected_dense == 0 ? (max_points + 1) / 2 : dense;
  plan_->layout =
      detail::msm_layout(max_points, window_bits, scalar_bits<C>, options.split_zero_one, options.precomputed,
                         xyzz_bytes<C>(group), jacobian_bytes<C>(group), ones_blocks, scan_bytes, scattered);
}

template <class C>
BasicMsmEngine<C>::~BasicMsmEngine() = default;
template <class C>
BasicMsmEngine<C>::BasicMsmEngine(BasicMsmEngine&&) noexcept = default;
template <class C>
BasicMsmEngine<C>& BasicMsmEngine<C>::operator=(BasicMsmEngine&&) noexcept = default;

template <class C>
MsmGroup BasicMsmEngine<C>::group() const noexcept {
  return plan_->group;
}
template <class C>
std::size_t BasicMsmEngine<C>::max_points() const noexcept {
  return plan_->max_points;
}
template <class C>
const MsmOptions& BasicMsmEngine<C>::options() const noexcept {
  return plan_->options;
}
template <class C>
int BasicMsmEngine<C>::window_bits() const noexcept {
  return plan_->layout.window_bits;
}
template <class C>
int BasicMsmEngine<C>::windows() const noexcept {
  return plan_->layout.windows;
}
template <class C>
std::size_t BasicMsmEngine<C>::scratch_bytes() const noexcept {
  return plan_->layout.total;
}

template <class C>
void BasicMsmEngine<C>::enqueue_msm_g1(const G1Affine* points, const Fr* scalars, std::size_t n,
                                       G1Jacobian* result, void* scratch, CUstream_st* stream) const {
  require_group(plan_->group, MsmGroup::g1, "enqueue_msm_g1");
  enqueue(*this, plan_->layout, plan_->device, points, scalars, n, result, scratch, stream);
}

template <class C>
void BasicMsmEngine<C>::enqueue_msm_g2(const G2Affine* points, const Fr* scalars, std::size_t n,
                                       G2Jacobian* result, void* scratch, CUstream_st* stream) const {
  require_group(plan_->group, MsmGroup::g2, "enqueue_msm_g2");
  enqueue(*this, plan_->layout, plan_->device, points, scalars, n, result, scratch, stream);
}

template <class C>
bool BasicMsmEngine<C>::shares_sort(const BasicMsmEngine& other) const noexcept {
  const detail::MsmLayout& a = plan_->layout;
  const detail::MsmLayout& b = other.plan_->layout;
  return plan_->device == other.plan_->device && plan_->max_points == other.plan_->max_points &&
         plan_->options.scalar_form == other.plan_->options.scalar_form &&
         plan_->options.split_zero_one == other.plan_->options.split_zero_one &&
         a.window_bits == b.window_bits && a.windows == b.windows && a.precomputed == b.precomputed &&
         a.slots_per_window == b.slots_per_window && a.chunk == b.chunk && a.counters == b.counters &&
         a.counts == b.counts && a.starts == b.starts && a.rest_index == b.rest_index &&
         a.ones_entry == b.ones_entry && a.entries == b.entries;
}

template <class C>
void BasicMsmEngine<C>::enqueue_sort(const Fr* scalars, std::size_t n, void* scratch,
                                     CUstream_st* stream) const {
  enqueue_sort_only(*this, plan_->layout, plan_->device, static_cast<const G1Affine*>(nullptr), scalars, n,
                    scratch, stream);
}

template <class C>
void BasicMsmEngine<C>::enqueue_sorted_msm_g1(const G1Affine* points, std::size_t n, G1Jacobian* result,
                                              void* scratch, CUstream_st* stream) const {
  require_group(plan_->group, MsmGroup::g1, "enqueue_sorted_msm_g1");
  enqueue_sorted(*this, plan_->layout, plan_->device, points, n, result, scratch, stream);
}

template <class C>
void BasicMsmEngine<C>::enqueue_sorted_msm_g2(const G2Affine* points, std::size_t n, G2Jacobian* result,
                                              void* scratch, CUstream_st* stream) const {
  require_group(plan_->group, MsmGroup::g2, "enqueue_sorted_msm_g2");
  enqueue_sorted(*this, plan_->layout, plan_->device, points, n, result, scratch, stream);
}

template <class C>
std::size_t BasicMsmEngine<C>::table_points(std::size_t n) const noexcept {
  return static_cast<std::size_t>(plan_->layout.windows) * n;
}

template <class C>
std::size_t BasicMsmEngine<C>::table_scratch_bytes(std::size_t n) const noexcept {
  return detail::msm_table_chunk(n) * xyzz_bytes<C>(plan_->group);
}

template <class C>
void BasicMsmEngine<C>::enqueue_table_g1(const G1Affine* points, std::size_t n, G1Affine* table,
                                         void* scratch, CUstream_st* stream) const {
  require_group(plan_->group, MsmGroup::g1, "enqueue_table_g1");
  enqueue_table(*this, plan_->layout, plan_->device, points, n, table, scratch, stream);
}

template <class C>
void BasicMsmEngine<C>::enqueue_table_g2(const G2Affine* points, std::size_t n, G2Affine* table,
                                         void* scratch, CUstream_st* stream) const {
  require_group(plan_->group, MsmGroup::g2, "enqueue_table_g2");
  enqueue_table(*this, plan_->layout, plan_->device, points, n, table, scratch, stream);
}

template class BasicMsmEngine<Bls12_381>;
template class BasicMsmEngine<Bn254>;

}  // namespace proofline::cuda
