# Installs the libraries, public headers (as <proofline/module/...>) and a CMake package so that
# consumers can write find_package(proofline) and link proofline::proofline.
include(GNUInstallDirs)
include(CMakePackageConfigHelpers)

get_property(_modules GLOBAL PROPERTY PROOFLINE_MODULES)
add_library(proofline INTERFACE)
add_library(proofline::proofline ALIAS proofline)
target_link_libraries(proofline INTERFACE ${_modules})

install(TARGETS ${_modules} proofline proofline_build_flags EXPORT prooflineTargets
  ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR}
  LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR})
foreach(dir util memory arith cpu trace cuda groth16 devices nodes graph)
  install(DIRECTORY ${PROJECT_SOURCE_DIR}/${dir}/ DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}/proofline/${dir}
    FILES_MATCHING PATTERN "*.hpp" PATTERN "*.cuh")
endforeach()
install(EXPORT prooflineTargets NAMESPACE proofline:: DESTINATION ${CMAKE_INSTALL_LIBDIR}/cmake/proofline)
configure_package_config_file(${PROJECT_SOURCE_DIR}/cmake/prooflineConfig.cmake.in
  ${PROJECT_BINARY_DIR}/prooflineConfig.cmake INSTALL_DESTINATION ${CMAKE_INSTALL_LIBDIR}/cmake/proofline)
write_basic_package_version_file(${PROJECT_BINARY_DIR}/prooflineConfigVersion.cmake COMPATIBILITY SameMinorVersion)
install(FILES ${PROJECT_BINARY_DIR}/prooflineConfig.cmake ${PROJECT_BINARY_DIR}/prooflineConfigVersion.cmake
  DESTINATION ${CMAKE_INSTALL_LIBDIR}/cmake/proofline)
