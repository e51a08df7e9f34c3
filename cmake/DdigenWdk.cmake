# Where a WDK include root (Include/<version>) keeps a header: km/ in
# current kits, shared/ in older ones (d3dkmddi.h lived there), um/ for the
# user-mode ones. Every part of the build that looks for a kit's file asks
# here instead of assuming a folder.
function(ddigen_wdk_find_header out root name)
  foreach(dir km shared um)
    if(EXISTS "${root}/${dir}/${name}")
      set(${out} "${root}/${dir}/${name}" PARENT_SCOPE)
      return()
    endif()
  endforeach()
  set(${out} "" PARENT_SCOPE)
endfunction()

# Script mode, for tests: cmake -DDDIGEN_WDK_ROOT=DIR -DDDIGEN_WDK_HEADER=NAME -P DdigenWdk.cmake
if(CMAKE_SCRIPT_MODE_FILE AND DEFINED DDIGEN_WDK_ROOT AND DEFINED DDIGEN_WDK_HEADER)
  ddigen_wdk_find_header(_found "${DDIGEN_WDK_ROOT}" "${DDIGEN_WDK_HEADER}")
  if(NOT _found)
    message(FATAL_ERROR "no ${DDIGEN_WDK_HEADER} under ${DDIGEN_WDK_ROOT}/{km,shared,um}")
  endif()
  message("${_found}")
endif()
