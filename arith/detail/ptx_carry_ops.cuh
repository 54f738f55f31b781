// The primitive carry-chain operations of the limb-generic device arithmetic (the `Ops` of
// mont_mul_limbs32.hpp and its neighbours) as PTX: .cc writes the carry flag, the c-forms read it. Device
// code only; a host test substitutes an emulation with an explicit carry flag to check the algorithms
// themselves.
#pragma once

#include <cstdint>

namespace proofline::detail {

struct PtxCarryOps {
#if defined(__CUDA_ARCH__)
  // clang-format off
  __device__ __forceinline__ void mul_lo(std::uint32_t& d, std::uint32_t a, std::uint32_t b) { asm("mul.lo.u32 %0, %1, %2;" : "=r"(d) : "r"(a), "r"(b)); }
  __device__ __forceinline__ void mul_hi(std::uint32_t& d, std::uint32_t a, std::uint32_t b) { asm("mul.hi.u32 %0, %1, %2;" : "=r"(d) : "r"(a), "r"(b)); }
  __device__ __forceinline__ void mad_lo_cc(std::uint32_t& d, std::uint32_t a, std::uint32_t b, std::uint32_t c) { asm volatile("mad.lo.cc.u32 %0, %1, %2, %3;" : "=r"(d) : "r"(a), "r"(b), "r"(c)); }
  __device__ __forceinline__ void madc_lo_cc(std::uint32_t& d, std::uint32_t a, std::uint32_t b, std::uint32_t c) { asm volatile("madc.lo.cc.u32 %0, %1, %2, %3;" : "=r"(d) : "r"(a), "r"(b), "r"(c)); }
  __device__ __forceinline__ void madc_hi_cc(std::uint32_t& d, std::uint32_t a, std::uint32_t b, std::uint32_t c) { asm volatile("madc.hi.cc.u32 %0, %1, %2, %3;" : "=r"(d) : "r"(a), "r"(b), "r"(c)); }
  __device__ __forceinline__ void madc_hi(std::uint32_t& d, std::uint32_t a, std::uint32_t b, std::uint32_t c) { asm volatile("madc.hi.u32 %0, %1, %2, %3;" : "=r"(d) : "r"(a), "r"(b), "r"(c)); }
  __device__ __forceinline__ void add_cc(std::uint32_t& d, std::uint32_t a, std::uint32_t b) { asm volatile("add.cc.u32 %0, %1, %2;" : "=r"(d) : "r"(a), "r"(b)); }
  __device__ __forceinline__ void addc_cc(std::uint32_t& d, std::uint32_t a, std::uint32_t b) { asm volatile("addc.cc.u32 %0, %1, %2;" : "=r"(d) : "r"(a), "r"(b)); }
  __device__ __forceinline__ void addc(std::uint32_t& d, std::uint32_t a, std::uint32_t b) { asm volatile("addc.u32 %0, %1, %2;" : "=r"(d) : "r"(a), "r"(b)); }
  __device__ __forceinline__ void sub_cc(std::uint32_t& d, std::uint32_t a, std::uint32_t b) { asm volatile("sub.cc.u32 %0, %1, %2;" : "=r"(d) : "r"(a), "r"(b)); }
  __device__ __forceinline__ void subc_cc(std::uint32_t& d, std::uint32_t a, std::uint32_t b) { asm volatile("subc.cc.u32 %0, %1, %2;" : "=r"(d) : "r"(a), "r"(b)); }
  __device__ __forceinline__ void subc(std::uint32_t& d, std::uint32_t a, std::uint32_t b) { asm volatile("subc.u32 %0, %1, %2;" : "=r"(d) : "r"(a), "r"(b)); }
  // clang-format on
#endif
};

}  // namespace proofline::detail
