pragma circom 2.0.0;

// Inputs of several shapes (a 2 x 3 matrix, a 2 x 2 x 2 array, a vector, a scalar; all but the matrix
// public) and several outputs: what proofline's input checks name when an input JSON leaves a signal out,
// adds one, or gives an array of the wrong size, for circom's --c and --wasm output alike.
template MatVec(R, C) {
    signal input m[R][C];
    signal input v[C];
    signal input k;
    signal input c[2][2][2];
    signal output y[R];
    signal output tr;
    signal output prod;
    signal output cs;
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
    // cs = sum of c[i][j][l] * m[i][j + l]: each value of the 2 x 2 x 2 array weighs into the proof.
    signal cacc[9];
    cacc[0] <== 0;
    for (var i = 0; i < 2; i++) {
        for (var j = 0; j < 2; j++) {
            for (var l = 0; l < 2; l++) {
                cacc[4 * i + 2 * j + l + 1] <== cacc[4 * i + 2 * j + l] + c[i][j][l] * m[i][j + l];
            }
        }
    }
    cs <== cacc[8];
}

component main {public [k, v, c]} = MatVec(2, 3);
