pragma circom 2.0.0;
include "circomlib/circuits/sha256/sha256.circom";
template Main() {
  signal input in[512];
  signal output out[256];
  component s = Sha256(512);
  for (var i = 0; i < 512; i++) s.in[i] <== in[i];
  for (var i = 0; i < 256; i++) out[i] <== s.out[i];
}
component main = Main();
