# Locates the libraries ddigen builds on and exposes them as imported targets.
# libclang: find_package(Clang) when its config works, else llvm-config, else a
# plain library search (Debian's clang 14 and 16 both end up here somewhere).
find_package(LibXml2 REQUIRED)
pkg_check_modules(XSLT REQUIRED IMPORTED_TARGET libxslt libexslt)
pkg_check_modules(CMARK REQUIRED IMPORTED_TARGET libcmark-gfm)
pkg_check_modules(YAML REQUIRED IMPORTED_TARGET yaml-0.1)
if(BUILD_TESTING)
  pkg_check_modules(CMOCKA REQUIRED IMPORTED_TARGET cmocka)
endif()
pkg_check_modules(CBOR IMPORTED_TARGET libcbor)
pkg_check_modules(PROTOBUF_C IMPORTED_TARGET libprotobuf-c)

set(DDIGEN_LLVM_CONFIG "" CACHE FILEPATH "llvm-config to locate libclang with")
if(NOT DDIGEN_LLVM_CONFIG)
  find_program(DDIGEN_LLVM_CONFIG NAMES llvm-config llvm-config-16 llvm-config-15 llvm-config-14)
endif()
set(_llvm_libdir "")
set(_llvm_incdir "")
if(DDIGEN_LLVM_CONFIG)
  execute_process(COMMAND ${DDIGEN_LLVM_CONFIG} --libdir OUTPUT_VARIABLE _llvm_libdir OUTPUT_STRIP_TRAILING_WHITESPACE)
  execute_process(COMMAND ${DDIGEN_LLVM_CONFIG} --includedir OUTPUT_VARIABLE _llvm_incdir OUTPUT_STRIP_TRAILING_WHITESPACE)
endif()

find_package(Clang QUIET CONFIG HINTS "${_llvm_libdir}/cmake/clang")
if(TARGET libclang)
  get_target_property(_libclang_inc libclang INTERFACE_INCLUDE_DIRECTORIES)
  if(NOT _libclang_inc AND CLANG_INCLUDE_DIRS)
    set_property(TARGET libclang APPEND PROPERTY INTERFACE_INCLUDE_DIRECTORIES ${CLANG_INCLUDE_DIRS})
  endif()
  add_library(ddigen::libclang ALIAS libclang)
  message(STATUS "libclang: from ClangConfig.cmake")
else()
  find_path(LIBCLANG_INCLUDE_DIR clang-c/Index.h HINTS "${_llvm_incdir}"
            PATHS /usr/lib/llvm-16/include /usr/lib/llvm-15/include /usr/lib/llvm-14/include)
  find_library(LIBCLANG_LIBRARY NAMES clang libclang clang-16 clang-15 clang-14
               HINTS "${_llvm_libdir}" PATHS /usr/lib/llvm-16/lib /usr/lib/llvm-15/lib /usr/lib/llvm-14/lib)
  if(NOT LIBCLANG_INCLUDE_DIR OR NOT LIBCLANG_LIBRARY)
    message(FATAL_ERROR "libclang not found: install libclang-dev or pass -DDDIGEN_LLVM_CONFIG=")
  endif()
  add_library(ddigen_libclang INTERFACE)
  target_include_directories(ddigen_libclang SYSTEM INTERFACE "${LIBCLANG_INCLUDE_DIR}")
  target_link_libraries(ddigen_libclang INTERFACE "${LIBCLANG_LIBRARY}")
  add_library(ddigen::libclang ALIAS ddigen_libclang)
  message(STATUS "libclang: ${LIBCLANG_LIBRARY}")
endif()

# ddigen loads libclang when it first needs it (gen/util/clang_api.c), by
# the SONAME of the library found above, the name a DT_NEEDED entry would
# have; ddigen::libclang_headers gives the headers and that name, and
# ddigen::libclang stays for code that links libclang directly.
get_target_property(_libclang_file ddigen::libclang LOCATION)
if(NOT _libclang_file)
  set(_libclang_file "${LIBCLANG_LIBRARY}")
endif()
get_filename_component(_libclang_file "${_libclang_file}" REALPATH)
set(DDIGEN_LIBCLANG_SONAME "")
if(CMAKE_OBJDUMP)
  execute_process(COMMAND ${CMAKE_OBJDUMP} -p "${_libclang_file}" OUTPUT_VARIABLE _objdump ERROR_QUIET)
  if(_objdump MATCHES "SONAME[ \t]+([^ \t\r\n]+)")
    set(DDIGEN_LIBCLANG_SONAME "${CMAKE_MATCH_1}")
  endif()
endif()
if(NOT DDIGEN_LIBCLANG_SONAME)
  get_filename_component(DDIGEN_LIBCLANG_SONAME "${_libclang_file}" NAME)
endif()
message(STATUS "libclang: loaded at run time as ${DDIGEN_LIBCLANG_SONAME}")
add_library(ddigen_libclang_headers INTERFACE)
target_include_directories(ddigen_libclang_headers SYSTEM INTERFACE
  $<TARGET_PROPERTY:ddigen::libclang,INTERFACE_INCLUDE_DIRECTORIES>)
target_compile_definitions(ddigen_libclang_headers INTERFACE DDIGEN_LIBCLANG_SONAME="${DDIGEN_LIBCLANG_SONAME}")
target_link_libraries(ddigen_libclang_headers INTERFACE ${CMAKE_DL_LIBS})
add_library(ddigen::libclang_headers ALIAS ddigen_libclang_headers)

# The clang executable of the same release: tests use it as the layout oracle
# (-fdump-record-layouts) and to compile generated code for *-pc-windows-msvc.
find_program(DDIGEN_CLANG NAMES clang clang-16 clang-15 clang-14 HINTS "${_llvm_libdir}/../bin")
