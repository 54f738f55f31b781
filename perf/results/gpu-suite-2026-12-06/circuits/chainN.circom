pragma circom 2.0.0;
template Chain(n) {
  signal input a;
  signal input b;
  signal output o;
  signal t[n];
  t[0] <== a * b;
  for (var i = 1; i < n; i++) t[i] <== t[i - 1] * a + b;
  o <== t[n - 1];
}
component main = Chain(LEN);
