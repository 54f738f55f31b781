// Witness callbacks: the caller's fill function writes into the job's pinned slot through pl_witness_write,
// which checks the bounds (graph::CheckedSpan's extent) and the values before anything is written.
#include <proofline/capi/detail/witness_target.hpp>

#include <type_traits>

#include <proofline/capi/detail/boundary.hpp>
#include <proofline/capi/detail/scalars.hpp>

namespace proofline::capi {

namespace {

constexpr std::uint64_t target_magic = 0x706c'7769'746e'6573;  // "plwitnes"

struct Target {
  std::uint64_t magic = target_magic;
  const graph::WitnessTarget* target = nullptr;
  bool fills_abc = false;
  std::string failure;
};

Target& target_of(pl_witness_target* handle) {
  auto* target = reinterpret_cast<Target*>(handle);
  if (target == nullptr || target->magic != target_magic)
    throw_status(PL_ERR_INVALID_HANDLE,
                 "target is not the one this witness callback was given (it is valid "
                 "only during the callback)");
  return *target;
}

/// The slot's vectors in the field of F: BLS12-381's views or BN254's (only the key's curve's are set).
template <class F>
const graph::CheckedSpan<F>& view(const graph::WitnessTarget& t, std::int32_t vector) {
  if constexpr (std::is_same_v<F, Fr>)
    return vector == PL_VECTOR_Z ? t.z : vector == PL_VECTOR_A ? t.a : vector == PL_VECTOR_B ? t.b : t.c;
  else
    return vector == PL_VECTOR_Z   ? t.bn254_z
           : vector == PL_VECTOR_A ? t.bn254_a
           : vector == PL_VECTOR_B ? t.bn254_b
                                   : t.bn254_c;
}

/// Refuses what a callback may not write: an unknown vector, or a, b, c when the pipeline evaluates them.
void check_vector(const Target& t, std::int32_t vector) {
  if (vector < PL_VECTOR_Z || vector > PL_VECTOR_C)
    throw_status(PL_ERR_INVALID_ARGUMENT, "vector = " + std::to_string(vector) + " is not a pl_vector");
  if (vector != PL_VECTOR_Z && !t.fills_abc)
    throw_status(PL_ERR_INVALID_ARGUMENT,
                 "this job's callback fills z only (PL_FILLS_WITNESS): the pipeline evaluates a, b and c");
}

std::size_t vector_size(const Target& t, std::int32_t vector) {
  if (t.target->curve == CurveId::bn254) return view<bn254::Fr>(*t.target, vector).size();
  return view<Fr>(*t.target, vector).size();
}

const char* vector_name(std::int32_t vector) {
  return vector == PL_VECTOR_Z ? "z" : vector == PL_VECTOR_A ? "a" : vector == PL_VECTOR_B ? "b" : "c";
}

}  // namespace

void run_witness_fn(pl_witness_fn fill, void* user_data, bool fills_abc, const graph::WitnessTarget& target) {
  Target view{target_magic, &target, fills_abc, {}};
  pl_status status = PL_OK;
  {
    CallbackScope scope;
    try {
      status = fill(reinterpret_cast<pl_witness_target*>(&view), user_data);
    } catch (...) {
      view.magic = 0;
      throw Error(Errc::internal, "the witness callback threw an exception");
    }
  }
  view.magic = 0;
  if (status != PL_OK)
    throw Error(errc_of(status), view.failure.empty()
                                     ? std::string("the witness callback returned ") + pl_status_name(status)
                                     : view.failure);
}

}  // namespace proofline::capi

using namespace proofline;
using namespace proofline::capi;

extern "C" {

PL_API pl_status pl_witness_sizes(const pl_witness_target* target, uint64_t* z_length, uint64_t* abc_length,
                                  uint64_t* num_public) {
  return guarded("pl_witness_sizes", [&] {
    const Target& t = target_of(const_cast<pl_witness_target*>(target));
    if (z_length != nullptr) *z_length = vector_size(t, PL_VECTOR_Z);
    if (abc_length != nullptr) *abc_length = t.fills_abc ? vector_size(t, PL_VECTOR_A) : 0;
    if (num_public != nullptr) *num_public = t.target->num_public;
    return PL_OK;
  });
}

PL_API pl_status pl_witness_write(pl_witness_target* target, int32_t vector, size_t offset,
                                  const uint8_t* scalars, size_t count) {
  return guarded("pl_witness_write", [&] {
    const Target& t = target_of(target);
    check_vector(t, vector);
    if (count == 0) return PL_OK;
    require(scalars, "scalars");
    const std::size_t size = vector_size(t, vector);
    if (offset > size || count > size - offset)
      throw_status(PL_ERR_INVALID_ARGUMENT, std::string(vector_name(vector)) + "[" + std::to_string(offset) +
                                                ", " + std::to_string(offset) + " + " +
                                                std::to_string(count) + ") is out of range (size " +
                                                std::to_string(size) + ")");
    const auto write = [&]<class F>(const graph::CheckedSpan<F>& span) {
      const std::size_t bad = first_non_canonical<F>(scalars, count);
      if (bad != count)
        throw_status(PL_ERR_BAD_INPUT, "scalar " + std::to_string(bad) + " (" + vector_name(vector) + "[" +
                                           std::to_string(offset + bad) + "]) is not below r");
      scalars_to_fr(scalars, span.unchecked().subspan(offset, count));
    };
    if (t.target->curve == CurveId::bn254)
      write(view<bn254::Fr>(*t.target, vector));
    else
      write(view<Fr>(*t.target, vector));
    return PL_OK;
  });
}

PL_API pl_status pl_witness_fail(pl_witness_target* target, const char* message) {
  return guarded("pl_witness_fail", [&] {
    Target& t = target_of(target);
    t.failure = message == nullptr ? "the witness callback failed" : message;
    return PL_OK;
  });
}

}  // extern "C"
