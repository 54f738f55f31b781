pragma circom 2.0.0;
include "../node_modules/circomlib/circuits/sha256/sha256.circom";
template S(N) { signal input in[N]; signal output out[256]; component s = Sha256(N); s.in <== in; out <== s.out; }
component main = S(24);
