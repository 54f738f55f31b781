// Compiler glue that lets the same arithmetic source compile as host C++ (g++) and as CUDA device code
// (nvcc).
#pragma once

#if defined(__CUDACC__)
#define PL_HD __host__ __device__
#define PL_HD_INLINE __host__ __device__ __forceinline__
#elif defined(PROOFLINE_ARITH_INLINE_HINTS)
// Test code: the compiler decides. Forcing every field and curve operation into every caller made one G2 test
// file cost 160 CPU-seconds to compile (13 s this way); the library's hot loops keep the forced form below.
#define PL_HD
#define PL_HD_INLINE inline
#else
#define PL_HD
#define PL_HD_INLINE inline __attribute__((always_inline))
#endif

#if defined(__CUDACC__)
#define PL_UNROLL _Pragma("unroll")
#else
#define PL_UNROLL _Pragma("GCC unroll 16")
#endif
