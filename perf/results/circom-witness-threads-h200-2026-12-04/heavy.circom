pragma circom 2.0.0;

// A witness-heavy round: decompose the state into bits (as SHA/Keccak circuits do), mix them, recompose.
template Bits(n) {
    signal input in;
    signal output out[n];
    var acc = 0;
    var pow = 1;
    for (var i = 0; i < n; i++) {
        out[i] <-- (in >> i) & 1;
        out[i] * (out[i] - 1) === 0;
        acc += out[i] * pow;
        pow = pow + pow;
    }
    acc === in;
}

template Round(n) {
    signal input s;
    signal input k;
    signal output out;
    component bits = Bits(n);
    bits.in <== s;
    signal x[n];
    var acc = 0;
    var pow = 1;
    for (var i = 0; i < n; i++) {
        // x = bit XOR bit-of-rotation
        x[i] <== bits.out[i] + bits.out[(i + 7) % n] - 2 * bits.out[i] * bits.out[(i + 7) % n];
        acc += x[i] * pow;
        pow = pow + pow;
    }
    signal t;
    t <== acc + k;
    out <== t;
}

template Heavy(rounds, n) {
    signal input x;
    signal input k;
    signal output y;
    component r[rounds];
    signal s[rounds + 1];
    s[0] <== x;
    for (var i = 0; i < rounds; i++) {
        r[i] = Round(n);
        r[i].s <== s[i];
        r[i].k <== k;
        s[i + 1] <== r[i].out;
    }
    y <== s[rounds];
}

component main {public [k]} = Heavy(250, 128);
