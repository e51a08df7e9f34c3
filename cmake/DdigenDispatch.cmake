# Build-time generation of the dispatch tables (templates/ddi_dispatch.*.xsl)
# for one WDK, by the ddigen this build makes: the runtime dispatches its
# paging operations through them, so it follows a regenerated spec and nothing
# generated is committed.
#   ddigen_generate_dispatch(NAME WDK_ROOT OUT_DIR)
# defines the custom target NAME (depend on it from every target that compiles
# the outputs) and sets NAME_SOURCE (ddi_dispatch.c), NAME_INCLUDE_DIR and
# NAME_SPEC (the spec it was generated from, for other generated files).
function(ddigen_generate_dispatch name wdk out)
  # Only the dispatch templates (and their include): the other generated files
  # are not the runtime's business and cannot break its build.
  set(_tpl ${out}/templates)
  foreach(_f ddi_dispatch.h.xsl ddi_dispatch.c.xsl lib/dispatch_common.xsl)
    configure_file(${PROJECT_SOURCE_DIR}/templates/${_f} ${_tpl}/${_f} COPYONLY)
  endforeach()
  file(GLOB_RECURSE _kit_headers CONFIGURE_DEPENDS ${wdk}/*.h)
  set(_outputs ${out}/include/ddi_dispatch.h ${out}/include/ddi_dispatch.c ${out}/spec/ddi.xml)
  add_custom_command(
    OUTPUT ${_outputs}
    COMMAND ddigen generate -q --wdk ${wdk} --overrides ${PROJECT_SOURCE_DIR}/spec/overrides.xml
            --templates ${_tpl} -o ${out}
    DEPENDS ddigen ${_kit_headers} ${PROJECT_SOURCE_DIR}/spec/overrides.xml
            ${_tpl}/ddi_dispatch.h.xsl ${_tpl}/ddi_dispatch.c.xsl ${_tpl}/lib/dispatch_common.xsl
    COMMENT "ddigen: dispatch tables for ${wdk}"
    VERBATIM)
  add_custom_target(${name} DEPENDS ${_outputs})
  set(${name}_SOURCE ${out}/include/ddi_dispatch.c PARENT_SCOPE)
  set(${name}_INCLUDE_DIR ${out}/include PARENT_SCOPE)
  set(${name}_SPEC ${out}/spec/ddi.xml PARENT_SCOPE)
endfunction()
