#include <proofline/cuda/gpu_ntt.hpp>

#include <array>
#include <string>
#include <utility>
#include <vector>

#include <proofline/cuda/detail/ntt_plan.hpp>
#include <proofline/util/error.hpp>

#if PROOFLINE_HAVE_CUDA
#include <cuda_runtime.h>

#include <proofline/cuda/check.hpp>
#include <proofline/cuda/device_buffer.hpp>
#include <proofline/cuda/kernels/detail/ntt_launch.hpp>
#include <proofline/cuda/stream.hpp>
#endif

namespace proofline::cuda {

#if PROOFLINE_HAVE_CUDA

template <class F>
struct BasicNttEngine<F>::Impl {
  int device = 0;
  NttEngineOptions options;
  std::vector<DeviceBuffer<F>> buffers;
  std::size_t bytes = 0;
  std::array<std::array<detail::SizeTableView<F>, BasicNttEngine::max_log_n + 1>, 2> views{};
  /// The one-block H's tables for domains of 2^1 .. 2^9 rows (vectors left null), per convention.
  std::array<std::array<detail::SmallHArgs<F>, detail::kSmallHMaxLogN + 1>, 2> small_h{};

  const F* upload(const std::vector<F>& host) {
    if (host.empty()) return nullptr;
    DeviceBuffer<F> buffer(host.size());
    PL_CUDA_CHECK(cudaMemcpy(buffer.data(), host.data(), buffer.bytes(), cudaMemcpyHostToDevice));
    bytes += buffer.bytes();
    const F* pointer = buffer.data();
    buffers.push_back(std::move(buffer));
    return pointer;
  }

  /// Fills both directions' top diagonal of one size on the GPU (once per size and convention).
  void build_top_diagonal(const NttSize& size) {
    detail::SizeTableView<F>& v =
        views[size.convention == HConvention::generator7 ? 0 : 1][static_cast<std::size_t>(size.log_n)];
    if (v.d_top[0] != nullptr) return;
    const unsigned k = static_cast<unsigned>(v.split.front());
    const unsigned lo_bits = static_cast<unsigned>(size.log_n) - k;
    for (int d = 0; d < 2; ++d) {
      DeviceBuffer<F> table(std::size_t{1} << size.log_n);
      detail::launch_diagonal_table(table.data(), v.root_hi[d], v.root_lo[d], lo_bits, k, nullptr);
      bytes += table.bytes();
      v.d_top[d] = table.data();
      buffers.push_back(std::move(table));
    }
  }

  /// Fills H's full coset tables of one size on the GPU (once per size and convention): the up table, and
  /// generator7's down table.
  void build_h_coset_tables(const NttSize& size) {
    const bool generator7 = size.convention == HConvention::generator7;
    detail::SizeTableView<F>& v = views[generator7 ? 0 : 1][static_cast<std::size_t>(size.log_n)];
    if (v.h_up != nullptr) return;
    const auto fill = [&](const F* hi, const F* lo) {
      DeviceBuffer<F> table(std::size_t{1} << size.log_n);
      detail::launch_power_table(table.data(), hi, lo, static_cast<unsigned>(size.log_n), nullptr);
      bytes += table.bytes();
      const F* pointer = table.data();
      buffers.push_back(std::move(table));
      return pointer;
    };
    v.h_up = fill(v.hi_h_a, v.coset_lo[0]);
    if (generator7) v.h_down = fill(v.hi_h_down, v.coset_lo[1]);
  }

  const detail::SizeTableView<F>& view(const Domain& domain) const {
    const int log_n = static_cast<int>(domain.log_size());
    if (log_n < BasicNttEngine::min_log_n || log_n > options.max_log_n)
      throw Error(Errc::invalid_argument,
                  "GPU NTT: size 2^" + std::to_string(log_n) + " is outside the engine's 2^" +
                      std::to_string(BasicNttEngine::min_log_n) + "..2^" + std::to_string(options.max_log_n));
    return views[domain.convention() == HConvention::generator7 ? 0 : 1][static_cast<std::size_t>(log_n)];
  }

  void run(const std::vector<detail::Launch<F>>& launches, CUstream_st* stream) const {
    const DeviceGuard guard(device);
    for (const detail::Launch<F>& launch : launches) {
      if (launch.is_pass)
        detail::launch_ntt_pass(launch.pass, stream);
      else
        detail::launch_bit_reverse(launch.bitrev, stream);
    }
  }
};

namespace {

/// Throws Error(Errc::invalid_argument) for a full table (`what`) outside 2^lowest..2^highest or of an H
/// convention F's domains do not have.
template <class F>
void check_full_table_sizes(const std::vector<NttSize>& sizes, const char* what, int lowest, int highest) {
  for (const NttSize& size : sizes) {
    if (size.log_n < lowest || size.log_n > highest)
      throw Error(Errc::invalid_argument, std::string("NttEngine: ") + what + " size 2^" +
                                              std::to_string(size.log_n) + " is outside 2^" +
                                              std::to_string(lowest) + "..2^" + std::to_string(highest));
    if (!NttField<F>::has_convention(size.convention))
      throw Error(Errc::invalid_argument, std::string("NttEngine: a ") + what +
                                              " of an H convention this curve's domains do not have "
                                              "(BN254: snarkjs only)");
  }
}

}  // namespace

template <class F>
BasicNttEngine<F>::BasicNttEngine(int device, NttEngineOptions options) : impl_(std::make_unique<Impl>()) {
  if (options.max_log_n < min_log_n || options.max_log_n > max_log_n)
    throw Error(Errc::invalid_argument, "NttEngine: max_log_n " + std::to_string(options.max_log_n) +
                                            " is outside " + std::to_string(min_log_n) + ".." +
                                            std::to_string(max_log_n));
  if (options.tile_log < 8 || options.tile_log > detail::kMaxTileBits)
    throw Error(Errc::invalid_argument, "NttEngine: tile_log " + std::to_string(options.tile_log) +
                                            " is outside 8.." + std::to_string(detail::kMaxTileBits));
  check_full_table_sizes<F>(options.top_diagonals, "top diagonal", min_log_n + 1, options.max_log_n);
  check_full_table_sizes<F>(options.h_coset_tables, "H coset table", min_log_n, options.max_log_n);
  impl_->device = device;
  impl_->options = options;
  const DeviceGuard guard(device);
  detail::configure_ntt_kernels<F>();
  for (const HConvention convention : {HConvention::generator7, HConvention::snarkjs}) {
    if (!NttField<F>::has_convention(convention)) continue;
    const int c = convention == HConvention::generator7 ? 0 : 1;
    const detail::HostRootTables<F> roots = detail::build_root_tables<F>(convention);
    const F* root_hi[2] = {impl_->upload(roots.hi[0]), impl_->upload(roots.hi[1])};
    const F* root_lo[2] = {impl_->upload(roots.lo[0]), impl_->upload(roots.lo[1])};
    const F* full_coset_lo[2] = {};  // generator7's g = 7 is the same for every size: one copy of 2^14 powers
    static_assert(detail::kSmallHMaxLogN + 1 == min_log_n,
                  "the one-block H covers every size below the passes'");
    for (int log_n = 1; log_n < min_log_n; ++log_n) {
      const detail::HostSmallHTables<F> host =
          detail::build_small_h_tables(Domain::make(static_cast<unsigned>(log_n), convention));
      detail::SmallHArgs<F>& s = impl_->small_h[static_cast<std::size_t>(c)][static_cast<std::size_t>(log_n)];
      s.log_n = static_cast<std::uint8_t>(log_n);
      s.generator7 = convention == HConvention::generator7;
      s.roots[0] = impl_->upload(host.roots[0]);
      s.roots[1] = impl_->upload(host.roots[1]);
      s.up = impl_->upload(host.up);
      s.down = impl_->upload(host.down);
    }
    for (int log_n = min_log_n; log_n <= options.max_log_n; ++log_n) {
      const Domain domain = Domain::make(static_cast<unsigned>(log_n), convention);
      const detail::HostSizeTables<F> host = detail::build_size_tables(domain);
      detail::SizeTableView<F>& v =
          impl_->views[static_cast<std::size_t>(c)][static_cast<std::size_t>(log_n)];
      v.log_n = log_n;
      v.split = host.split;
      v.d_full_log = host.d_full_log;
      v.inv_scale = host.inv_scale;
      for (int d = 0; d < 2; ++d) {
        v.root_hi[d] = root_hi[d];
        v.root_lo[d] = root_lo[d];
        v.d_full[d] = impl_->upload(host.d_full[d]);
        const bool shareable = convention == HConvention::generator7 &&
                               host.coset_lo[d].size() == (std::size_t{1} << detail::kPowerLoBits);
        if (shareable && full_coset_lo[d] != nullptr) {
          v.coset_lo[d] = full_coset_lo[d];
        } else {
          v.coset_lo[d] = impl_->upload(host.coset_lo[d]);
          if (shareable) full_coset_lo[d] = v.coset_lo[d];
        }
      }
      v.hi_coset_fwd = impl_->upload(host.hi_coset_fwd);
      v.hi_coset_inv = impl_->upload(host.hi_coset_inv);
      v.hi_h_a = impl_->upload(host.hi_h_a);
      v.hi_h_bc = impl_->upload(host.hi_h_bc);
      v.h_c_scale = host.h_c_scale;
      v.hi_h_down = impl_->upload(host.hi_h_down);
    }
  }
  for (const NttSize& size : options.top_diagonals) impl_->build_top_diagonal(size);
  for (const NttSize& size : options.h_coset_tables) impl_->build_h_coset_tables(size);
  PL_CUDA_CHECK(cudaDeviceSynchronize());
}

template <class F>
BasicNttEngine<F>::~BasicNttEngine() = default;
template <class F>
BasicNttEngine<F>::BasicNttEngine(BasicNttEngine&&) noexcept = default;
template <class F>
BasicNttEngine<F>& BasicNttEngine<F>::operator=(BasicNttEngine&&) noexcept = default;

template <class F>
int BasicNttEngine<F>::device() const noexcept {
  return impl_ ? impl_->device : -1;
}
template <class F>
std::size_t BasicNttEngine<F>::table_bytes() const noexcept {
  return impl_ ? impl_->bytes : 0;
}

template <class F>
void BasicNttEngine<F>::enqueue_ntt(Fr* data, const Domain& domain, NttDirection direction, NttOrder order,
                                    bool coset, CUstream_st* stream) const {
  if (data == nullptr) throw Error(Errc::invalid_argument, "GPU NTT: null data pointer");
  const detail::SizeTableView<F>& view = impl_->view(domain);
  impl_->run(detail::plan_ntt(view, data, direction, order, coset, impl_->options.tile_log), stream);
}

template <class F>
void BasicNttEngine<F>::enqueue_h(Fr* a, Fr* b, Fr* c, const Domain& domain, CUstream_st* stream) const {
  if (a == nullptr || b == nullptr || c == nullptr) throw Error(Errc::invalid_argument, "GPU H: null vector");
  if (a == b || a == c || b == c) throw Error(Errc::invalid_argument, "GPU H: a, b and c must be distinct");
  if (domain.log_size() < static_cast<unsigned>(min_log_n)) {
    const DeviceGuard guard(impl_->device);
    detail::SmallHArgs<F> args =
        impl_->small_h[domain.convention() == HConvention::generator7 ? 0 : 1][domain.log_size()];
    args.vectors[0] = a;
    args.vectors[1] = b;
    args.vectors[2] = c;
    detail::launch_small_h(args, stream);
    return;
  }
  const detail::SizeTableView<F>& view = impl_->view(domain);
  impl_->run(detail::plan_h(view, domain.convention(), a, b, c, impl_->options.tile_log), stream);
}

#else  // without CUDA: the class links, and says why it cannot run

template <class F>
struct BasicNttEngine<F>::Impl {};

template <class F>
BasicNttEngine<F>::BasicNttEngine(int /*device*/, NttEngineOptions /*options*/) {
  throw Error(Errc::cuda, "NttEngine: proofline was built without CUDA");
}
template <class F>
BasicNttEngine<F>::~BasicNttEngine() = default;
template <class F>
BasicNttEngine<F>::BasicNttEngine(BasicNttEngine&&) noexcept = default;
template <class F>
BasicNttEngine<F>& BasicNttEngine<F>::operator=(BasicNttEngine&&) noexcept = default;
template <class F>
int BasicNttEngine<F>::device() const noexcept {
  return -1;
}
template <class F>
std::size_t BasicNttEngine<F>::table_bytes() const noexcept {
  return 0;
}
template <class F>
void BasicNttEngine<F>::enqueue_ntt(Fr*, const Domain&, NttDirection, NttOrder, bool, CUstream_st*) const {
  throw Error(Errc::cuda, "GPU NTT: proofline was built without CUDA");
}
template <class F>
void BasicNttEngine<F>::enqueue_h(Fr*, Fr*, Fr*, const Domain&, CUstream_st*) const {
  throw Error(Errc::cuda, "GPU H: proofline was built without CUDA");
}

#endif

template class BasicNttEngine<Fr>;
template class BasicNttEngine<bn254::Fr>;

}  // namespace proofline::cuda
