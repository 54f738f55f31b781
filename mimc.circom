pragma circom 2.0.0;
include "../node_modules/circomlib/circuits/mimcsponge.circom";
template M() { signal input a; signal input b; signal input k; signal output h; component m = MiMCSponge(2, 220, 1); m.ins[0] <== a; m.ins[1] <== b; m.k <== k; h <== m.outs[0]; }
component main {public [k]} = M();
