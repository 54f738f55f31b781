// Native Montgomery multiplication and reduction for a circom wasm generator, included at the end of the C
// file wasm2c wrote (circuit.c), whose static functions it sees. circom's wasm field library computes these
// with 32-bit limbs in 64-bit wasm arithmetic, every limb a bounds-checked load or store of the module's
// memory; profiling puts most of a witness's time in them (Fr_F1m_mul in the circuit, Fr_F1m_fromMontgomery
// in getWitness, once per value). Where proofline found their definitions (PROOFLINE_NATIVE_FR is 1), they
// were renamed ..._wasm and the functions below take their place: the same result in the module's memory,
// from four 64-bit limbs. They are used only once proofline_native_fr_setup has checked them against the
// module's own on edge and pseudo-random operands; otherwise (or where the field is not 8 words of 32 bits)
// every call goes to the module's functions.
//
// Why the results are the same, bit for bit: both compute S = (a*b + m*q) / 2^256 (for the reduction, b = 1)
// with the m in [0, 2^256) that makes the numerator divisible by 2^256, which is unique, whichever limb size
// builds it; S < 2^256 + q. circom's Fr_F1m_mul then subtracts q, modulo 2^256, when S >= 2^256 and otherwise
// when S >= q; its reduction (S <= q there) subtracts q when S >= q. The functions below do the same.
// circom's functions also leave intermediate values in the field library's own scratch memory, which its
// functions write before they read; these do not.
//
// The module's memory is read and written as little-endian bytes (wasm_shim.cpp refuses to build on a
// big-endian host, where wasm2c reverses it); each operand's bounds are checked before it is read or written,
// and an access out of bounds traps as the module's own would.

#if PROOFLINE_NATIVE_FR

static struct {
  int on;   /* set once by proofline_native_fr_setup, before any instance computes */
  u64 q[4]; /* the prime */
  u64 qinv; /* -q^-1 modulo 2^64 */
} proofline_fr;

typedef unsigned __int128 proofline_u128;

static inline const u8* proofline_fr_at(Z_circuit_instance_t* instance, u32 address) {
  if ((u64)address + 32 > instance->w2c_memory.size) wasm_rt_trap(WASM_RT_TRAP_OOB);
  return instance->w2c_memory.data + address;
}

/* r = S - q modulo 2^256 when `carry` or S >= q, else S (S = carry * 2^256 + t). */
static inline void proofline_fr_final(u64 t[4], u64 carry, const u64 q[4]) {
  int ge = carry != 0;
  if (!ge) {
    ge = 1;
    for (int i = 3; i >= 0; --i)
      if (t[i] != q[i]) {
        ge = t[i] > q[i];
        break;
      }
  }
  if (!ge) return;
  u64 borrow = 0;
  for (int i = 0; i < 4; ++i) {
    const proofline_u128 d = (proofline_u128)t[i] - q[i] - borrow;
    t[i] = (u64)d;
    borrow = (u64)(d >> 64) & 1;
  }
}

/* (hi, lo) = a * b + c + d, which fits 128 bits. */
#define PROOFLINE_FR_MAC(hi, lo, a, b, c, d)                         \
  do {                                                               \
    const proofline_u128 p_ = (proofline_u128)(a) * (b) + (c) + (d); \
    (lo) = (u64)p_;                                                  \
    (hi) = (u64)(p_ >> 64);                                          \
  } while (0)

/* One step of the reduction: t (t0..t4) += m * q with m making t0 zero, then t /= 2^64. */
#define PROOFLINE_FR_REDUCE_STEP(t0, t1, t2, t3, t4)          \
  do {                                                        \
    const u64 m_ = t0 * proofline_fr.qinv;                    \
    u64 c_, low_;                                             \
    PROOFLINE_FR_MAC(c_, low_, m_, proofline_fr.q[0], t0, 0); \
    (void)low_;                                               \
    PROOFLINE_FR_MAC(c_, t0, m_, proofline_fr.q[1], t1, c_);  \
    PROOFLINE_FR_MAC(c_, t1, m_, proofline_fr.q[2], t2, c_);  \
    PROOFLINE_FR_MAC(c_, t2, m_, proofline_fr.q[3], t3, c_);  \
    const proofline_u128 s_ = (proofline_u128)t4 + c_;        \
    t3 = (u64)s_;                                             \
    t4 = (u64)(s_ >> 64);                                     \
  } while (0)

/* One step of the multiplication: t (t0..t5) += a * b, then reduced as above (t5 into t4). */
#define PROOFLINE_FR_MUL_STEP(b, t0, t1, t2, t3, t4, t5) \
  do {                                                   \
    u64 c_;                                              \
    PROOFLINE_FR_MAC(c_, t0, a[0], b, t0, 0);            \
    PROOFLINE_FR_MAC(c_, t1, a[1], b, t1, c_);           \
    PROOFLINE_FR_MAC(c_, t2, a[2], b, t2, c_);           \
    PROOFLINE_FR_MAC(c_, t3, a[3], b, t3, c_);           \
    const proofline_u128 s_ = (proofline_u128)t4 + c_;   \
    t4 = (u64)s_;                                        \
    t5 = (u64)(s_ >> 64);                                \
    PROOFLINE_FR_REDUCE_STEP(t0, t1, t2, t3, t4);        \
    t4 += t5;                                            \
  } while (0)

/* S = (a * b + m * q) / 2^256 into t (low 256 bits) and the returned carry, by coarsely integrated operand
   scanning; any a, b below 2^256. */
static inline u64 proofline_fr_mont(u64 t[4], const u64 a[4], const u64 b[4]) {
  u64 t0 = 0, t1 = 0, t2 = 0, t3 = 0, t4 = 0, t5 = 0;
  PROOFLINE_FR_MUL_STEP(b[0], t0, t1, t2, t3, t4, t5);
  PROOFLINE_FR_MUL_STEP(b[1], t0, t1, t2, t3, t4, t5);
  PROOFLINE_FR_MUL_STEP(b[2], t0, t1, t2, t3, t4, t5);
  PROOFLINE_FR_MUL_STEP(b[3], t0, t1, t2, t3, t4, t5);
  t[0] = t0;
  t[1] = t1;
  t[2] = t2;
  t[3] = t3;
  return t4;
}

/* S = (a + m * q) / 2^256 into t, its carry returned (0: S <= q): proofline_fr_mont with b = 1. */
static inline u64 proofline_fr_reduce(u64 t[4], const u64 a[4]) {
  u64 t0 = a[0], t1 = a[1], t2 = a[2], t3 = a[3], t4 = 0;
  PROOFLINE_FR_REDUCE_STEP(t0, t1, t2, t3, t4);
  PROOFLINE_FR_REDUCE_STEP(t0, t1, t2, t3, t4);
  PROOFLINE_FR_REDUCE_STEP(t0, t1, t2, t3, t4);
  PROOFLINE_FR_REDUCE_STEP(t0, t1, t2, t3, t4);
  t[0] = t0;
  t[1] = t1;
  t[2] = t2;
  t[3] = t3;
  return t4;
}

/* The four 64-bit limbs at `bytes`, each read on its own: the module's code has just written them as words of
   8 bytes or fewer, which a wider load could not take from the store buffer (a stall of each value). */
static inline void proofline_fr_load(u64 limbs[4], const u8* bytes) {
  for (int i = 0; i < 4; ++i) {
    u64 limb;
    wasm_rt_memcpy(&limb, bytes + 8 * i, 8);
    wasm_asm("" : "+r"(limb));
    limbs[i] = limb;
  }
}

/* Fr_F1m_mul(x, y, r), natively. */
static void proofline_fr_mul(Z_circuit_instance_t* instance, u32 x, u32 y, u32 r) {
  u64 a[4], b[4], t[4];
  proofline_fr_load(a, proofline_fr_at(instance, x));
  proofline_fr_load(b, proofline_fr_at(instance, y));
  u8* out = (u8*)proofline_fr_at(instance, r);
  const u64 carry = proofline_fr_mont(t, a, b);
  proofline_fr_final(t, carry, proofline_fr.q);
  wasm_rt_memcpy(out, t, 32);
}

/* Fr_F1m_fromMontgomery(x, r), natively. */
static void proofline_fr_from_montgomery(Z_circuit_instance_t* instance, u32 x, u32 r) {
  u64 a[4], t[4];
  proofline_fr_load(a, proofline_fr_at(instance, x));
  u8* out = (u8*)proofline_fr_at(instance, r);
  const u64 carry = proofline_fr_reduce(t, a);
  proofline_fr_final(t, carry, proofline_fr.q);
  wasm_rt_memcpy(out, t, 32);
}

static void w2c_Fr_F1m_mul(Z_circuit_instance_t* instance, u32 x, u32 y, u32 r) {
  if (proofline_fr.on)
    proofline_fr_mul(instance, x, y, r);
  else
    w2c_Fr_F1m_mul_wasm(instance, x, y, r);
}

static void w2c_Fr_F1m_fromMontgomery(Z_circuit_instance_t* instance, u32 x, u32 r) {
  if (proofline_fr.on)
    proofline_fr_from_montgomery(instance, x, r);
  else
    w2c_Fr_F1m_fromMontgomery_wasm(instance, x, r);
}

/* The next of a fixed pseudo-random sequence (xorshift64*). */
static u64 proofline_fr_random(u64* state) {
  *state ^= *state >> 12;
  *state ^= *state << 25;
  *state ^= *state >> 27;
  return *state * 0x2545F4914F6CDD1DULL;
}

/* Whether the native functions give the module's own results, on `instance` (a fresh one, whose memory this
   overwrites), for operands below q, at q and above, and with the result over an operand. */
static int proofline_fr_agrees(Z_circuit_instance_t* instance) {
  wasm_rt_memory_t* memory = &instance->w2c_memory;
  if (memory->size < 65536) return 0;
  const u32 ax = (u32)(memory->size - 160), ay = ax + 32, wasm = ax + 64, native = ax + 96;
  u64 operands[12][4] = {{0, 0, 0, 0}, {1, 0, 0, 0}, {2, 0, 0, 0}};
  u64 q1[4], borrow = 1;
  for (int i = 0; i < 4; ++i) {
    q1[i] = proofline_fr.q[i] - borrow;
    borrow = borrow && proofline_fr.q[i] == 0;
  }
  wasm_rt_memcpy(operands[3], q1, 32);                /* q - 1 */
  wasm_rt_memcpy(operands[4], proofline_fr.q, 32);    /* q */
  for (int i = 0; i < 4; ++i) operands[5][i] = ~0ULL; /* 2^256 - 1 */
  u64 state = 0x9E3779B97F4A7C15ULL;
  for (int k = 6; k < 12; ++k)
    for (int i = 0; i < 4; ++i) operands[k][i] = proofline_fr_random(&state);
  for (int k = 6; k < 10; ++k) operands[k][3] %= proofline_fr.q[3] ? proofline_fr.q[3] : 1; /* below q */
  for (int i = 0; i < 12; ++i) {
    for (int j = 0; j < 12; ++j) {
      for (int alias = 0; alias < 2; ++alias) {
        const u32 out_wasm = alias ? ax : wasm, out_native = alias ? ax : native;
        u8 got_wasm[32], got_native[32];
        wasm_rt_memcpy(memory->data + ax, operands[i], 32);
        wasm_rt_memcpy(memory->data + ay, operands[j], 32);
        w2c_Fr_F1m_mul_wasm(instance, ax, ay, out_wasm);
        wasm_rt_memcpy(got_wasm, memory->data + out_wasm, 32);
        wasm_rt_memcpy(memory->data + ax, operands[i], 32);
        proofline_fr_mul(instance, ax, ay, out_native);
        wasm_rt_memcpy(got_native, memory->data + out_native, 32);
        if (memcmp(got_wasm, got_native, 32) != 0) return 0;
        if (j > 0) continue;
        wasm_rt_memcpy(memory->data + ax, operands[i], 32);
        w2c_Fr_F1m_fromMontgomery_wasm(instance, ax, out_wasm);
        wasm_rt_memcpy(got_wasm, memory->data + out_wasm, 32);
        wasm_rt_memcpy(memory->data + ax, operands[i], 32);
        proofline_fr_from_montgomery(instance, ax, out_native);
        wasm_rt_memcpy(got_native, memory->data + out_native, 32);
        if (memcmp(got_wasm, got_native, 32) != 0) return 0;
      }
    }
  }
  return 1;
}

#endif

/* Checks the native functions against the module's on `instance` (a fresh instance, used up by the check) and
   turns them on when they agree; returns whether they are on. Called once, before any instance computes. */
int proofline_native_fr_setup(Z_circuit_instance_t* instance) {
#if PROOFLINE_NATIVE_FR
  if (w2c_getFieldNumLen32(instance) != 8) return 0;
  w2c_getRawPrime(instance);
  const u32 shared = w2c_getSharedRWMemoryStart(instance);
  if ((u64)shared + 32 > instance->w2c_memory.size) return 0;
  wasm_rt_memcpy(proofline_fr.q, instance->w2c_memory.data + shared, 32);
  if ((proofline_fr.q[0] & 1) == 0 || proofline_fr.q[3] == 0) return 0;
  u64 inverse = 1; /* q^-1 modulo 2^64 by Newton's iteration, doubling the correct bits each step */
  for (int i = 0; i < 6; ++i) inverse *= 2 - proofline_fr.q[0] * inverse;
  proofline_fr.qinv = 0 - inverse;
  proofline_fr.on = proofline_fr_agrees(instance);
  return proofline_fr.on;
#else
  (void)instance;
  return 0;
#endif
}
