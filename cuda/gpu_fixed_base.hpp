// Fixed-base scalar multiplication on the GPU for setup: out[i] = [s_i]·B in affine form for one base B and
// many scalars (synthetic proving keys: every key point is a multiple of a generator). A window table of B
// (8-bit signed digits, 32 windows of 128 multiples, affine) lives on the device; each scalar costs at most
// 32 mixed additions, and the results become affine on the GPU with one inversion per 32 points.
//
// Scalars are the group's Fr elements (Montgomery form, as everywhere in our code). Instantiated for the G1
// and G2 of BLS12-381 and of BN254. Without the CUDA backend every function throws Error(Errc::cuda).
#pragma once

#include <cstddef>
#include <memory>
#include <span>

#include <proofline/arith/curves.hpp>

struct CUstream_st;

namespace proofline::cuda {

template <class Curve>
class FixedBaseMul {
 public:
  using Affine = AffinePoint<Curve>;
  using Scalar = typename Curve::Scalar;

  /// Builds B's window table on `device` (-1: the current one); returns when it is ready.
  explicit FixedBaseMul(const Affine& base, int device = -1);
  ~FixedBaseMul();
  FixedBaseMul(FixedBaseMul&&) noexcept;
  FixedBaseMul& operator=(FixedBaseMul&&) noexcept;
  FixedBaseMul(const FixedBaseMul&) = delete;
  FixedBaseMul& operator=(const FixedBaseMul&) = delete;

  /// Device scratch bytes that enqueue() needs for n scalars.
  static std::size_t scratch_bytes(std::size_t n);

  /// Device memory in and out (scratch: scratch_bytes(n), 256-byte aligned); enqueue-only on `stream`.
  void enqueue(const Scalar* scalars, std::size_t n, Affine* out, void* scratch, CUstream_st* stream) const;

  /// Host memory in and out (any size; spans of equal length, else Error(invalid_argument)): chunks go
  /// through pinned staging buffers, the copies of one chunk overlapping the GPU work of the next. Blocks
  /// until out is written.
  void run(std::span<const Scalar> scalars, std::span<Affine> out) const;

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

extern template class FixedBaseMul<G1Params>;
extern template class FixedBaseMul<G2Params>;
extern template class FixedBaseMul<bn254::G1Params>;
extern template class FixedBaseMul<bn254::G2Params>;

/// One-shot forms of FixedBaseMul::run (the table is built per call; keep a FixedBaseMul for repeated calls).
void fixed_base_mul_g1(const G1Affine& base, std::span<const Fr> scalars, std::span<G1Affine> out,
                       int device = -1);
void fixed_base_mul_g2(const G2Affine& base, std::span<const Fr> scalars, std::span<G2Affine> out,
                       int device = -1);
void fixed_base_mul_g1(const bn254::G1Affine& base, std::span<const bn254::Fr> scalars,
                       std::span<bn254::G1Affine> out, int device = -1);
void fixed_base_mul_g2(const bn254::G2Affine& base, std::span<const bn254::Fr> scalars,
                       std::span<bn254::G2Affine> out, int device = -1);

}  // namespace proofline::cuda
