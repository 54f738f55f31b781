#!/usr/bin/env bash
# circomlib's EdDSA-Poseidon verifier (bn128, 8822 constraints) and a 255-link chain (2^9 domain boundary)
# proved on the GPU by batch_prove from snarkjs keys and .wtns files; proofs verified back home by snarkjs.
set -u
out=${1:?OUT}
S=/tmp/stage_fin
[ -d $S ] || tar xJf stage_call/bins.txz -C /tmp
export LD_LIBRARY_PATH=$S/lib
R=stage_call/real
$S/bin/batch_prove --backend cuda --zkey $R/eddsa.zkey --wtns $R/e0.wtns $R/e1.wtns $R/e2.wtns $R/e3.wtns \
  --verify --out "$out/eddsa" >"$out/eddsa.log" 2>&1; echo "eddsa rc=$?"
$S/bin/batch_prove --backend cuda --zkey $R/chain255.zkey --wtns $R/chain255.wtns --verify --out "$out/chain" \
  >"$out/chain.log" 2>&1; echo "chain rc=$?"
tail -3 "$out/eddsa.log" "$out/chain.log"
