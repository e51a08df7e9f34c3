# Build-time generation of the dispatch tables (templates/ddi_dispatch.*.xsl)
# for one WDK, by the ddigen this build makes: the runtime dispatches its
# paging operations through them, so it follows a regenerated spec and nothing
# generated is committed.
#   ddigen_generate_dispatch(NAME WDK_ROOT OUT_DIR)
# defines the custom target NAME (depend on it from every target that compiles
# the outputs) and sets NAME_SOURCE (ddi_dispatch.c), NAME_INCLUDE_DIR and
# NAME_SPEC (the spec it was generated from, for other generated files).
function(ddigen_generate_dispatch name wdk out)
  # Only the dispatch family: the other generated files are not the
  # runtime's business and cannot break its build.
  file(GLOB_RECURSE _templates CONFIGURE_DEPENDS ${PROJECT_SOURCE_DIR}/templates/*.xsl)
  file(GLOB_RECURSE _kit_headers CONFIGURE_DEPENDS ${wdk}/*.h)
  set(_outputs ${out}/include/ddi_dispatch.h ${out}/include/ddi_dispatch.c ${out}/spec/ddi.xml)
  add_custom_command(
    OUTPUT ${_outputs}
    COMMAND ddigen generate -q --wdk ${wdk} --overrides ${PROJECT_SOURCE_DIR}/spec/overrides.xml
            --templates ${PROJECT_SOURCE_DIR}/templates --outputs dispatch -o ${out}
    DEPENDS ddigen ${_kit_headers} ${PROJECT_SOURCE_DIR}/spec/overrides.xml ${_templates}
    COMMENT "ddigen: dispatch tables for ${wdk}"
    VERBATIM)
  add_custom_target(${name} DEPENDS ${_outputs})
  set(${name}_SOURCE ${out}/include/ddi_dispatch.c PARENT_SCOPE)
  set(${name}_INCLUDE_DIR ${out}/include PARENT_SCOPE)
  set(${name}_SPEC ${out}/spec/ddi.xml PARENT_SCOPE)
endfunction()
