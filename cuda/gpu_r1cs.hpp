// R1CS evaluation on the GPU: a = A·z, b = B·z and c = C·z (c = a∘b for a key without its C matrix, as
// snarkjs's .zkey files are) from a witness already in device memory. A job's host work is then its witness
// alone and only z crosses PCIe (a quarter of the bytes of z, a, b, c at a domain of the witness's size).
// With a row check, the smallest row where a_i·b_i != c_i is recorded on the device, so a witness that does
// not satisfy the circuit is still found before its proof is reported.
//
// Enqueue-only, like the NTT and MSM engines: nothing synchronises and nothing is allocated. One thread a
// row: the rows of a Groth16 circuit are short (a few terms), and their work is a gather of z.
#pragma once

#include <cstdint>

#include <proofline/arith/bn254/fr.hpp>
#include <proofline/arith/fr.hpp>

struct CUstream_st;

namespace proofline::cuda {

/// One CSR matrix in device memory, laid out as groth16::BasicCsrMatrix: row i's entries are
/// [row_offsets[i], row_offsets[i + 1]) of columns and values (Montgomery form).
template <class F>
struct DeviceCsr {
  const std::uint64_t* row_offsets = nullptr;
  const std::uint32_t* columns = nullptr;
  const F* values = nullptr;
};

/// What a row check leaves in *first_bad_row when every row holds.
inline constexpr std::uint64_t kNoBadRow = ~std::uint64_t{0};

/// Enqueues, on `stream`, a[i] = (A·z)_i, b[i] = (B·z)_i and c[i] = (C·z)_i for i < rows (c[i] = a[i]·b[i]
/// when c_matrix is null) and zeros for rows <= i < n. With first_bad_row (and a C matrix),
/// *first_bad_row = the smallest i < rows with a[i]·b[i] != c[i], or kNoBadRow. Every pointer is device
/// memory; a, b, c hold n values. F: BLS12-381's Fr or BN254's. Throws Error(invalid_argument) for rows > n,
/// Error(cuda) when a launch fails; without the CUDA backend, Error(cuda).
template <class F>
void enqueue_evaluate_r1cs(const DeviceCsr<F>& a_matrix, const DeviceCsr<F>& b_matrix,
                           const DeviceCsr<F>* c_matrix, std::uint64_t rows, std::uint64_t n, const F* z,
                           F* a, F* b, F* c, std::uint64_t* first_bad_row, CUstream_st* stream);

}  // namespace proofline::cuda
