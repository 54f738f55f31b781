pragma circom 2.0.0;

// Inputs of several shapes (a 2 x 3 matrix, a vector, a scalar; two of them public) and several outputs:
// what proofline's input checks name when an input JSON leaves a signal out, adds one, or gives an array of
// the wrong size.
template MatVec(R, C) {
    signal input m[R][C];
    signal input v[C];
    signal input k;
    signal output y[R];
    signal output tr;
    signal output prod;
    signal acc[R][C + 1];
    for (var i = 0; i < R; i++) {
        acc[i][0] <== 0;
        for (var j = 0; j < C; j++) {
            acc[i][j + 1] <== acc[i][j] + m[i][j] * v[j];
        }
        y[i] <== acc[i][C] + k;
    }
    tr <== m[0][0] + m[1][1];
    signal p[C + 1];
    p[0] <== 1;
    for (var j = 0; j < C; j++) p[j + 1] <== p[j] * v[j];
    prod <== p[C];
}

component main {public [k, v]} = MatVec(2, 3);
