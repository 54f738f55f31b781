pragma circom 2.2.0;

// Subcomponents of two instances of one template in one array, with buses among their inputs and outputs:
// circom's C++ output reaches their signals through its I/O maps (templateInsId2IOSignalInfo,
// busInsId2FieldInfo), which the generator reads from the .dat into arrays of its own when it loads the
// circuit. What circom.sh reload loads and frees many times.
bus Point() {
    signal x;
    signal y;
}

template Inner(N) {
    signal input in[N];
    input Point p;
    signal output out[N];
    output Point q;
    for (var i = 0; i < N; i++) out[i] <== in[i] * p.x;
    q.x <== p.x * p.y;
    q.y <== p.y + N;
}

template Outer() {
    signal input a[3];
    input Point p;
    signal output s;
    component c[2];
    c[0] = Inner(2);
    c[1] = Inner(3);
    var acc = 0;
    for (var k = 0; k < 2; k++) {
        c[k].p <== p;
        for (var i = 0; i < 2 + k; i++) c[k].in[i] <== a[i] + k;
        acc += c[k].out[1] + c[k].q.x;
    }
    s <== acc;
}

component main = Outer();
