# ddigen_generate() and ddigen_check(): generated DDI code in a driver's build.
# Installed with the package (lib/cmake/ddigen), included by ddigenConfig.cmake.
#
# ddigen_generate(TARGET <target>
#                 WDK <Include/<version> folder>
#                 [DOCS <pages folder or file>...]
#                 [DDI_VERSION <name>]            e.g. WDDM3_1: parse this version only
#                 [DDI_LIST <file>]               skeleton callbacks (--param ddi-list=<file>)
#                 [ARCH <x86,x64,arm64>]
#                 [OUTPUTS <family>...]           asserts validate marshal dispatch skeleton
#                 [OUT_DIR <dir>]                 default ${CMAKE_CURRENT_BINARY_DIR}/ddigen
#                 [OVERRIDES <file>] [PREVIOUS <spec.xml>] [TEMPLATES <dir>]
#                 [PARAMS <name=value>...])
# adds a custom command running `ddigen generate` whose depfile lists every
# header libclang opened, every page and template read (editing or replacing
# a WDK header reruns it, nothing else does), adds the generated .c and .h to
# <target>, and <OUT_DIR>/include to its include path. The command belongs
# to a target <target>_ddigen that <target> depends on (other targets using
# the files depend on it too). Sets <target>_DDIGEN_FILES (generated files)
# and <target>_DDIGEN_INCLUDE_DIR.
#
# ddigen_check(NAME <name> SPEC <ddi.xml> DIR <committed include dir>
#              [OUTPUTS <family>...] [TEMPLATES <dir>] [PARAMS <name=value>...])
# adds a test and a target <name> running `ddigen emit --check`: they fail
# (exit 3) naming each committed file that regenerating would change.

# The generated file names of a family list, asked from ddigen itself so the
# family table lives in one place; unknown or absent families stop here.
function(_ddigen_list_outputs out_var families templates_args)
  get_target_property(_exe ddigen::ddigen IMPORTED_LOCATION)
  if(NOT _exe)
    message(FATAL_ERROR "ddigen_generate: ddigen::ddigen has no IMPORTED_LOCATION (use find_package(ddigen))")
  endif()
  execute_process(COMMAND "${_exe}" emit --list-outputs --outputs "${families}" ${templates_args}
                  OUTPUT_VARIABLE _names ERROR_VARIABLE _err RESULT_VARIABLE _rc)
  if(NOT _rc EQUAL 0)
    message(FATAL_ERROR "ddigen_generate: OUTPUTS ${families}: ${_err}")
  endif()
  string(STRIP "${_names}" _names)
  string(REPLACE "\n" ";" _names "${_names}")
  set(${out_var} "${_names}" PARENT_SCOPE)
endfunction()

function(ddigen_generate)
  cmake_parse_arguments(PARSE_ARGV 0 arg ""
    "TARGET;WDK;DDI_VERSION;DDI_LIST;ARCH;OUT_DIR;OVERRIDES;PREVIOUS;TEMPLATES" "DOCS;OUTPUTS;PARAMS")
  if(arg_UNPARSED_ARGUMENTS)
    message(FATAL_ERROR "ddigen_generate: unknown arguments ${arg_UNPARSED_ARGUMENTS}")
  endif()
  if(NOT arg_TARGET OR NOT TARGET ${arg_TARGET})
    message(FATAL_ERROR "ddigen_generate: TARGET '${arg_TARGET}' is not a target")
  endif()
  if(NOT arg_WDK OR NOT IS_DIRECTORY "${arg_WDK}")
    message(FATAL_ERROR "ddigen_generate: WDK '${arg_WDK}' is not a folder (Include/<version> with km/ shared/ um/)")
  endif()
  if(NOT arg_OUTPUTS)
    set(arg_OUTPUTS asserts)
  endif()
  if(NOT arg_OUT_DIR)
    set(arg_OUT_DIR "${CMAKE_CURRENT_BINARY_DIR}/ddigen")
  endif()
  get_filename_component(arg_OUT_DIR "${arg_OUT_DIR}" ABSOLUTE BASE_DIR "${CMAKE_CURRENT_BINARY_DIR}")
  list(JOIN arg_OUTPUTS "," families)

  set(args generate --wdk "${arg_WDK}" --outputs "${families}")
  set(templates_args "")
  set(depends ddigen::ddigen)
  if(arg_TEMPLATES)
    set(templates_args --templates "${arg_TEMPLATES}")
  endif()
  foreach(d IN LISTS arg_DOCS)
    list(APPEND args --docs "${d}")
  endforeach()
  if(arg_DDI_VERSION)
    list(APPEND args --ddi-version "${arg_DDI_VERSION}")
  endif()
  if(arg_ARCH)
    list(APPEND args --arch "${arg_ARCH}")
  endif()
  if(arg_DDI_LIST)
    get_filename_component(arg_DDI_LIST "${arg_DDI_LIST}" ABSOLUTE)
    list(APPEND args --param "ddi-list=${arg_DDI_LIST}")
    list(APPEND depends "${arg_DDI_LIST}")
  endif()
  foreach(opt OVERRIDES PREVIOUS)
    if(arg_${opt})
      string(TOLOWER "${opt}" flag)
      list(APPEND args --${flag} "${arg_${opt}}")
    endif()
  endforeach()
  foreach(p IN LISTS arg_PARAMS)
    list(APPEND args --param "${p}")
  endforeach()

  _ddigen_list_outputs(names "${families}" "${templates_args}")
  # A family's templates installed later change the output list: configure again.
  if(arg_TEMPLATES)
    set_property(DIRECTORY APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS "${arg_TEMPLATES}")
  elseif(DDIGEN_TEMPLATES_DIR)
    set_property(DIRECTORY APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS "${DDIGEN_TEMPLATES_DIR}")
  endif()
  set(files "")
  foreach(n IN LISTS names)
    list(APPEND files "${arg_OUT_DIR}/include/${n}")
  endforeach()

  # The spec comes first: it is the target `generate --depfile` names.
  set(depfile "${arg_OUT_DIR}/ddigen.d")
  add_custom_command(
    OUTPUT "${arg_OUT_DIR}/spec/ddi.xml" ${files}
    COMMAND ddigen::ddigen ${args} ${templates_args} -q -o "${arg_OUT_DIR}" --depfile "${depfile}"
    DEPFILE "${depfile}"
    DEPENDS ${depends}
    COMMENT "ddigen: generating ${families} for ${arg_TARGET} from ${arg_WDK}"
    VERBATIM)
  # One target owns the command, so that other targets using the files (an
  # object build for another architecture) never run it a second time.
  add_custom_target(${arg_TARGET}_ddigen DEPENDS "${arg_OUT_DIR}/spec/ddi.xml" ${files})
  add_dependencies(${arg_TARGET} ${arg_TARGET}_ddigen)
  target_sources(${arg_TARGET} PRIVATE ${files})
  target_include_directories(${arg_TARGET} PRIVATE "${arg_OUT_DIR}/include")
  set(${arg_TARGET}_DDIGEN_FILES "${files}" PARENT_SCOPE)
  set(${arg_TARGET}_DDIGEN_INCLUDE_DIR "${arg_OUT_DIR}/include" PARENT_SCOPE)
endfunction()

function(ddigen_check)
  cmake_parse_arguments(PARSE_ARGV 0 arg "" "NAME;SPEC;DIR;TEMPLATES" "OUTPUTS;PARAMS")
  if(arg_UNPARSED_ARGUMENTS OR NOT arg_NAME OR NOT arg_SPEC OR NOT arg_DIR)
    message(FATAL_ERROR "ddigen_check: usage: ddigen_check(NAME name SPEC ddi.xml DIR dir [OUTPUTS family...])")
  endif()
  set(args emit --spec "${arg_SPEC}" -o "${arg_DIR}" --check)
  if(arg_OUTPUTS)
    list(JOIN arg_OUTPUTS "," families)
    list(APPEND args --outputs "${families}")
  endif()
  if(arg_TEMPLATES)
    list(APPEND args --templates "${arg_TEMPLATES}")
  endif()
  foreach(p IN LISTS arg_PARAMS)
    list(APPEND args --param "${p}")
  endforeach()
  add_test(NAME ${arg_NAME} COMMAND ddigen::ddigen ${args})
  add_custom_target(${arg_NAME} COMMAND ddigen::ddigen ${args}
                    COMMENT "ddigen: checking ${arg_DIR} is what ${arg_SPEC} generates" VERBATIM)
endfunction()
