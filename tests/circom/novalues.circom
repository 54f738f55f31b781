pragma circom 2.0.0;

// A main whose only input is an array of no values (its size a template parameter of 0): an input JSON sets
// no value, so setting the last value cannot be what runs the circuit. Its signals come from a hint (<--) and
// constants, none of them zero, so a witness of a circuit that never ran shows.
template NoValues(N) {
    signal input none[N];
    signal output out;
    signal hint;
    hint <-- 6;
    out <== hint * 7;
}

component main = NoValues(0);
