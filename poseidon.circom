pragma circom 2.0.0;
include "../node_modules/circomlib/circuits/poseidon.circom";
template H() { signal input x[2]; signal output h; component p = Poseidon(2); p.inputs <== x; h <== p.out; }
component main = H();
