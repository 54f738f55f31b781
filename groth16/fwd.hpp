// Declarations of the Groth16 types for headers that only pass them around (graph/, devices/): each type is a
// template over the curve (arith/curves.hpp), and the plain names are BLS12-381's.
#pragma once

namespace proofline {
struct Bls12_381;
struct Bn254;
}  // namespace proofline

namespace proofline::groth16 {

template <class Curve>
struct BasicProvingKey;
template <class Curve>
struct BasicVerifyingKey;
template <class Curve>
struct BasicConstraintSystem;
template <class Curve>
struct BasicProof;

using ProvingKey = BasicProvingKey<Bls12_381>;
using VerifyingKey = BasicVerifyingKey<Bls12_381>;
using ConstraintSystem = BasicConstraintSystem<Bls12_381>;
using Proof = BasicProof<Bls12_381>;

}  // namespace proofline::groth16
