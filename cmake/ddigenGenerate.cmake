# ddigen_generate() and ddigen_check(): generated DDI code in a driver's build.
# Installed with the package (lib/cmake/ddigen), included by ddigenConfig.cmake.
#
# ddigen_generate(TARGET <target>
#                 WDK <Include/<version> folder>  (or the config's wdk:)
#                 [CONFIG <ddigen.yaml>]          the driver's options file; the arguments
#                                                 below override its keys
#                 [DOCS <pages folder or file>...]
#                 [DDI_VERSION <name>]            e.g. WDDM3_1: parse this version only
#                 [DRIVER_KIND full|display-only] the skeleton's initialization record
#                 [DDI_LIST <file>]               skeleton callbacks (--ddi-list <file>); its
#                                                 names are checked at configure time against the
#                                                 kit's headers, read as text (any DDI version's
#                                                 callbacks pass), else against PREVIOUS; an error
#                                                 names the list's file and line, and the nearest
#                                                 callback's name
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
# the files depend on it too). Sets <target>_DDIGEN_FILES (generated files),
# <target>_DDIGEN_INCLUDE_DIR and <target>_DDIGEN_SPEC (the fresh spec). No
# CONFIG: ddigen reads no ddigen.yaml (--no-config), whatever folder it runs in.
#
# ddigen_check(NAME <name> DIR <committed include dir>
#              (SPEC <ddi.xml> | TARGET <target of ddigen_generate>)
#              [OUTPUTS <family>...] [TEMPLATES <dir>] [PARAMS <name=value>...]
#              [DDI_VERSION <name>] [DDI_LIST <file>] [DRIVER_KIND <kind>])
# adds a test and a target <name> running `ddigen emit --check`: they fail
# (exit 3) naming each committed file that regenerating would change or
# create. Relative DIR and SPEC are the committed ones, in the source tree
# (CMAKE_CURRENT_SOURCE_DIR); TARGET compares with the fresh spec that
# target's ddigen_generate makes (the target <name> builds it first). The
# options generate used are stamped into its spec and used again; the
# skeleton options here override them.

# The generated file names of a family list, asked from ddigen itself so the
# family table lives in one place; unknown or absent families stop here.
function(_ddigen_list_outputs out_var families templates_args check_args)
  get_target_property(_exe ddigen::ddigen IMPORTED_LOCATION)
  if(NOT _exe)
    message(FATAL_ERROR "ddigen_generate: ddigen::ddigen has no IMPORTED_LOCATION (use find_package(ddigen))")
  endif()
  set(_families "")
  if(families)
    set(_families --outputs "${families}")
  endif()
  # check_args: the config, the DDI list (its syntax checked here, and its
  # names too against a spec when one is given).
  execute_process(COMMAND "${_exe}" emit --list-outputs ${_families} ${templates_args} ${check_args}
                  OUTPUT_VARIABLE _names ERROR_VARIABLE _err RESULT_VARIABLE _rc)
  if(NOT _rc EQUAL 0)
    message(FATAL_ERROR "ddigen_generate: ${_err}")
  endif()
  string(STRIP "${_names}" _names)
  string(REPLACE "\n" ";" _names "${_names}")
  set(${out_var} "${_names}" PARENT_SCOPE)
endfunction()

function(ddigen_generate)
  cmake_parse_arguments(PARSE_ARGV 0 arg ""
    "TARGET;WDK;CONFIG;DDI_VERSION;DRIVER_KIND;DDI_LIST;ARCH;OUT_DIR;OVERRIDES;PREVIOUS;TEMPLATES" "DOCS;OUTPUTS;PARAMS")
  if(arg_UNPARSED_ARGUMENTS)
    message(FATAL_ERROR "ddigen_generate: unknown arguments ${arg_UNPARSED_ARGUMENTS}")
  endif()
  if(NOT arg_TARGET OR NOT TARGET ${arg_TARGET})
    message(FATAL_ERROR "ddigen_generate: TARGET '${arg_TARGET}' is not a target")
  endif()
  set(depends ddigen::ddigen)
  set(config_args --no-config)
  if(arg_CONFIG)
    get_filename_component(arg_CONFIG "${arg_CONFIG}" ABSOLUTE)
    if(NOT EXISTS "${arg_CONFIG}")
      message(FATAL_ERROR "ddigen_generate: CONFIG '${arg_CONFIG}' does not exist")
    endif()
    set(config_args --config "${arg_CONFIG}")
    list(APPEND depends "${arg_CONFIG}")
    set_property(DIRECTORY APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS "${arg_CONFIG}")
  endif()
  if(arg_WDK AND NOT IS_DIRECTORY "${arg_WDK}")
    message(FATAL_ERROR "ddigen_generate: WDK '${arg_WDK}' is not a folder (Include/<version> with km/ shared/ um/)")
  elseif(NOT arg_WDK AND NOT arg_CONFIG)
    message(FATAL_ERROR "ddigen_generate: WDK (or a CONFIG with wdk:) is needed")
  endif()
  # The families: OUTPUTS, else the config's, else the asserts.
  if(NOT arg_OUTPUTS AND NOT arg_CONFIG)
    set(arg_OUTPUTS asserts)
  endif()
  if(NOT arg_OUT_DIR)
    set(arg_OUT_DIR "${CMAKE_CURRENT_BINARY_DIR}/ddigen")
  endif()
  get_filename_component(arg_OUT_DIR "${arg_OUT_DIR}" ABSOLUTE BASE_DIR "${CMAKE_CURRENT_BINARY_DIR}")
  list(JOIN arg_OUTPUTS "," families)

  set(args generate ${config_args})
  if(arg_WDK)
    list(APPEND args --wdk "${arg_WDK}")
  endif()
  if(families)
    list(APPEND args --outputs "${families}")
  endif()
  set(templates_args "")
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
  set(skeleton_args "")
  if(arg_DRIVER_KIND)
    list(APPEND skeleton_args --driver-kind "${arg_DRIVER_KIND}")
  endif()
  if(arg_DDI_LIST)
    get_filename_component(arg_DDI_LIST "${arg_DDI_LIST}" ABSOLUTE)
    list(APPEND skeleton_args --ddi-list "${arg_DDI_LIST}")
    list(APPEND depends "${arg_DDI_LIST}")
    set_property(DIRECTORY APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS "${arg_DDI_LIST}")
  endif()
  list(APPEND args ${skeleton_args})
  foreach(opt OVERRIDES PREVIOUS)
    if(arg_${opt})
      string(TOLOWER "${opt}" flag)
      list(APPEND args --${flag} "${arg_${opt}}")
    endif()
  endforeach()
  foreach(p IN LISTS arg_PARAMS)
    list(APPEND args --param "${p}")
  endforeach()

  # The file names, and the DDI list checked now rather than after the
  # whole parse: its syntax always; its names against the callbacks the
  # kit's headers declare at any DDI version (WDK, or the config's wdk:),
  # read as text in milliseconds, else against PREVIOUS; the rest of the
  # skeleton's options against PREVIOUS when given.
  set(check_args ${config_args} ${skeleton_args})
  if(arg_WDK)
    list(APPEND check_args --wdk "${arg_WDK}")
  endif()
  if(arg_PREVIOUS)
    get_filename_component(_previous "${arg_PREVIOUS}" ABSOLUTE)
    list(APPEND check_args --spec "${_previous}")
  endif()
  _ddigen_list_outputs(names "${families}" "${templates_args}" "${check_args}")
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
    COMMENT "ddigen: generating ${families} for ${arg_TARGET}"
    VERBATIM)
  # One target owns the command, so that other targets using the files (an
  # object build for another architecture) never run it a second time.
  add_custom_target(${arg_TARGET}_ddigen DEPENDS "${arg_OUT_DIR}/spec/ddi.xml" ${files})
  add_dependencies(${arg_TARGET} ${arg_TARGET}_ddigen)
  target_sources(${arg_TARGET} PRIVATE ${files})
  target_include_directories(${arg_TARGET} PRIVATE "${arg_OUT_DIR}/include")
  set_property(TARGET ${arg_TARGET} PROPERTY DDIGEN_SPEC "${arg_OUT_DIR}/spec/ddi.xml")
  set(${arg_TARGET}_DDIGEN_FILES "${files}" PARENT_SCOPE)
  set(${arg_TARGET}_DDIGEN_INCLUDE_DIR "${arg_OUT_DIR}/include" PARENT_SCOPE)
  set(${arg_TARGET}_DDIGEN_SPEC "${arg_OUT_DIR}/spec/ddi.xml" PARENT_SCOPE)
endfunction()

function(ddigen_check)
  cmake_parse_arguments(PARSE_ARGV 0 arg "" "NAME;SPEC;TARGET;DIR;TEMPLATES;DDI_VERSION;DDI_LIST;DRIVER_KIND"
                        "OUTPUTS;PARAMS")
  if(arg_UNPARSED_ARGUMENTS OR NOT arg_NAME OR NOT arg_DIR OR (NOT arg_SPEC AND NOT arg_TARGET))
    message(FATAL_ERROR "ddigen_check: usage: ddigen_check(NAME name DIR dir (SPEC ddi.xml | TARGET target) ...)")
  endif()
  # The committed folder is in the source tree: resolved there, never in
  # the build folder, where the fresh output would be compared with itself.
  get_filename_component(arg_DIR "${arg_DIR}" ABSOLUTE BASE_DIR "${CMAKE_CURRENT_SOURCE_DIR}")
  set(after "")
  if(arg_TARGET)
    get_target_property(spec ${arg_TARGET} DDIGEN_SPEC)
    if(NOT spec)
      message(FATAL_ERROR "ddigen_check: TARGET '${arg_TARGET}' has no ddigen_generate")
    endif()
    set(after ${arg_TARGET}_ddigen)
  else()
    get_filename_component(spec "${arg_SPEC}" ABSOLUTE BASE_DIR "${CMAKE_CURRENT_SOURCE_DIR}")
  endif()
  set(args emit --no-config --spec "${spec}" -o "${arg_DIR}" --check)
  if(arg_OUTPUTS)
    list(JOIN arg_OUTPUTS "," families)
    list(APPEND args --outputs "${families}")
  endif()
  if(arg_TEMPLATES)
    list(APPEND args --templates "${arg_TEMPLATES}")
  endif()
  # The skeleton's options override those the spec was generated with.
  if(arg_DDI_VERSION)
    list(APPEND args --ddi-version "${arg_DDI_VERSION}")
  endif()
  if(arg_DRIVER_KIND)
    list(APPEND args --driver-kind "${arg_DRIVER_KIND}")
  endif()
  if(arg_DDI_LIST)
    get_filename_component(arg_DDI_LIST "${arg_DDI_LIST}" ABSOLUTE)
    list(APPEND args --ddi-list "${arg_DDI_LIST}")
  endif()
  foreach(p IN LISTS arg_PARAMS)
    list(APPEND args --param "${p}")
  endforeach()
  add_test(NAME ${arg_NAME} COMMAND ddigen::ddigen ${args})
  add_custom_target(${arg_NAME} COMMAND ddigen::ddigen ${args}
                    COMMENT "ddigen: checking ${arg_DIR} is what ${spec} generates" VERBATIM)
  if(after)
    add_dependencies(${arg_NAME} ${after})
  endif()
endfunction()
