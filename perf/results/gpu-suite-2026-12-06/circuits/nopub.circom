pragma circom 2.0.0;
// No public signals at all: only the constant one is public.
template NoPub() {
  signal input a;
  signal input b;
  signal c;
  c <== a * b;
  signal d;
  d <== c * c;
}
component main = NoPub();
