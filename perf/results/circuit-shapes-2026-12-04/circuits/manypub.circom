pragma circom 2.0.0;
// Many public inputs and outputs, few constraints: the public part dominates the domain.
template ManyPublic(n) {
    signal input x[n];
    signal input k;
    signal output y[n];
    for (var i = 0; i < n; i++) {
        y[i] <== x[i] * k;
    }
}
component main {public [x]} = ManyPublic(150);
