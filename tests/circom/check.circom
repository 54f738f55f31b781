pragma circom 2.0.0;

// A multiplication chain with a constraint the input can violate (c === b * b) and a circom assert (a != 0):
// what proofline's in-process witness tests prove, and fail on purpose.
template Check(N) {
    signal input a;
    signal input b;
    signal input c;
    signal output out;
    signal x[N + 1];
    assert(a != 0);
    x[0] <== a;
    for (var i = 0; i < N; i++) {
        x[i + 1] <== x[i] * x[i] + b;
    }
    c === b * b;
    out <== x[N];
}

component main {public [b]} = Check(60);
