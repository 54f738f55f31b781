pragma circom 2.0.0;
include "../node_modules/circomlib/circuits/poseidon.circom";
include "../node_modules/circomlib/circuits/switcher.circom";
include "../node_modules/circomlib/circuits/bitify.circom";
template Merkle(D) {
  signal input leaf; signal input root; signal input pathElements[D]; signal input pathIndices[D];
  component sw[D]; component h[D];
  signal cur[D+1]; cur[0] <== leaf;
  for (var i = 0; i < D; i++) {
    pathIndices[i] * (1 - pathIndices[i]) === 0;
    sw[i] = Switcher(); sw[i].sel <== pathIndices[i]; sw[i].L <== cur[i]; sw[i].R <== pathElements[i];
    h[i] = Poseidon(2); h[i].inputs[0] <== sw[i].outL; h[i].inputs[1] <== sw[i].outR;
    cur[i+1] <== h[i].out;
  }
  root === cur[D];
}
component main {public [root]} = Merkle(10);
