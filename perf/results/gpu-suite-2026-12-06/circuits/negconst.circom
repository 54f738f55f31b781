pragma circom 2.0.0;
// Constants near the prime (-1, -2^200), a constant term in a quadratic constraint.
template NegConst() {
  signal input a;
  signal input b;
  signal output o;
  signal t;
  t <== -a * b + 5;
  o <== t * (-1 * 2**200) - 7;
}
component main {public [a]} = NegConst();
