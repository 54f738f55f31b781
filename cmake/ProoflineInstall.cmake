# Installs the libraries, the public headers (as <proofline/module/...>) and a CMake package so that
# consumers can write find_package(proofline) and link proofline::proofline.
#
# The public headers are listed, not globbed: the pipeline's API (graph/), the protocol objects and file
# formats (groth16/), the arithmetic types they expose (arith/), the trace exports, and what those include.
# None of them includes CUDA, spdlog or Boost for a host compiler (the package test checks); internal headers
# stay in the source tree.
include(GNUInstallDirs)
include(CMakePackageConfigHelpers)

get_property(_modules GLOBAL PROPERTY PROOFLINE_MODULES)
add_library(proofline INTERFACE)
add_library(proofline::proofline ALIAS proofline)
target_link_libraries(proofline INTERFACE ${_modules})

install(TARGETS ${_modules} proofline proofline_build_flags EXPORT prooflineTargets
  ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR}
  LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR})

set(PROOFLINE_PUBLIC_HEADERS
  arith/bigint.hpp
  arith/bn254/curve_params.hpp
  arith/bn254/fp.hpp
  arith/bn254/fp12.hpp
  arith/bn254/fp2.hpp
  arith/bn254/fr.hpp
  arith/bn254/g1.hpp
  arith/bn254/g2.hpp
  arith/bn254/pairing.hpp
  arith/config.hpp
  arith/curve.hpp
  arith/curve_pairing.hpp
  arith/curve_params.hpp
  arith/curves.hpp
  arith/domain.hpp
  arith/fp.hpp
  arith/fp12.hpp
  arith/fp2.hpp
  arith/fp6.hpp
  arith/fr.hpp
  arith/g1.hpp
  arith/g2.hpp
  arith/mont_field.hpp
  arith/pairing.hpp
  cpu/msm.hpp
  graph/config.hpp
  graph/job.hpp
  graph/metrics.hpp
  graph/observe.hpp
  graph/pipeline.hpp
  graph/report.hpp
  graph/stats.hpp
  graph/testing.hpp
  groth16/constraint_builder.hpp
  groth16/constraint_system.hpp
  groth16/fixed_base.hpp
  groth16/fwd.hpp
  groth16/json.hpp
  groth16/key_cache.hpp
  groth16/key_check.hpp
  groth16/native_file.hpp
  groth16/proof.hpp
  groth16/proof_json.hpp
  groth16/prover.hpp
  groth16/proving_key.hpp
  groth16/r1cs_file.hpp
  groth16/setup.hpp
  groth16/shared_array.hpp
  groth16/snarkjs_jobs.hpp
  groth16/snarkjs_json.hpp
  groth16/synthetic.hpp
  groth16/verifier.hpp
  groth16/verifying_key.hpp
  groth16/wtns.hpp
  groth16/zkey.hpp
  groth16/zkey_writer.hpp
  memory/pinning.hpp
  nodes/job.hpp
  trace/chrome_trace.hpp
  trace/clock.hpp
  trace/config.hpp
  trace/recorder.hpp
  trace/snapshot.hpp
  trace/span.hpp
  trace/stats.hpp
  trace/timeline_svg.hpp
  trace/verdict.hpp
  util/error.hpp
  util/log.hpp
  util/prometheus.hpp
  util/size.hpp
)
# What the arithmetic headers include when nvcc compiles them (under __CUDACC__), so that a consumer's .cu file
# can use the field and curve types in kernels of its own. A host compiler never reaches the .cuh files.
list(APPEND PROOFLINE_PUBLIC_HEADERS
  arith/detail/fp2_mul_device.cuh
  arith/detail/fp2_mul_limbs32.hpp
  arith/detail/limbs32.hpp
  arith/detail/mod_add_limbs32.hpp
  arith/detail/mont_field_device.cuh
  arith/detail/mont_mul_limbs32.hpp
  arith/detail/mont_reduce_limbs32.hpp
  arith/detail/mont_sqr_limbs32.hpp
  arith/detail/mul_wide_limbs32.hpp
  arith/detail/product_difference_limbs32.hpp
  arith/detail/ptx_carry_ops.cuh
)
foreach(header ${PROOFLINE_PUBLIC_HEADERS})
  get_filename_component(dir ${header} DIRECTORY)
  install(FILES ${PROJECT_SOURCE_DIR}/${header} DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}/proofline/${dir})
endforeach()

install(EXPORT prooflineTargets NAMESPACE proofline:: DESTINATION ${CMAKE_INSTALL_LIBDIR}/cmake/proofline)
configure_package_config_file(${PROJECT_SOURCE_DIR}/cmake/prooflineConfig.cmake.in
  ${PROJECT_BINARY_DIR}/prooflineConfig.cmake INSTALL_DESTINATION ${CMAKE_INSTALL_LIBDIR}/cmake/proofline)
write_basic_package_version_file(${PROJECT_BINARY_DIR}/prooflineConfigVersion.cmake COMPATIBILITY SameMinorVersion)
install(FILES ${PROJECT_BINARY_DIR}/prooflineConfig.cmake ${PROJECT_BINARY_DIR}/prooflineConfigVersion.cmake
  DESTINATION ${CMAKE_INSTALL_LIBDIR}/cmake/proofline)
