pragma circom 2.0.0;

// circomlib's comparators (bit decompositions through Num2Bits): ok = 1 when lo <= x < hi, for 64-bit values.
// Meaningful on BLS12-381 (its 255-bit field holds the 65-bit differences LessThan decomposes).
include "circomlib/circuits/comparators.circom";

template InRange(n) {
    signal input x;
    signal input lo;
    signal input hi;
    signal output ok;
    component ge = GreaterEqThan(n);
    ge.in[0] <== x;
    ge.in[1] <== lo;
    component lt = LessThan(n);
    lt.in[0] <== x;
    lt.in[1] <== hi;
    ok <== ge.out * lt.out;
}

component main {public [lo, hi]} = InRange(64);
