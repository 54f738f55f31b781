pragma circom 2.0.0;

// A Merkle membership proof of depth 8 over circomlib's Poseidon, the shape of the circuits most circom users
// prove (Semaphore, Tornado-style mixers): Poseidon's constant tables and its many subcomponents, MultiMux1 to
// order each level's pair, a boolean check on the path's sides, and a nullifier. The root is an output, so any
// leaf and path make a witness; a side that is not 0 or 1 fails the check with circom's assert message.
include "circomlib/circuits/poseidon.circom";
include "circomlib/circuits/mux1.circom";

template Membership(depth) {
    signal input leaf;
    signal input path[depth];
    signal input side[depth];
    signal output root;
    signal output nullifier;

    component hash[depth];
    component order[depth];
    signal level[depth + 1];
    level[0] <== leaf;
    for (var i = 0; i < depth; i++) {
        side[i] * (1 - side[i]) === 0;
        order[i] = MultiMux1(2);
        order[i].c[0][0] <== level[i];
        order[i].c[0][1] <== path[i];
        order[i].c[1][0] <== path[i];
        order[i].c[1][1] <== level[i];
        order[i].s <== side[i];
        hash[i] = Poseidon(2);
        hash[i].inputs[0] <== order[i].out[0];
        hash[i].inputs[1] <== order[i].out[1];
        level[i + 1] <== hash[i].out;
    }
    root <== level[depth];

    component spent = Poseidon(1);
    spent.inputs[0] <== leaf;
    nullifier <== spent.out;
}

component main = Membership(8);
