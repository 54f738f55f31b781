pragma circom 2.0.0;
template Many(N) { signal input x; signal input y[N]; signal output o[N]; for (var i = 0; i < N; i++) { o[i] <== x * y[i]; } }
component main = Many(1000);
