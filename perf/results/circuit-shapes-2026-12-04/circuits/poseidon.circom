pragma circom 2.0.0;
include "circomlib/circuits/poseidon.circom";
// circomlib's Poseidon over BN254 (the hash most circom circuits use), a preimage proof.
template Preimage() {
    signal input x[2];
    signal output h;
    component p = Poseidon(2);
    p.inputs[0] <== x[0];
    p.inputs[1] <== x[1];
    h <== p.out;
}
component main = Preimage();
