const { buildEddsa, buildPoseidon } = require("circomlibjs");
(async () => {
  const eddsa = await buildEddsa(); const poseidon = await buildPoseidon(); const F = poseidon.F;
  const out = [];
  for (let k = 0; k < 4; k++) {
    const prv = Buffer.alloc(32, k + 1);
    const pub = eddsa.prv2pub(prv);
    const msg = [k + 1, 2, 3, 4 + k].map(BigInt);
    const h = poseidon(msg);
    const sig = eddsa.signPoseidon(prv, h);
    out.push({ Ax: F.toObject(pub[0]).toString(), Ay: F.toObject(pub[1]).toString(),
      R8x: F.toObject(sig.R8[0]).toString(), R8y: F.toObject(sig.R8[1]).toString(), S: sig.S.toString(),
      msg: msg.map(String) });
  }
  out.forEach((o, i) => require("fs").writeFileSync(`eddsa_in${i}.json`, JSON.stringify(o)));
})();
