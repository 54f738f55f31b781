pragma circom 2.0.0;

// A multiplication chain: c[0] = a, c[i+1] = c[i]^2 + b, out = c[N]. N constraints, nPublic = 2 (out, b).
template Chain(N) {
    signal input a;
    signal input b;
    signal output out;
    signal c[N + 1];
    c[0] <== a;
    for (var i = 0; i < N; i++) {
        c[i + 1] <== c[i] * c[i] + b;
    }
    out <== c[N];
}

component main {public [b]} = Chain(CHAIN_LENGTH);
