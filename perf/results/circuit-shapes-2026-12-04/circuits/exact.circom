pragma circom 2.0.0;
// nConstraints + nPublic + 1 = 2^k exactly (chain of EXACT multiplications, 1 public output, 1 public input):
// the domain is full, the first size that has no spare row.
template Exact(n) {
    signal input a;
    signal input b;
    signal output out;
    signal t[n];
    t[0] <== a * b;
    for (var i = 1; i < n; i++) {
        t[i] <== t[i-1] * a;
    }
    out <== t[n-1];
}
component main {public [a]} = Exact(EXACT);
