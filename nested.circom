pragma circom 2.0.0;
template N() { signal input m[3][4][2]; signal input s; signal input neg; signal output sum; var acc = 0; for (var i=0;i<3;i++) for (var j=0;j<4;j++) for (var k=0;k<2;k++) acc += m[i][j][k]; signal t; t <== s * neg; sum <== acc + t; }
component main = N();
