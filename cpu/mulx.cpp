// Runtime choice of the mulx/adcx/adox field multiplication (detail/mont_mul_x86.hpp) for the CPU MSM and
// NTT.
#include <cstdlib>
#include <cstring>

#if defined(__x86_64__)
#include <cpuid.h>
#endif

#include <proofline/cpu/detail/mont_mul_x86.hpp>
#include <proofline/cpu/msm.hpp>

namespace proofline::cpu {

namespace detail {

bool cpu_has_mulx_adx() {
#if PL_MULX_ASM
  static const bool has = [] {
    unsigned eax = 0, ebx = 0, ecx = 0, edx = 0;
    if (!__get_cpuid_count(7, 0, &eax, &ebx, &ecx, &edx)) return false;
    constexpr unsigned kBmi2 = 1u << 8, kAdx = 1u << 19;  // CPUID leaf 7, subleaf 0, EBX
    return (ebx & kBmi2) && (ebx & kAdx);
  }();
  return has;
#else
  return false;
#endif
}

bool carry_instructions_enabled() {
  static const bool use = [] {
    const char* setting = std::getenv("PROOFLINE_CPU_MULX");
    if (setting && std::strcmp(setting, "0") == 0) return false;
    return cpu_has_mulx_adx();
  }();
  return use;
}

}  // namespace detail

bool msm_uses_carry_instructions() {
  return detail::carry_instructions_enabled();
}

}  // namespace proofline::cpu
