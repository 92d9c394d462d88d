# Every engine header is a module of the maths with files named alike: cpp/src/<m>.cpp,
# tests/cpp/test_<m>.cpp and cpp/bindings/bind_<m>.cpp; and every test and binding file names a
# module. CTest runs it (layout.modules): cmake -DREPO=<repository> -P tests/module-layout.cmake
cmake_minimum_required(VERSION 3.25)  # IN_LIST

set(header_only types limits)  # declarations and constants only: no source of their own
set(untested types)            # the matrix types: nothing to test
set(unbound types validate)    # serve every module, bind nothing to JavaScript
set(cross_topic_tests fuzz_regressions)  # inputs the fuzzers found, across modules
# Bindings of the module itself rather than of one topic: bind_views hands results out as views
# of the module's memory instead of copies (zero-copy), over several modules; bind_scratch is the
# block of the module's memory that small calls (the curves) cross through as numbers.
set(module_wide_bindings views scratch)

file(GLOB headers "${REPO}/cpp/include/positional/*.hpp")
set(modules "")
set(problems "")
foreach(header IN LISTS headers)
  get_filename_component(module "${header}" NAME_WE)
  list(APPEND modules "${module}")
  set(expected "")
  if(NOT module IN_LIST header_only)
    list(APPEND expected "cpp/src/${module}.cpp")
  endif()
  if(NOT module IN_LIST untested)
    list(APPEND expected "tests/cpp/test_${module}.cpp")
  endif()
  if(NOT module IN_LIST unbound)
    list(APPEND expected "cpp/bindings/bind_${module}.cpp")
  endif()
  foreach(file IN LISTS expected)
    if(NOT EXISTS "${REPO}/${file}")
      list(APPEND problems "cpp/include/positional/${module}.hpp has no ${file}")
    endif()
  endforeach()
endforeach()

file(GLOB tests "${REPO}/tests/cpp/test_*.cpp")
file(GLOB bindings "${REPO}/cpp/bindings/bind_*.cpp")
foreach(file IN LISTS tests bindings)
  get_filename_component(name "${file}" NAME_WE)
  string(REGEX REPLACE "^(test|bind)_" "" module "${name}")
  if(NOT module IN_LIST modules AND NOT module IN_LIST cross_topic_tests AND NOT module IN_LIST module_wide_bindings)
    list(APPEND problems "${name}.cpp names no engine header (cpp/include/positional/${module}.hpp)")
  endif()
endforeach()

if(problems)
  list(JOIN problems "\n  " text)
  message(FATAL_ERROR "Engine modules out of step:\n  ${text}")
endif()
list(LENGTH modules count)
message(STATUS "${count} engine headers, in step with their sources, test files and binding files")
