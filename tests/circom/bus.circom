pragma circom 2.2.0;

// Buses as main's inputs (circom 2.2): circom's input map holds each bus whole (its values in order) and each of
// its fields, so an input gives a bus either as one array of values (as snarkjs reads it) or field by field
// (nested objects, as circom's own binary reads them, or qualified names "s.a.x"), never both ways. And an input
// array of no values (its size a template parameter of 0), which an input may leave out, as snarkjs and circom
// do.
bus Point() {
    signal x;
    signal y;
}

bus Segment() {
    Point a;
    Point b[2];
}

template Buses(N) {
    input Segment s;
    input Point p;
    signal input k;
    signal input none[N];
    signal output out;
    signal t;
    t <== s.a.x * s.b[1].y;
    out <== t + p.x * p.y + k;
}

component main {public [p]} = Buses(0);
