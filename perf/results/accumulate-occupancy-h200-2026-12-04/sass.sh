#!/usr/bin/env bash
# Disassembles stage/g1.cubin and stage/g2.cubin (nvcc -cubin -arch=sm_90 of cuda/kernels/msm_g1.cu, msm_g2.cu with
# the build's flags) with the device machine's cuobjdump; the SASS comes back gzipped.
out=${1:?OUT}
ls -d /usr/local/cuda*/bin /opt/nvidia/*/bin 2>/dev/null; command -v cuobjdump nvdisasm ncu
tool=$(command -v cuobjdump || ls /usr/local/cuda*/bin/cuobjdump /opt/nvidia/*/*/cuobjdump 2>/dev/null | head -1)
dis=$(command -v nvdisasm || ls /usr/local/cuda*/bin/nvdisasm /opt/nvidia/*/*/nvdisasm 2>/dev/null | head -1)
echo "cuobjdump: $tool nvdisasm: $dis"
for g in g1 g2; do
  if [ -n "$tool" ]; then $tool -sass stage/$g.cubin > $out/$g.sass 2>&1; elif [ -n "$dis" ]; then $dis -c stage/$g.cubin > $out/$g.sass 2>&1; fi
done
cd $out && ls -la && gzip -9 *.sass; ls -la
