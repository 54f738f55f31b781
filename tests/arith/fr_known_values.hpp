// Published values for Fr (hex, canonical form), checked by the field and NTT tests against the code and
// against GMP: the modulus r, the odd part t of r − 1, the Montgomery constants, and the roots of unity of
// both H conventions. The generator-7 values as zkcrypto/bls12_381 (scalar.rs) and arkworks (bls12_381 fr.rs)
// publish them; snarkjs (ffjavascript) takes its roots from the smallest non-residue, 5.
#pragma once

#include <cstdint>

namespace proofline::test {

inline constexpr const char* kR = "0x73eda753299d7d483339d80809a1d80553bda402fffe5bfeffffffff00000001";
inline constexpr const char* kFrT = "0x73eda753299d7d483339d80809a1d80553bda402fffe5bfeffffffff";
inline constexpr const char* kFrMontR = "0x1824b159acc5056f998c4fefecbc4ff55884b7fa0003480200000001fffffffe";
inline constexpr const char* kFrMontR2 = "0x0748d9d99f59ff1105d314967254398f2b6cedcb87925c23c999e990f3f29c6d";
inline constexpr std::uint64_t kFrInv = 0xfffffffeffffffff;
inline constexpr const char* kOmega7 = "0x16a2a19edfe81f20d09b681922c813b4b63683508c2280b93829971f439f0d2b";
inline constexpr const char* kOmega7Mont =
    "0x5bf3adda19e9b27b0af53ae352a31e645b1b4c801819d7ecb9b58d8c5f0e466a";
inline constexpr const char* kOmega7Inv =
    "0x0538a6f66e19c653ed4f2f74a35d01686f67d4a2b566f8330fb4d6e13cf19a78";
inline constexpr const char* kOmega7Pow2_20 =
    "0x03e1c54bcb947035a57a6e07cb98de4a2f69e02d265e09d9fece7e0e39898d4b";
inline constexpr const char* kOmega7Pow2_24 =
    "0x291cf6d68823e6876e0bcd91ee76273072cf6a8029b7d7bc92cf4deb77bd779c";
inline constexpr const char* kOmega7Pow2_27 =
    "0x23397a9300f8f98bece8ea224f31d25db94f1101b1d7a628e2d0a7869f0319ed";
inline constexpr const char* kOmega7Pow2_28 =
    "0x52dd465e2f09425699e276b571905a7d6558e9e3f6ac7b41d7b688830a4f2089";
inline constexpr const char* kSevenInv = "0x211f5460e751918257c7624b7077624aaa362edc49241a48db6db6db24924925";
inline constexpr const char* kOmega5 = "0x0212d79e5b416b6f0fd56dc8d168d6c0c4024ff270b3e0941b788f500b912f1f";
inline constexpr const char* kSevenPow2_27Minus1 =  // 7^(2^27) − 1: the coset vanishing polynomial at 2^27
    "0x2a98b3de1e8d05396c576a792ed0dd3cafe4f76895ae53bfade986863f8b7152";

}  // namespace proofline::test
