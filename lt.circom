pragma circom 2.0.0;
include "../node_modules/circomlib/circuits/comparators.circom";
include "../node_modules/circomlib/circuits/bitify.circom";
template R() { signal input a; signal input b; signal output lt; signal output bits[64];
  component c = LessThan(64); c.in[0] <== a; c.in[1] <== b; lt <== c.out;
  component n = Num2Bits(64); n.in <== a; bits <== n.out; }
component main = R();
