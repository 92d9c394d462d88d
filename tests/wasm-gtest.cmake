# The GoogleTest suite built for wasm32 with em++ and run under Node: the engine as the page
# runs it, where Eigen::Index and std::size_t are 32 bits wide. Included by tests/CMakeLists.txt.

if(NOT CMAKE_SIZEOF_VOID_P EQUAL 4)
  message(FATAL_ERROR "The wasm-tests preset is for wasm32, where Eigen::Index is 32 bits wide")
endif()

# Debian ships no wasm32 GoogleTest library, only its sources (libgtest-dev): compile them here.
set(POSITIONAL_GOOGLETEST_SOURCE_DIR /usr/src/googletest CACHE PATH "GoogleTest's source tree")
set(gtest_disable_pthreads ON CACHE BOOL "" FORCE)
set(INSTALL_GTEST OFF CACHE BOOL "" FORCE)
set(BUILD_GMOCK ON CACHE BOOL "" FORCE)
add_subdirectory("${POSITIONAL_GOOGLETEST_SOURCE_DIR}" "${CMAKE_BINARY_DIR}/googletest" EXCLUDE_FROM_ALL)
# GoogleTest throws and catches across the engine: it must use the engine's exception model.
# -w: GoogleTest's own sources warn under clang 14; their warnings are not ours to fix.
foreach(library IN ITEMS gtest gtest_main gmock gmock_main)
  target_compile_options(${library} PRIVATE ${POSITIONAL_WASM_EXCEPTIONS} -w)
endforeach()
# The test program is linked at -O1: Binaryen's -O3 passes over the GoogleTest programs were most of
# this build (400 s of CPU against 188 s at -O1, on two cores, when each topic was a program of its
# own). The engine and the tests are still compiled at -O3 with the page's flags, which is what these
# tests are for.
set(POSITIONAL_WASM_TEST_LINK_OPT "-O1" CACHE STRING "Link-time optimisation flag for the wasm32 test program (empty: the build type's)")
# Which test files to build; every one by default (POSITIONAL_WASM_TEST_TOPICS narrows it).
set(POSITIONAL_WASM_TEST_TOPICS "" CACHE STRING "Test topics to build for wasm32 (empty: all)")
file(GLOB TEST_SOURCES CONFIGURE_DEPENDS "${CMAKE_CURRENT_SOURCE_DIR}/cpp/test_*.cpp")
set(sources)
foreach(source IN LISTS TEST_SOURCES)
  get_filename_component(topic "${source}" NAME_WE)
  if(NOT POSITIONAL_WASM_TEST_TOPICS OR topic IN_LIST POSITIONAL_WASM_TEST_TOPICS)
    list(APPEND sources "${source}")
  endif()
endforeach()
# Every topic's tests in one program: a link costs the same for one topic as for all of them (Node
# and Binaryen start, GoogleTest and the engine linked in), and a run starts Node and compiles the
# program's wasm once. One program a topic was 14 links and 14 starts, most of this build and its run.
add_executable(wasm_tests ${sources} cpp/fixtures.cpp)
# Where tests/fixtures is, on fixtures.cpp's command line alone (tests/cpp/fixtures.hpp says why).
set_source_files_properties(cpp/fixtures.cpp PROPERTIES
  COMPILE_DEFINITIONS "POSITIONAL_FIXTURES_DIR=\"${CMAKE_CURRENT_SOURCE_DIR}/fixtures\"")
# package.json makes every .js an ES module; Emscripten's Node loader is CommonJS.
set_target_properties(wasm_tests PROPERTIES SUFFIX ".cjs")
target_link_libraries(wasm_tests PRIVATE positional_engine gtest_main gmock nlohmann_json::nlohmann_json)
# NODERAWFS: the fixtures are read straight from the host's file system, as natively.
# SINGLE_FILE: Emscripten 3.1.6 would fetch() a separate .wasm with Node 20's global fetch, which
# cannot read a file path.
target_link_options(wasm_tests PRIVATE
  ${POSITIONAL_WASM_EXCEPTIONS} -sENVIRONMENT=node -sNODERAWFS=1 -sSINGLE_FILE=1
  -sALLOW_MEMORY_GROWTH=1 -sMAXIMUM_MEMORY=2147483648 -sEXIT_RUNTIME=1 ${POSITIONAL_WASM_TEST_LINK_OPT})
# CTest runs it through CMAKE_CROSSCOMPILING_EMULATOR, which Emscripten's toolchain sets to node.
add_test(NAME wasm32.gtest COMMAND wasm_tests)
