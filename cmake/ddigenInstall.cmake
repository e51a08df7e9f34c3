# `cmake --install build --prefix P`: what a driver project needs from ddigen.
#   P/bin/ddigen                      the generator (finds P/share/ddigen/templates itself)
#   P/bin/ddigen-ci                   docs/ci.md's recipe (scripts/ci-driver-check.sh)
#   P/share/ddigen/templates/         the XSLT templates (with include/, lib/ if present)
#   P/share/ddigen/schemas/           spec/*.rng (also compiled into ddigen; here for editors)
#   P/share/ddigen/runtime/           the paging runtime as sources: a driver compiles it
#                                     with its own kernel toolchain, so no host library
#   P/lib/cmake/ddigen/               ddigenConfig.cmake, ddigenConfigVersion.cmake,
#                                     ddigenGenerate.cmake (ddigen_generate, ddigen_check)
include(CMakePackageConfigHelpers)

set(DDIGEN_INSTALL_DATADIR share/ddigen)
set(DDIGEN_INSTALL_CMAKEDIR lib/cmake/ddigen)

# libclang lives outside the system library path (/usr/lib/llvm-N/lib): the
# installed binary keeps that link path, and the build links with the same
# run path so install has nothing to rewrite.
set_target_properties(ddigen PROPERTIES INSTALL_RPATH_USE_LINK_PATH ON BUILD_WITH_INSTALL_RPATH ON)
install(TARGETS ddigen RUNTIME DESTINATION bin)
install(DIRECTORY ${PROJECT_SOURCE_DIR}/templates/ DESTINATION ${DDIGEN_INSTALL_DATADIR}/templates
        FILES_MATCHING PATTERN "*.xsl")
file(GLOB _ddigen_schemas ${PROJECT_SOURCE_DIR}/spec/*.rng)
install(FILES ${_ddigen_schemas} DESTINATION ${DDIGEN_INSTALL_DATADIR}/schemas)
# Kernel-safe sources and their headers; the simulator and oracle (host only)
# beside them, for host harnesses like examples/refdriver.
install(DIRECTORY ${PROJECT_SOURCE_DIR}/runtime/include/ DESTINATION ${DDIGEN_INSTALL_DATADIR}/runtime/include
        FILES_MATCHING PATTERN "*.h")
install(DIRECTORY ${PROJECT_SOURCE_DIR}/runtime/src/ DESTINATION ${DDIGEN_INSTALL_DATADIR}/runtime/src
        FILES_MATCHING PATTERN "*.c" PATTERN "*.h")
install(DIRECTORY ${PROJECT_SOURCE_DIR}/runtime/sim/ DESTINATION ${DDIGEN_INSTALL_DATADIR}/runtime/sim
        FILES_MATCHING PATTERN "*.c" PATTERN "*.h")

configure_package_config_file(${PROJECT_SOURCE_DIR}/cmake/ddigenConfig.cmake.in
                              ${PROJECT_BINARY_DIR}/ddigenConfig.cmake
                              INSTALL_DESTINATION ${DDIGEN_INSTALL_CMAKEDIR}
                              PATH_VARS DDIGEN_INSTALL_DATADIR)
# 0.2.x satisfies find_package(ddigen 0.2): before 1.0 a minor release may
# change the generated interfaces, so only patch releases are compatible.
write_basic_package_version_file(${PROJECT_BINARY_DIR}/ddigenConfigVersion.cmake
                                 VERSION ${PROJECT_VERSION} COMPATIBILITY SameMinorVersion)
install(FILES ${PROJECT_BINARY_DIR}/ddigenConfig.cmake ${PROJECT_BINARY_DIR}/ddigenConfigVersion.cmake
              ${PROJECT_SOURCE_DIR}/cmake/ddigenGenerate.cmake
        DESTINATION ${DDIGEN_INSTALL_CMAKEDIR})
# docs/ci.md's recipe as a program beside ddigen: PREFIX/bin/ddigen-ci runs
# the PREFIX/bin/ddigen it is installed with unless told otherwise.
install(PROGRAMS ${PROJECT_SOURCE_DIR}/scripts/ci-driver-check.sh DESTINATION bin RENAME ddigen-ci)
