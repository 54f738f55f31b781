pragma circom 2.0.0;
// A public input that appears in no constraint, and an output fixed to a constant.
template Unused() {
  signal input used;
  signal input unused;
  signal input w;
  signal output o;
  signal output one;
  o <== used * w;
  one <== 1;
}
component main {public [used, unused]} = Unused();
