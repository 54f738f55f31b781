pragma circom 2.0.0;
// Linear constraints kept (compiled with --O0): rows whose A or B is a constant, a constant term in C.
template Linear() {
    signal input a;
    signal input b;
    signal output s;
    signal output p;
    s <== 3 * a + 5 * b + 7;
    p <== a * b;
    a + b === s - 2 * a - 4 * b - 7;
}
component main {public [b]} = Linear();
