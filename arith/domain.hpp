// NTT evaluation domains over a curve's scalar field Fr and the two conventions for Groth16's H polynomial.
// Shared by the CPU algorithms (cpu/) and the CUDA kernels: no TBB, no host-only headers; a Domain is
// trivially copyable, so it can be passed to a kernel by value.
//
// The two conventions differ in three places, and a proving key works with exactly one of them:
//
//   generator7: 2^32-th root 7^((r-1)/2^32), coset shift g = 7; the H-query MSM takes the coefficients of
//               (A·B − C)/Z (7 NTTs).
//   snarkjs:    2^32-th root 5^((r-1)/2^32), coset shift ω_2n (the odd 2n-th roots); the H-query MSM takes
//               A·B − C on the coset, with no division by Z (6 NTTs).
//
// generator7 is arkworks', bellperson's and sppark's. snarkjs's zkey H points absorb Z, which is the constant
// −2 on the odd coset, so its prover neither divides nor interpolates.
#pragma once

#include <cstdint>

#include <proofline/arith/bigint.hpp>
#include <proofline/arith/bn254/fr.hpp>
#include <proofline/arith/config.hpp>
#include <proofline/arith/fr.hpp>

namespace proofline {

/// Which roots of unity, coset and H-polynomial output a proving key expects (table above).
enum class HConvention : std::uint8_t {
  generator7,  ///< arkworks / bellperson / sppark
  snarkjs,     ///< snarkjs / ffjavascript
};

/// Element orders of an NTT's input and output: N natural, R bit-reversed; the first letter is the input.
/// NR followed by RN (e.g. an inverse NTT, then a coset NTT) needs no bit-reversal pass.
enum class NttOrder : std::uint8_t { NN, NR, RN, RR };

enum class NttDirection : std::uint8_t {
  forward,  ///< coefficients -> evaluations
  inverse,  ///< evaluations -> coefficients (includes the 1/n factor)
};

/// NTT sizes 2^1 .. 2^max_ntt_log_size (BLS12-381's Fr has two-adicity 32, BN254's 28; 2^28 is the largest
/// domain we budget for on either curve).
inline constexpr unsigned max_ntt_log_size = 28;

/// What a scalar field contributes to NTT domains: its two-adicity and, per convention, the primitive
/// 2^two_adicity-th root of unity the roots of every domain are powers of. Specialised for each curve's Fr
/// below; a convention a curve does not have is refused by BasicDomain::make.
template <class F>
struct NttField;

template <>
struct NttField<Fr> {
  static constexpr unsigned two_adicity = fr_two_adicity;
  static constexpr bool has_convention(HConvention) { return true; }
  PL_HD_INLINE static constexpr Fr two_adic_root(HConvention convention) {
    // 7^t = 0x16a2a19edfe81f20d09b681922c813b4b63683508c2280b93829971f439f0d2b (arkworks
    // TWO_ADIC_ROOT_OF_UNITY)
    constexpr BigInt<4> root7{
        {0x3829971f439f0d2bULL, 0xb63683508c2280b9ULL, 0xd09b681922c813b4ULL, 0x16a2a19edfe81f20ULL}};
    // 5^t = 0x0212d79e5b416b6f0fd56dc8d168d6c0c4024ff270b3e0941b788f500b912f1f (ffjavascript Fr.w[32])
    constexpr BigInt<4> root5{
        {0x1b788f500b912f1fULL, 0xc4024ff270b3e094ULL, 0x0fd56dc8d168d6c0ULL, 0x0212d79e5b416b6fULL}};
    return Fr::from_canonical(convention == HConvention::generator7 ? root7 : root5);
  }
};

/// BN254 keys come from snarkjs (bn128) only: its root 5^t and the odd coset. generator7 names BLS12-381's
/// arkworks convention and has no BN254 counterpart here.
template <>
struct NttField<bn254::Fr> {
  static constexpr unsigned two_adicity = bn254::fr_two_adicity;
  static constexpr bool has_convention(HConvention convention) { return convention == HConvention::snarkjs; }
  PL_HD_INLINE static constexpr bn254::Fr two_adic_root(HConvention) {
    constexpr BigInt<4> root5 = bn254::fr_root_of_unity_canonical;
    return bn254::Fr::from_canonical(root5);
  }
};

/// The primitive 2^two_adicity-th root of unity of the convention (BLS12-381's Fr unless F says otherwise).
template <class F = Fr>
PL_HD_INLINE constexpr F two_adic_root(HConvention convention) {
  return NttField<F>::two_adic_root(convention);
}

/// A domain of size n = 2^k: its roots ω, ω⁻¹, 1/n and the coset of the convention, over the scalar field F.
template <class F>
class BasicDomain {
 public:
  using Scalar = F;

  /// Host only. Throws Error(invalid_argument) unless 1 <= log_size <= max_ntt_log_size and the convention
  /// is one the field has.
  static BasicDomain make(unsigned log_size, HConvention convention);

  PL_HD_INLINE unsigned log_size() const { return log_size_; }
  PL_HD_INLINE std::uint64_t size() const { return std::uint64_t{1} << log_size_; }
  PL_HD_INLINE HConvention convention() const { return convention_; }

  /// ω: the two-adic root raised to 2^(two_adicity − k), so ω has order exactly n and ω_n = ω_2n² for every
  /// n.
  PL_HD_INLINE const F& omega() const { return omega_; }
  PL_HD_INLINE const F& omega_inv() const { return omega_inv_; }
  /// 1/n.
  PL_HD_INLINE const F& size_inv() const { return size_inv_; }
  /// g: the coset is {g·ω^i}. generator7: 7; snarkjs: ω_2n (snarkjs's `inc`, g² = ω, g^n = −1).
  PL_HD_INLINE const F& shift() const { return shift_; }
  PL_HD_INLINE const F& shift_inv() const { return shift_inv_; }
  /// 1/Z on the coset: Z(X) = X^n − 1 is the constant g^n − 1 there (−2 for snarkjs).
  PL_HD_INLINE const F& vanishing_on_coset_inv() const { return vanishing_inv_; }

 private:
  BasicDomain() = default;

  F omega_{};
  F omega_inv_{};
  F size_inv_{};
  F shift_{};
  F shift_inv_{};
  F vanishing_inv_{};
  unsigned log_size_ = 0;
  HConvention convention_ = HConvention::generator7;
};

/// BLS12-381's domains.
using Domain = BasicDomain<Fr>;

extern template class BasicDomain<Fr>;
extern template class BasicDomain<bn254::Fr>;

namespace bn254 {
using Domain = BasicDomain<Fr>;
}  // namespace bn254

}  // namespace proofline
