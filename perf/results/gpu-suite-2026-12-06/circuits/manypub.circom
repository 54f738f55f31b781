pragma circom 2.0.0;
template ManyPub(n) {
  signal input x[n];
  signal input k;
  signal output s;
  signal sq[n];
  signal acc[n + 1];
  acc[0] <== 0;
  for (var i = 0; i < n; i++) {
    sq[i] <== x[i] * k;
    acc[i + 1] <== acc[i] + sq[i];
  }
  s <== acc[n];
}
component main {public [x]} = ManyPub(300);
