pragma circom 2.0.0;
include "circomlib/circuits/eddsaposeidon.circom";
include "circomlib/circuits/poseidon.circom";
template Main() {
  signal input Ax; signal input Ay; signal input R8x; signal input R8y; signal input S;
  signal input msg[4];
  signal output h;
  component p = Poseidon(4);
  for (var i = 0; i < 4; i++) p.inputs[i] <== msg[i];
  component v = EdDSAPoseidonVerifier();
  v.enabled <== 1; v.Ax <== Ax; v.Ay <== Ay; v.R8x <== R8x; v.R8y <== R8y; v.S <== S; v.M <== p.out;
  h <== p.out;
}
component main {public [Ax, Ay]} = Main();
